/**
 * The policy part of the review (`--policy <file.json>`): the rules of the CrossGuard pack
 * (policy/rules.ts), held against every live subscription on the reviewed instances, claimed by a
 * source or not. A broken mandatory rule is drift (exit 2); an advisory one is reported only.
 */
import { readFileSync } from "node:fs";
import { fieldsOfLive } from "../../policy/fields";
import type { Finding as RuleFinding } from "../../policy/rules";
import { parsePolicySettings, resolveRules, type PolicySettings } from "../../policy/settings";
import { inHclTerms, snakeCase, SUBSCRIPTION_FIELDS } from "../../provider/model";
import type { Subscription } from "../../provider/wire";
import type { Claim } from "../sources/source";
import { fingerprint } from "./classify";
import { guidKey } from "./guid";
import { isAdvisory, type Finding, type FindingLocation, type Owner, type PolicyScope, type SourceRef } from "./model";

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

/** A source as policy findings are owned: what it claims and the instances it reaches. */
export interface PolicySource {
  readonly source: SourceRef;
  readonly claims: readonly Claim[];
  readonly instances: readonly { readonly baseUrl: string }[];
}

/** The owners of policy findings among `sources` (in command-line order): a GUID's claim (the last one), else the first source reaching the instance. */
export function policyOwners(sources: readonly PolicySource[]): PolicyOwners {
  const claims = new Map(
    sources.flatMap((s) => s.claims.map((claim) => [guidKey(claim.guid), { source: s.source, claim }] as const)),
  );
  return {
    claimOf: (guid) => claims.get(guidKey(guid)),
    reaching: (baseUrl) => sources.find((s) => s.instances.some((i) => i.baseUrl === baseUrl))?.source,
  };
}

/** Who the policy finding on `guid` (on the instance at `baseUrl`) is about, where it points, and the resource's name when claimed. */
export function policyOwner(
  owners: PolicyOwners,
  guid: string,
  baseUrl: string,
): { readonly owner: Owner | null; readonly location: FindingLocation; readonly name?: string } {
  const claimed = owners.claimOf(guid);
  const source = claimed?.source ?? owners.reaching(baseUrl);
  return {
    owner: source ? { source, address: claimed?.claim.address ?? baseUrl } : null,
    location: claimed?.claim.location ?? { file: source?.file ?? "." },
    ...(claimed ? { name: claimed.claim.name } : {}),
  };
}

/** A field's name as the owner's tool writes it: a Terraform user reads it as the configuration does. */
export function policyFieldName(field: string, owner: Owner | null): string {
  return owner && owner.source.kind !== "pulumi-stack" ? snakeCase(field) : field;
}

/** A rule's message in the owner's tool's words: a Terraform user reads `subscriber_url`. */
function policyWords(message: string, owner: Owner | null): string {
  return owner && owner.source.kind !== "pulumi-stack" ? inHclTerms(message, SUBSCRIPTION_FIELDS) : message;
}

/** What to do about a broken rule: change the subscription where it is declared, or the settings. */
function policyAdvice(owner: Owner | null, claimed: boolean, file: string): string {
  if (owner && claimed)
    return `Change it in ${owner.source.name} (${owner.address}) as the rule says and apply, or change the rule in ${file}.`;
  return `No source claims it: change or delete it on the instance, or adopt it and change it there; or change the rule in ${file}.`;
}

/** Mandatory first, then by rule: the order the policy findings of one subscription keep in every format. */
export function byEnforcementThenRule(a: Finding, b: Finding): number {
  return Number(isAdvisory(a)) - Number(isAdvisory(b)) || a.rule!.name.localeCompare(b.rule!.name);
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
    const owned = instance.live.map((s) => policyOwner(owners, s.guid, instance.baseUrl));
    const fields = instance.live.map((s, n) => {
      const { name, owner } = owned[n]!;
      const terraform = owner !== null && owner.source.kind !== "pulumi-stack";
      const label =
        name === undefined
          ? `subscription ${s.guid}`
          : terraform
            ? `${name} (${s.guid})`
            : `WebhookSubscription "${name}" (${s.guid})`;
      return fieldsOfLive(s, label, instance.apiVersion);
    });
    for (const { rule, level, options } of rules) {
      const found: { index: number; finding: RuleFinding }[] =
        rule.kind === "subscription"
          ? fields.flatMap((f, index) => rule.validate(f, options).map((finding) => ({ index, finding })))
          : rule.validateAll(fields, options);
      for (const { index, finding } of found) {
        const s = instance.live[index]!;
        const { owner, location } = owned[index]!;
        const enforcementLevel = level === "advisory" ? "advisory" : "mandatory";
        findings.push({
          class: "policy",
          guid: s.guid,
          owner,
          baseUrl: instance.baseUrl,
          fields: [{ field: policyFieldName(finding.field, owner), ...liveValue(s, finding.field) }],
          message: `${rule.name} (${enforcementLevel}): ${policyWords(finding.message, owner)}`,
          advice: policyAdvice(owner, owned[index]!.name !== undefined, policy.file),
          location,
          fingerprint: fingerprint("policy", owner, s.guid),
          rule: { name: rule.name, enforcementLevel },
          ...(enforcementLevel === "advisory" ? { advisory: true } : {}),
        });
      }
    }
  }
  findings.sort(byEnforcementThenRule);
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
