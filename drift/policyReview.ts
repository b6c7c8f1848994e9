/**
 * What the policy part of the drift review (policy.ts) adds to a report: its own file, so that the
 * report (report.ts) names these types without importing the review that makes them.
 */

/** One rule one live subscription breaks. */
export interface PolicyViolation {
  readonly guid: string;
  readonly subscriberUrl: string;
  /** The instance it lives on. */
  readonly baseUrl: string;
  /** Its resource name in the stack's program, or null for a subscription the stack does not manage. */
  readonly resource: string | null;
  /** The rule's name, e.g. `subscriber-host-allowed`. */
  readonly rule: string;
  /** `remediate` counts as mandatory: the review changes nothing. */
  readonly enforcementLevel: "advisory" | "mandatory";
  /** The field to change. */
  readonly field: string;
  /** What is wrong and what to change (the bad value, never a secret's, and the allowed values). */
  readonly message: string;
}

/** What `--policy` adds to a report. */
export interface PolicyReview {
  /** The settings file, as given on the command line. */
  readonly file: string;
  /** Each rule that was on, with its level. */
  readonly rules: readonly { readonly name: string; readonly enforcementLevel: "advisory" | "mandatory" }[];
  readonly mandatory: number;
  readonly advisory: number;
  /** Ordered by level (mandatory first), then rule, then GUID. */
  readonly violations: readonly PolicyViolation[];
}
