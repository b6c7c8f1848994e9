/**
 * Fault injection: rules set through `PUT /_emulator/faults` that make chosen API operations
 * lose their connection, answer a forced status, or respond late. Clients prove their retry and
 * reconciliation logic against these.
 */
import { z } from "zod";
import { OPERATIONS } from "../provider/wire";

/** What a fault does. */
export const FAULT_KINDS = ["reset-before-commit", "reset-after-commit", "status", "delay"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One rule as the admin API accepts it. */
export const FaultRule = z
  .strictObject({
    operation: z.enum([...OPERATIONS, "*"]),
    kind: z.enum(FAULT_KINDS),
    status: z.int().min(200).max(599).optional(),
    body: z.string().optional(),
    delayMs: z.int().min(0).max(600_000).optional(),
    probability: z.number().min(0).max(1).default(1),
    count: z.int().min(1).optional(),
  })
  .superRefine((rule, context) => {
    if (rule.kind === "status" && rule.status === undefined) {
      context.addIssue({ code: "custom", path: ["status"], message: 'a "status" fault needs "status" (200..599)' });
    }
    if (rule.kind !== "status" && (rule.status !== undefined || rule.body !== undefined)) {
      context.addIssue({ code: "custom", path: ["kind"], message: '"status" and "body" only apply to kind "status"' });
    }
    if (rule.kind === "delay" && rule.delayMs === undefined) {
      context.addIssue({ code: "custom", path: ["delayMs"], message: 'a "delay" fault needs "delayMs"' });
    }
    if (rule.kind !== "delay" && rule.delayMs !== undefined) {
      context.addIssue({ code: "custom", path: ["kind"], message: '"delayMs" only applies to kind "delay"' });
    }
  });
export type FaultRule = z.infer<typeof FaultRule>;

/**
 * The body of `PUT /_emulator/faults`: a list of rules, or `{seed, rules}` for a repeatable run.
 * A bare list is read as `{rules}` (rather than through a union) so errors name the bad field.
 */
export const FaultConfiguration = z.preprocess(
  (body) => (Array.isArray(body) ? { rules: body } : body),
  z.strictObject({ seed: z.int().optional(), rules: z.array(FaultRule) }),
);
export type FaultConfiguration = z.infer<typeof FaultConfiguration>;

/** mulberry32: a tiny seeded PRNG, enough to make probabilistic faults repeatable. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ActiveRule {
  rule: FaultRule;
  /** Firings left; Infinity when the rule had no count. */
  remaining: number;
}

/** The active fault rules. Rules are tried in order; the first that fires applies. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private random: () => number = Math.random;

  /** Replaces every rule. */
  configure(configuration: FaultConfiguration): void {
    this.random = configuration.seed === undefined ? Math.random : seededRandom(configuration.seed);
    this.rules = configuration.rules.map((rule) => ({ rule, remaining: rule.count ?? Infinity }));
  }

  clear(): void {
    this.configure({ rules: [] });
  }

  /**
   * The fault to apply to this request of `operation`, if any. Each matching rule with firings
   * left rolls its probability in turn; a rule that fires uses up one of its count.
   */
  pick(operation: string): FaultRule | undefined {
    for (const active of this.rules) {
      if (active.remaining <= 0) continue;
      if (active.rule.operation !== "*" && active.rule.operation !== operation) continue;
      if (active.rule.probability < 1 && this.random() >= active.rule.probability) continue;
      active.remaining -= 1;
      return active.rule;
    }
    return undefined;
  }
}
