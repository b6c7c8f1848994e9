/**
 * docs/terraform-registry/: the Terraform and OpenTofu registries' pages, generated from the one
 * model by scripts/terraformDocs.ts, and held to `tfplugindocs validate` (built from the Go module
 * proxy at a pinned version, test/support/tfplugindocs.ts) against the provider's schema; broken
 * copies of the pages show that the check names what is wrong. One file, so one build of tfplugindocs.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, expect, it } from "vitest";
import { providersSchemaJson, renderTerraformRegistryPages, TERRAFORM_REGISTRY_DIR } from "../../scripts/terraformDocs";
import { tfplugindocs, TFPLUGINDOCS_VERSION, validateRegistryDocs } from "../support/tfplugindocs";

const scratch = mkdtempSync(join(tmpdir(), "terraform-registry-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The provider's schema as `tofu providers schema -json` prints it, in a file. */
function schemaFile(): string {
  const file = join(scratch, "providers-schema.json");
  writeFileSync(file, JSON.stringify(providersSchemaJson()));
  return file;
}

/** A copy of the committed pages to break. */
function copyOfPages(name: string): string {
  const dir = join(scratch, name);
  cpSync(TERRAFORM_REGISTRY_DIR, dir, { recursive: true });
  return dir;
}

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

it("holds exactly the pages of the tfplugindocs layout", () => {
  expect(filesUnder(TERRAFORM_REGISTRY_DIR)).toEqual([
    "docs/data-sources/subscription.md",
    "docs/data-sources/subscriptions.md",
    "docs/index.md",
    "docs/resources/subscription.md",
  ]);
});

it("each page is what scripts/terraformDocs.ts writes (else: run `npx tsx scripts/terraformDocs.ts`)", async () => {
  for (const [file, text] of Object.entries(await renderTerraformRegistryPages()))
    expect(readFileSync(join(TERRAFORM_REGISTRY_DIR, file), "utf8"), file).toBe(text);
}, 60_000);

it("every argument and attribute of the schema is on its page, with the variable a setting falls back to", () => {
  const read = (file: string) => readFileSync(join(TERRAFORM_REGISTRY_DIR, "docs", file), "utf8");
  const schema = providersSchemaJson() as {
    provider_schemas: Record<
      string,
      {
        provider: { block: { attributes: Record<string, unknown> } };
        resource_schemas: Record<string, { block: { attributes: Record<string, unknown> } }>;
      }
    >;
  };
  const provider = Object.values(schema.provider_schemas)[0]!;
  for (const name of Object.keys(provider.provider.block.attributes))
    expect(read("index.md")).toContain(`- \`${name}\``);
  expect(read("index.md")).toContain("- `base_url` (String) ");
  expect(read("index.md")).toMatch(/- `token` \(String, Sensitive\) .*Falls back to `WEBHOOKS_TOKEN`\./);
  for (const name of Object.keys(provider.resource_schemas.webhooks_subscription!.block.attributes))
    expect(read("resources/subscription.md")).toContain(`- \`${name}\``);
  expect(read("resources/subscription.md")).toContain("- `custom_header_value_wo` (String, Write-only) ");
  // The Pulumi registry's example programs stay out: these pages show examples/terraform.
  expect(read("resources/subscription.md")).not.toContain("{{% examples %}}");
  expect(read("resources/subscription.md")).toContain(
    readFileSync(join(__dirname, "../../examples/terraform/subscriptions.tf"), "utf8").trimEnd(),
  );
});

it("says Sensitive, and every other note, once per attribute: in its notes, not again in its description", () => {
  const items = readdirSync(join(TERRAFORM_REGISTRY_DIR, "docs"), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) => readFileSync(join(entry.parentPath, entry.name), "utf8").split("\n"))
    .filter((line) => line.startsWith("- `"));
  const sensitive = items.filter((line) => /^- `\w+` \([^)]*\bSensitive\b/.test(line));
  // The provider's token and client_secret, the resource's and data source's header value and signature.
  expect(sensitive).toHaveLength(6);
  for (const line of sensitive) expect(line.match(/Sensitive/g), line).toHaveLength(1);
  expect(sensitive.join("\n")).toContain(
    "- `custom_header_value` (String, Sensitive) Value of the custom header. Masked in plan and output, but stored in clear in the state.",
  );
  // Every note after the type (Sensitive, Write-only, …) once per line: in the notes, not again in the description.
  const noted = items.map((line) => ({
    line,
    notes: /^- `\w+` \(([^)]*)\)/.exec(line)?.[1]?.split(", ").slice(1) ?? [],
  }));
  expect(noted.flatMap(({ notes }) => notes)).toContain("Write-only");
  for (const { line, notes } of noted)
    for (const note of notes) expect(line.split(note).length - 1, `${note} in ${line}`).toBe(1);
});

it(`tfplugindocs ${TFPLUGINDOCS_VERSION} builds from the Go module proxy into the cache, once`, async () => {
  const binary = await tfplugindocs((line) => console.log(`[tfplugindocs] ${line}`));
  expect(binary).toMatch(
    new RegExp(`pulumi-webhook-subscriptions/tfplugindocs/${TFPLUGINDOCS_VERSION}/bin/tfplugindocs$`),
  );
  expect(await tfplugindocs()).toBe(binary);
}, 1_200_000);

it("tfplugindocs validate passes the committed pages against the provider's schema", async () => {
  const output = await validateRegistryDocs({ providerDir: TERRAFORM_REGISTRY_DIR, providersSchema: schemaFile() });
  expect(output).toContain("running file mismatch check");
}, 300_000);

it("fails a page for a resource the schema lacks, and a page without its front matter, naming each", async () => {
  const dir = copyOfPages("broken");
  writeFileSync(join(dir, "docs", "resources", "hook.md"), "---\npage_title: hook\n---\n# hook\n");
  writeFileSync(join(dir, "docs", "data-sources", "subscription.md"), "# no front matter\n");
  const failure = validateRegistryDocs({ providerDir: dir, providersSchema: schemaFile() });
  await expect(failure).rejects.toThrow(/tfplugindocs validate found problems in .*broken\/docs/);
  await expect(failure).rejects.toThrow(/hook/);
  await expect(failure).rejects.toThrow(/data-sources\/subscription\.md/);
}, 300_000);

it("fails a page for a schema entry that has none", async () => {
  const dir = copyOfPages("missing");
  rmSync(join(dir, "docs", "data-sources", "subscriptions.md"));
  await expect(validateRegistryDocs({ providerDir: dir, providersSchema: schemaFile() })).rejects.toThrow(
    /webhooks_subscriptions/,
  );
}, 300_000);

it("a schema file without the provider names what it has and what to give", async () => {
  const file = join(scratch, "other-provider.json");
  writeFileSync(
    file,
    JSON.stringify({ format_version: "1.0", provider_schemas: { "registry.opentofu.org/x/other": {} } }),
  );
  await expect(validateRegistryDocs({ providerDir: TERRAFORM_REGISTRY_DIR, providersSchema: file })).rejects.toThrow(
    /holds no schema for provider "webhooks" \(it has: registry\.opentofu\.org\/x\/other\); give the output of `tofu providers schema -json`/,
  );
});
