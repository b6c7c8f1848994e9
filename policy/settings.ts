/**
 * The policy settings: what `new WebhookGuard({...})` takes and what `webhook-subscriptions drift
 * --policy <file.json>` reads, one zod schema. A `--policy-pack-config` file is valid here too
 * (`all` and rules by name), so one file can serve both places. Every problem names its key,
 * shows the value and says what is allowed; the JSON schema each policy declares for
 * `--policy-pack-config` is generated from the same rule options.
 */
import { z } from "zod";
import { ENFORCEMENT_LEVELS, RULES, subscriberHostAllowed, type EnforcementLevel, type Rule } from "./rules";

const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value));
const LEVELS_TEXT = ENFORCEMENT_LEVELS.map((l) => JSON.stringify(l)).join(", ");

const Level = z.enum(ENFORCEMENT_LEVELS, {
  error: (issue) => `must be one of ${LEVELS_TEXT}, got: ${show(issue.input)}`,
});

/** A rule's entry: its enforcement level, or an object of the level and the rule's options. */
function ruleEntry(rule: Rule) {
  const keys = ["enforcementLevel", ...Object.keys(rule.options.shape)].join(", ");
  return z.preprocess(
    (value) => (typeof value === "string" ? { enforcementLevel: value } : value),
    z.strictObject(
      { ...rule.options.shape, enforcementLevel: Level.optional() },
      {
        error: (issue) =>
          `must be an enforcement level (${LEVELS_TEXT}) or an object of ${keys}, got: ${show(issue.input)}`,
      },
    ),
  );
}

/** The one settings schema; unknown keys are refused, at every level. */
export const PolicySettingsSchema = z.strictObject({
  enforcementLevel: Level.optional(),
  all: Level.optional(),
  allowedSubscriberHosts: subscriberHostAllowed.options.shape.allowedSubscriberHosts,
  ...Object.fromEntries(RULES.map((rule) => [rule.name, ruleEntry(rule).optional()])),
});

/** A rule's settings: its level and its options. */
export interface RuleSettings {
  readonly enforcementLevel?: EnforcementLevel;
  readonly [option: string]: unknown;
}

/** The settings, as `WebhookGuard` and `drift --policy` take them (see docs/policy.md). */
export interface PolicySettings {
  /** The level of every rule that is on by default (`custom-header-required` stays off until named). */
  readonly enforcementLevel?: EnforcementLevel;
  /** The level of every rule, as `--policy-pack-config` writes it; a rule named below wins. */
  readonly all?: EnforcementLevel;
  /** The hosts subscriberUrl may point at: `hooks.example.com`, or `*.example.org` for its subdomains. */
  readonly allowedSubscriberHosts?: readonly string[];
  /** A rule by name (`subscriber-url-https`, …): its level, or its level and options. */
  readonly [rule: string]: EnforcementLevel | RuleSettings | readonly string[] | undefined;
}

/** Settings that cannot be used; `problems` holds one line per bad key. */
export class PolicySettingsError extends Error {
  override readonly name = "PolicySettingsError";
  constructor(
    readonly problems: readonly string[],
    where = "policy settings",
  ) {
    super(`Invalid ${where}:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
}

/** `a.b[0]` for an issue path. */
function keyOf(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");
}

/** The keys allowed in the object at `path` of the settings. */
function knownKeys(path: readonly PropertyKey[], prefix: readonly PropertyKey[]): string[] {
  const inside = [...prefix, ...path];
  if (inside.length === 0) return Object.keys(PolicySettingsSchema.shape);
  const rule = RULES.find((r) => r.name === inside[0]);
  return rule ? ["enforcementLevel", ...Object.keys(rule.options.shape)] : [];
}

/** One line per problem: the key, the value and what is allowed; each distinct problem once. */
function problemsOf(error: z.ZodError, prefix: readonly PropertyKey[] = []): string[] {
  const lines = new Set<string>();
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      const known = knownKeys(issue.path, prefix).join(", ");
      for (const key of issue.keys)
        lines.add(`${keyOf([...prefix, ...issue.path, key])} is not a setting (known: ${known})`);
    } else lines.add(`${keyOf([...prefix, ...issue.path])} ${issue.message}`);
  }
  return [...lines];
}

/** Checks settings; throws `PolicySettingsError` naming each bad key and value. */
export function parsePolicySettings(value: unknown, where?: string): PolicySettings {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new PolicySettingsError([`the settings must be a JSON object, got: ${show(value)}`], where);
  const parsed = PolicySettingsSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new PolicySettingsError(problemsOf(parsed.error), where);
  return parsed.data as PolicySettings;
}

/** A rule's options as the engine hands them to the pack (`args.getConfig()`), checked. */
export function ruleOptions(rule: Rule, raw: unknown): Record<string, unknown> {
  const parsed = rule.options.safeParse(raw ?? {}, { reportInput: true });
  if (!parsed.success) throw new PolicySettingsError(problemsOf(parsed.error, [rule.name]), "policy pack config");
  return parsed.data;
}

/** A rule with the level and options the settings give it. */
export interface ResolvedRule {
  readonly rule: Rule;
  readonly level: EnforcementLevel;
  readonly options: Record<string, unknown>;
}

/**
 * Each rule's level and options: its default, then `enforcementLevel` (rules on by default),
 * then `all`, then the rule's own entry; `allowedSubscriberHosts` is the host rule's option.
 */
export function resolveRules(settings: PolicySettings): ResolvedRule[] {
  return RULES.map((rule) => {
    const entry = (settings[rule.name] ?? {}) as RuleSettings;
    const { enforcementLevel: own, ...options } = typeof entry === "string" ? { enforcementLevel: entry } : entry;
    let level = rule.defaultLevel;
    if (settings.enforcementLevel && level !== "disabled") level = settings.enforcementLevel;
    if (settings.all) level = settings.all;
    if (own) level = own as EnforcementLevel;
    const shorthand =
      rule === subscriberHostAllowed && settings.allowedSubscriberHosts
        ? { allowedSubscriberHosts: [...settings.allowedSubscriberHosts] }
        : {};
    return { rule, level, options: { ...shorthand, ...options } };
  });
}

/** The JSON schema of a rule's options, as a policy's `configSchema` (what `--policy-pack-config` is checked against). */
export function configSchemaOf(rule: Rule): { properties: Record<string, object> } | undefined {
  const schema = z.toJSONSchema(rule.options) as { properties?: Record<string, object> };
  const properties = schema.properties ?? {};
  return Object.keys(properties).length > 0 ? { properties } : undefined;
}
