/**
 * The ready-to-paste adoption of an unmanaged subscription, for the front door the stack uses:
 * - dynamic: a `new WebhookSubscription(…, { adoptGuid, … })` whose arguments equal the live
 *   fields, so that the first `pulumi up` takes the subscription over without changing it;
 * - native: the `pulumi import` command, which records it in the stack's state and writes the
 *   program code for it, in the program's language, to a file beside the program.
 */
import { NATIVE_WEBHOOK_SUBSCRIPTION_TYPE } from "../../../provider/model";
import { hasHeaderValue, webhookName, type Subscription } from "../../../provider/wire";
import type { AdoptionName } from "../../review/adoptionNames";
import type { Adoption } from "../../review/model";
import { shellWord } from "../../review/shellWord";
import type { AdoptionTarget } from "../source";

/** Where an unmanaged subscription is adopted into a stack: through which front door, on which provider. */
export type StackTarget = Extract<AdoptionTarget, { kind: "pulumi-stack" }>;

/** The source file extension of each Pulumi runtime, for `pulumi import --out`. */
const SOURCE_EXTENSIONS: Readonly<Record<string, string>> = {
  yaml: "yaml",
  nodejs: "ts",
  python: "py",
  go: "go",
  dotnet: "cs",
  java: "java",
};

/** How to adopt `live`, named `name`, into the stack of `target`: the snippet for its front door, and its kind. */
export function pulumiAdoption(
  live: Subscription,
  target: StackTarget,
  name: AdoptionName,
): Pick<Adoption, "kind" | "snippet"> {
  return target.frontDoor === "native"
    ? { kind: "pulumi-import", snippet: importCommand(live, target, name) }
    : { kind: "typescript", snippet: adoptSnippet(live, name, target.provider?.name ?? null) };
}

/** The stack's secret config key the code reads the custom header value from: `<name>HeaderValue`. */
export function headerValueConfigKey(name: AdoptionName): string {
  return `${name.camel}HeaderValue`;
}

/** The program variable a Provider's snippet refers to: its name in camelCase (`eu-prod` → `euProd`). */
export function providerVariable(provider: string): string {
  const camel = provider.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""));
  return /^[A-Za-z_$]/.test(camel) ? camel : `provider${camel}`;
}

/**
 * The TypeScript statement for `live`. A custom header value is never printed: the snippet reads
 * it from a secret config key and says how to set it, because leaving it out would make adoption
 * clear the value on the instance.
 * @param provider the explicit `Provider` of the instance it lives on, or null for the default provider.
 */
export function adoptSnippet(live: Subscription, name: AdoptionName, provider: string | null = null): string {
  const event = webhookName(live.webhook);
  const lines = [
    `new WebhookSubscription(${JSON.stringify(name.kebab)}, {`,
    `  adoptGuid: ${JSON.stringify(live.guid)},`,
    `  webhook: ${event ? `Webhook.${event}` : String(live.webhook)},`,
    `  filterObjectType: ${live.filterObjectType},`,
  ];
  if (live.filterObjectGuid !== null) lines.push(`  filterObjectGuid: ${JSON.stringify(live.filterObjectGuid)},`);
  lines.push(`  subscriberUrl: ${JSON.stringify(live.subscriberUrl)},`);
  if (live.customHeader !== "") lines.push(`  customHeader: ${JSON.stringify(live.customHeader)},`);
  if (hasHeaderValue(live)) {
    const key = headerValueConfigKey(name);
    lines.push(
      `  // The live value, from the stack's secret config: adopt stores it there; by hand, pulumi config set --secret ${key} <value>`,
      `  customHeaderValue: new pulumi.Config().requireSecret(${JSON.stringify(key)}),`,
    );
  }
  lines.push(provider === null ? "});" : `}, { provider: ${providerVariable(provider)} });`);
  return lines.join("\n");
}

/**
 * The `pulumi import` command for `live` (run in the program's directory), naming the stack and,
 * for an explicit provider, that provider (`--provider <name>=<urn>`). The code it generates goes
 * to a file (`--out`), never to the terminal: it holds the custom header value in plain text, and
 * the review runs in CI, whose logs would keep it. A comment line before the command says so.
 */
export function importCommand(
  live: Subscription,
  target: Pick<StackTarget, "stack" | "provider" | "runtime">,
  name: AdoptionName,
): string {
  const out = `${name.kebab}.${SOURCE_EXTENSIONS[target.runtime ?? ""] ?? "txt"}`;
  const words = ["pulumi", "import", NATIVE_WEBHOOK_SUBSCRIPTION_TYPE, name.kebab, live.guid, "--stack", target.stack];
  if (target.provider) words.push("--provider", `${target.provider.name}=${target.provider.urn}`);
  const command = [...words, "--out", out].map(shellWord).join(" ");
  if (!hasHeaderValue(live)) return command;
  return [
    `# ${name.kebab} has a custom header value: the code pulumi import writes to ${out} holds it in plain text.`,
    `# Move it into secret config (pulumi config set --secret ${headerValueConfigKey(name)} <value>) and read it from there.`,
    command,
  ].join("\n");
}
