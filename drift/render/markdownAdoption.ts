/**
 * The adoption snippets of the unmanaged subscriptions, folded in one `<details>` block, grouped
 * by the source each is adopted into and by kind: TypeScript statements with the imports they
 * need, `pulumi import` commands, Terraform `import` blocks.
 */
import { plural } from "../review/plural";
import type { Adoption, Finding } from "../review/model";
import { sourceTitle } from "./names";

/** The statements, with the imports they need (and no other), for a stack's TypeScript program. */
function typescriptBlock(adoptions: readonly Adoption[]): string[] {
  // `pulumi` only for a secret header value read from the stack's config.
  const usesPulumi = adoptions.some((a) => a.snippet.includes("pulumi."));
  const body = [
    ...(usesPulumi ? ['import * as pulumi from "@pulumi/pulumi";'] : []),
    'import { WebhookSubscription, Webhook } from "pulumi-webhook-subscriptions";',
    ...(adoptions.some((a) => a.provider)
      ? ["// `{ provider: … }` names the Provider of that instance, as declared in your program."]
      : []),
    "",
    ...adoptions.map((a) => `${a.snippet}\n`),
  ].join("\n");
  return [`Into the program of ${sourceTitle(adoptions[0]!.into)}:`, "", "```ts", body.trimEnd(), "```"];
}

/** The `pulumi import` commands, for a stack on the native plugin. */
function importBlock(adoptions: readonly Adoption[]): string[] {
  return [
    `Into ${sourceTitle(adoptions[0]!.into)}, run in the program's directory: \`pulumi import\` records each in the ` +
      "stack's state and writes the code to add to the program to its `--out` file:",
    "",
    "```sh",
    adoptions.map((a) => a.snippet).join("\n\n"),
    "```",
  ];
}

/** The `import` blocks, for a Terraform/OpenTofu working directory. */
function terraformBlock(adoptions: readonly Adoption[]): string[] {
  return [
    `Into ${sourceTitle(adoptions[0]!.into)}: add these \`import\` blocks to its configuration, each with a ` +
      "`resource` block at the same address declaring the subscription's arguments; `plan` shows the import " +
      "and `apply` performs it (OpenTofu 1.6+, Terraform 1.5+):",
    "",
    "```hcl",
    adoptions.map((a) => a.snippet).join("\n\n"),
    "```",
  ];
}

const BLOCKS = { typescript: typescriptBlock, "pulumi-import": importBlock, "terraform-import": terraformBlock };

/** The folded block, or "" when no unmanaged subscription can be adopted. */
export function adoptionSection(findings: readonly Finding[]): string {
  const adoptions = findings.flatMap((f) => (f.adoption ? [f.adoption] : []));
  if (adoptions.length === 0) return "";
  // One group per source adopted into and kind, in the order the findings first name them.
  const groups = new Map<string, Adoption[]>();
  for (const a of adoptions) {
    const key = JSON.stringify([a.into.kind, a.into.name, a.kind]);
    groups.set(key, [...(groups.get(key) ?? []), a]);
  }
  return [
    `<details><summary>Adopt ${plural(adoptions.length, "unmanaged subscription")}</summary>`,
    "",
    ...[...groups.values()].flatMap((group) => [...BLOCKS[group[0]!.kind](group), ""]),
    "</details>",
  ].join("\n");
}
