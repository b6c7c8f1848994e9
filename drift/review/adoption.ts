/**
 * How to take over an unmanaged subscription: into a stack reaching its instance (its own front
 * door's snippet, the program's language), else into a Terraform/OpenTofu directory reaching it
 * (an `import` block). One subscription's snippet.
 */
import type { Subscription } from "../../provider/wire";
import { pulumiAdoption } from "../sources/pulumi/adoptionSnippet";
import { terraformAdoption, terraformAdoptionAdvice } from "../sources/terraform/adoption";
import type { SourceResult } from "../sources/source";
import type { AdoptionName } from "./adoptionNames";
import type { Adoption } from "./model";
import { shellWord } from "./shellWord";

/**
 * Which of the sources reaching an instance (in command-line order) an unmanaged subscription is
 * adopted into: the first stack, else the first of them.
 */
export function adoptionChoice<T>(reaching: readonly T[], isStack: (r: T) => boolean): T | undefined {
  return reaching.find(isStack) ?? reaching[0];
}

/** The adoption of `live` (listed on `baseUrl`) into the first source that can say, and the advice naming it. */
export function adoptionOf(
  sources: readonly SourceResult[],
  live: Subscription,
  baseUrl: string,
  name: AdoptionName,
): { readonly adoption: Adoption; readonly advice: string } | undefined {
  const reaching = sources.flatMap((s) =>
    s.instances.flatMap((i) =>
      i.baseUrl === baseUrl && i.adoptInto ? [{ into: s.report.source, target: i.adoptInto }] : [],
    ),
  );
  const chosen = adoptionChoice(reaching, (r) => r.target.kind === "pulumi-stack");
  if (!chosen) return undefined;
  const { into, target } = chosen;
  if (target.kind === "terraform-directory") {
    const { snippet } = terraformAdoption(live, target, name);
    return {
      adoption: { kind: "terraform-import", into, provider: null, snippet },
      advice: `${terraformAdoptionAdvice(target.dir, live.guid, target.cli)} ${adoptAll(`--into-terraform ${shellWord(target.dir)}`)}`,
    };
  }
  const { kind, snippet } = pulumiAdoption(live, target, name);
  return {
    adoption: { kind, into, provider: target.provider?.name ?? null, snippet },
    // The snippet is the adoption's own (several lines of code): the advice names it, once.
    advice:
      (kind === "pulumi-import"
        ? `Adopt it into stack ${into.name}: run its \`pulumi import\` command (the adoption snippet) in the program's directory.`
        : `Adopt it into stack ${into.name}'s program: its \`new WebhookSubscription(…, { adoptGuid })\` statement (the adoption snippet) takes it over at the next \`pulumi up\`, changing nothing on the instance.`) +
      (target.provider === null ? ` ${adoptAll(`--into-stack ${shellWord(target.stack)}`)}` : ""),
  };
}

/** The pointer to `adopt`, which writes every unmanaged subscription at once into `target` (its flag). */
function adoptAll(target: string): string {
  return `Or adopt every unmanaged subscription at once, with header values kept secret: \`webhook-subscriptions adopt <the same sources> ${target} --verify\` (docs/adopting.md).`;
}
