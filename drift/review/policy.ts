/**
 * The policy part of the review (`--policy <file.json>`): the rules of the CrossGuard pack
 * (policy/rules.ts), held against every live subscription on the reviewed instances, claimed by a
 * source or not. A broken mandatory rule is drift (exit 2); an advisory one is reported only.
 */
import { readFileSync } from "node:fs";
import { fieldsOfLive } from "../../policy/fields";
import type { Finding as RuleFinding } from "../../policy/rules";
import { parsePolicySettings, resolveRules, type PolicySettings } from "../../policy/settings";
import { snakeCase } from "../../provider/model";
import type { Subscription } from "../../provider/wire";
import type { Claim } from "../sources/source";
import { fingerprint } from "./classify";
import type { Finding, Owner, PolicyScope, SourceRef } from "./model";

/** `--policy`: the settings file as given, and its settings. */
export interface PolicyInput {
  readonly file: string;
  readonly settings: PolicySettings;
}

/** The live subscriptions of one instance. */
export interface PolicyInstance {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly live: readonly Subscription[];
}

/** Who a live subscription's policy finding is about: its claim, or the first source reaching its instance. */
export interface PolicyOwners {
  readonly claimOf: (guid: string) => { readonly source: SourceRef; readonly claim: Claim } | undefined;
  readonly reaching: (baseUrl: string) => SourceRef | undefined;
}

/**
 * Reads and checks a settings file (`shown`: its name as the user wrote it); throws
 * `PolicySettingsError` naming each bad key and value.
 */
export function readPolicyFile(path: string, shown = path): PolicySettings {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`Cannot read the policy file ${JSON.stringify(shown)}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`The policy file ${JSON.stringify(shown)} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  return parsePolicySettings(value, `policy file ${shown}`);
}

/** A field's live value as a finding shows it; the header value never (only that it breaks the rule). */
function liveValue(s: Subscription, field: string): { secret: boolean; live?: string | number | null } {
  if (field === "customHeaderValue" || field === "signature") return { secret: true };
  const value = (s as unknown as Record<string, unknown>)[field];
  return typeof value === "string" || typeof value === "number" || value === null
    ? { secret: false, live: value }
    : { secret: false };
}

/** Holds every live subscription to the rules: the rules that were on, and each violation once. */
export function policyFindings(
  policy: PolicyInput,
  instances: readonly PolicyInstance[],
  owners: PolicyOwners,
): { readonly scope: PolicyScope; readonly findings: Finding[] } {
  const rules = resolveRules(policy.settings).filter((r) => r.level !== "disabled");
  const findings: Finding[] = [];
  for (const instance of instances) {
    const claims = instance.live.map((s) => owners.claimOf(s.guid));
    const fields = instance.live.map((s, n) => {
      const name = claims[n]?.claim.name;
      return fieldsOfLive(
        s,
        name ? `WebhookSubscription "${name}" (${s.guid})` : `subscription ${s.guid}`,
        instance.apiVersion,
      );
    });
    for (const { rule, level, options } of rules) {
      const found: { index: number; finding: RuleFinding }[] =
        rule.kind === "subscription"
          ? fields.flatMap((f, index) => rule.validate(f, options).map((finding) => ({ index, finding })))
          : rule.validateAll(fields, options);
      for (const { index, finding } of found) {
        const s = instance.live[index]!;
        const claimed = claims[index];
        const source = claimed?.source ?? owners.reaching(instance.baseUrl);
        const owner: Owner | null = source ? { source, address: claimed?.claim.address ?? instance.baseUrl } : null;
        const enforcementLevel = level === "advisory" ? "advisory" : "mandatory";
        // A Terraform user reads the field as the configuration writes it.
        const field = source && source.kind !== "pulumi-stack" ? snakeCase(finding.field) : finding.field;
        findings.push({
          class: "policy",
          guid: s.guid,
          owner,
          baseUrl: instance.baseUrl,
          fields: [{ field, ...liveValue(s, finding.field) }],
          message: `${rule.name} (${enforcementLevel}): ${finding.message}`,
          location: claimed?.claim.location ?? { file: source?.file ?? "." },
          fingerprint: fingerprint("policy", owner, s.guid),
          rule: { name: rule.name, enforcementLevel },
          ...(enforcementLevel === "advisory" ? { advisory: true } : {}),
        });
      }
    }
  }
  // Mandatory first, then by rule: the order the findings of one subscription keep in every format.
  findings.sort(
    (a, b) => Number(a.advisory ?? false) - Number(b.advisory ?? false) || a.rule!.name.localeCompare(b.rule!.name),
  );
  return {
    scope: {
      file: policy.file,
      rules: rules.map((r) => ({
        name: r.rule.name,
        enforcementLevel: r.level === "advisory" ? ("advisory" as const) : ("mandatory" as const),
      })),
    },
    findings,
  };
}
