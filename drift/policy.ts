/**
 * The policy part of the drift review (`--policy <file.json>`): the rules of the CrossGuard pack
 * (policy/rules.ts), held against every live subscription on the reviewed instances, managed by
 * the stack or not. A broken mandatory rule makes the review exit 2, whatever the drift.
 */
import { readFileSync } from "node:fs";
import { fieldsOfLive } from "../policy/fields";
import type { Finding } from "../policy/rules";
import { parsePolicySettings, resolveRules, type PolicySettings } from "../policy/settings";
import type { Subscription } from "../provider/wire";
import type { PolicyReview, PolicyViolation } from "./policyReview";
import { EXIT_CODE, type DriftReport } from "./report";
import { guidKey } from "./stateSnapshot";

/** The live subscriptions of one instance, and the names of those the stack manages (by `guidKey`). */
export interface PolicyInstance {
  readonly baseUrl: string;
  readonly apiVersion: string;
  readonly live: readonly Subscription[];
  readonly managedNames: ReadonlyMap<string, string>;
}

/**
 * Reads and checks a settings file (`shown`: its name as the user wrote it); throws
 * `PolicySettingsError` naming each bad key and value.
 */
export function readPolicyFile(path: string, shown = path): PolicySettings {
  const file = shown;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`Cannot read the policy file ${JSON.stringify(file)}: ${(err as Error).message}`, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`The policy file ${JSON.stringify(file)} is not JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  return parsePolicySettings(value, `policy file ${file}`);
}

/** Holds every live subscription to the rules; each violation once. */
export function reviewPolicy(
  file: string,
  settings: PolicySettings,
  instances: readonly PolicyInstance[],
): PolicyReview {
  const rules = resolveRules(settings).filter((r) => r.level !== "disabled");
  const violations: PolicyViolation[] = [];
  for (const instance of instances) {
    const resourceOf = (s: Subscription) => instance.managedNames.get(guidKey(s.guid)) ?? null;
    const fields = instance.live.map((s) => {
      const name = resourceOf(s);
      return fieldsOfLive(
        s,
        name ? `WebhookSubscription "${name}" (${s.guid})` : `subscription ${s.guid}`,
        instance.apiVersion,
      );
    });
    for (const { rule, level, options } of rules) {
      const found: { index: number; finding: Finding }[] =
        rule.kind === "subscription"
          ? fields.flatMap((f, index) => rule.validate(f, options).map((finding) => ({ index, finding })))
          : rule.validateAll(fields, options);
      for (const { index, finding } of found) {
        const s = instance.live[index]!;
        violations.push({
          guid: s.guid,
          subscriberUrl: s.subscriberUrl,
          baseUrl: instance.baseUrl,
          resource: resourceOf(s),
          rule: rule.name,
          enforcementLevel: level === "advisory" ? "advisory" : "mandatory",
          field: finding.field,
          message: finding.message,
        });
      }
    }
  }
  violations.sort(
    (a, b) =>
      Number(a.enforcementLevel === "advisory") - Number(b.enforcementLevel === "advisory") ||
      a.rule.localeCompare(b.rule) ||
      a.guid.localeCompare(b.guid),
  );
  const count = (level: PolicyViolation["enforcementLevel"]) =>
    violations.filter((v) => v.enforcementLevel === level).length;
  return {
    file,
    rules: rules.map((r) => ({
      name: r.rule.name,
      enforcementLevel: r.level === "advisory" ? "advisory" : "mandatory",
    })),
    mandatory: count("mandatory"),
    advisory: count("advisory"),
    violations,
  };
}

/** The report with the policy review; a broken mandatory rule turns exit 0 into 2 (errors stay 1). */
export function withPolicy(report: DriftReport, review: PolicyReview): DriftReport {
  const exitCode = review.mandatory > 0 && report.exitCode === EXIT_CODE.noDrift ? EXIT_CODE.drift : report.exitCode;
  return { ...report, exitCode, policy: review };
}
