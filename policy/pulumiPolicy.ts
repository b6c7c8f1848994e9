/**
 * `@pulumi/policy`, loaded once for the pack. It is an optional peer dependency: a policy pack
 * project installs it beside this package, and nothing else of this package needs it. Without it,
 * importing `pulumi-webhook-subscriptions/policy` says which package to install instead of Node's
 * "Cannot find module".
 */
import type * as PulumiPolicy from "@pulumi/policy";

/** The peer dependency, and the entry point that needs it. */
export const POLICY_PEER = "@pulumi/policy";
export const POLICY_ENTRY = "pulumi-webhook-subscriptions/policy";

/** `@pulumi/policy` is not installed where the policy entry point is loaded. */
export class MissingPolicyPeerError extends Error {
  override readonly name = "MissingPolicyPeerError";
  readonly code = "ERR_MISSING_PEER_DEPENDENCY";

  constructor() {
    // No `cause`: Node would print the original "Cannot find module" under it.
    super(
      `${POLICY_ENTRY} needs ${POLICY_PEER}: run \`npm install ${POLICY_PEER}\` in the policy pack's project ` +
        "(it is an optional peer dependency of pulumi-webhook-subscriptions, installed only by projects that use the policy pack)",
    );
  }
}

/** Whether `err` is Node's failure to find `@pulumi/policy` itself (not a module it requires). */
function isPeerMissing(err: unknown): boolean {
  if (!(err instanceof Error) || (err as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") return false;
  return err.message.split("\n")[0] === `Cannot find module '${POLICY_PEER}'`;
}

/** `@pulumi/policy`, or a MissingPolicyPeerError that says how to install it; `load` is Node's require in production. */
export function loadPulumiPolicy(load: (id: string) => unknown = require): typeof PulumiPolicy {
  try {
    return load(POLICY_PEER) as typeof PulumiPolicy;
  } catch (err) {
    if (isPeerMissing(err)) throw new MissingPolicyPeerError();
    throw err;
  }
}
