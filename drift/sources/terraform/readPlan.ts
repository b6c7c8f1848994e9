/**
 * A plan's JSON as a source's claims and observations, read as Terraform's "JSON Output Format"
 * documents a plan:
 * - `prior_state` is the state as the plan's refresh left it (live values, not yet written): every
 *   `webhooks_subscription` in it, in every module, is claimed, with its full address;
 * - `resource_drift` is what the refresh found changed since the state was written: an update is
 *   `differs-from-state` (recorded = before, live = after), a delete is `deleted` (and claimed: the
 *   state records it, though the refreshed `prior_state` no longer holds it);
 * - `resource_changes` (absent with `-refresh-only`, i.e. `--state-only`) is live-after-refresh
 *   against the configuration: an update, a replace, a delete of one no longer declared, or the
 *   create of one never created is `differs-from-configuration`. A value `apply -refresh-only`
 *   accepted into the state is found here, since the state then agrees with the live one.
 * Fields and messages speak HCL (planFields.ts); no value of a secret reaches them.
 */
import { DriftError, DriftErrorCode } from "../../errors";
import type { Compared, SourceRef } from "../../review/model";
import { shellWord } from "../../review/shellWord";
import type { Claim, Observation, ReachedInstance, SourceResult } from "../source";
import { chdirCommand, type TerraformCli } from "./cli";
import { terraformInstances, providerConstants } from "./instances";
import { locator } from "./locations";
import { differingFields, fieldNames, fieldOf } from "./planFields";
import { guidOf, isSubscription, type Json, type PlanChange, type PlanJson, type StateModule } from "./planJson";

/** What reading a plan needs besides the plan. */
export interface PlanContext {
  /** The source as findings name it. */
  readonly ref: SourceRef;
  /** The directory (or the file) as given on the command line: messages name it so. */
  readonly dir: string;
  /** The root module's directory, where its declarations are found. */
  readonly absDir: string;
  /** Where the review runs: locations are relative to it. */
  readonly cwd: string;
  readonly cli: Pick<TerraformCli, "name">;
  /** A `-refresh-only` plan: live against the state alone, nothing about the configuration. */
  readonly stateOnly: boolean;
  /** The provider's `WEBHOOKS_*` variables: the instance its subscriptions live on. */
  readonly env: NodeJS.ProcessEnv;
}

/** Every `webhooks_subscription` of a state's module tree. */
function stateSubscriptions(module: StateModule | undefined): NonNullable<StateModule["resources"]>[number][] {
  if (!module) return [];
  return [
    ...(module.resources ?? []).filter(isSubscription),
    ...(module.child_modules ?? []).flatMap(stateSubscriptions),
  ];
}

const has = (actions: readonly string[], action: string) => actions.includes(action);

/** What `tofu apply` would do, in words. */
function applyWould(change: PlanChange["change"]): string {
  if (has(change.actions, "delete") && has(change.actions, "create")) {
    const forced = [...new Set((change.replace_paths ?? []).map((p) => fieldOf(String(p[0]))))];
    return `replace it (a new GUID and Signature${forced.length > 0 ? `; ${forced.join(", ")} cannot change in place` : ""})`;
  }
  return "update it in place";
}

/** One plan being read: its claims so far and the commands its advice names. */
class PlanReading {
  readonly claims = new Map<string, Claim>();
  /** The `base_url`s the state records, each an instance the source reaches. */
  readonly recordedUrls: string[] = [];
  readonly locate: ReturnType<typeof locator>;
  /** `` `tofu -chdir=<dir> apply` `` */
  readonly apply: string;

  constructor(
    plan: PlanJson,
    readonly context: PlanContext,
  ) {
    this.locate = locator(plan, { ...context, fallbackFile: context.ref.file });
    this.apply = this.command("apply");
  }

  /** `` `<cli> -chdir=<dir> <args>` `` for this plan's directory. */
  command(args: string): string {
    return chdirCommand(this.context.cli.name, this.context.dir, args);
  }

  /** Claims `address` when its values hold a GUID (once). */
  claim(address: string, name: string | undefined, values: Record<string, Json> | null | undefined): void {
    const guid = guidOf(values);
    if (!guid || this.claims.has(address)) return;
    // A Terraform resource's name in findings is its address, as `tofu state list` prints it.
    this.claims.set(address, { guid, address, name: address, location: this.locate(address, name) });
    if (typeof values?.base_url === "string" && values.base_url) this.recordedUrls.push(values.base_url);
  }
}

/** What the refresh found changed since the state was written; returns the addresses deleted out of band too. */
function driftObservations(
  plan: PlanJson,
  reading: PlanReading,
): { observations: Observation[]; deleted: Set<string> } {
  const { context, apply } = reading;
  const observations: Observation[] = [];
  const deleted = new Set<string>();
  for (const d of (plan.resource_drift ?? []).filter(isSubscription)) {
    const { change } = d;
    const guid = guidOf(change.before);
    if (!guid) continue;
    const location = reading.locate(d.address, d.name);
    if (has(change.actions, "delete") || change.after === null || change.after === undefined) {
      // The refreshed prior_state no longer holds it; the state it was planned from does.
      reading.claim(d.address, d.name, change.before);
      deleted.add(d.address);
      observations.push({
        class: "deleted",
        address: d.address,
        guid,
        fields: [],
        message: `${d.address} (${guid}) is recorded in the state of ${context.dir} but no longer exists on the instance.`,
        advice: `Run ${apply} to create it again (a new GUID and Signature: tell its receiver), or remove it from the configuration and run ${apply} to drop it from the state.`,
        location,
      });
    } else if (has(change.actions, "update")) {
      const fields = differingFields(change, "recorded", "live");
      observations.push({
        class: "differs-from-state",
        address: d.address,
        guid,
        fields,
        message: `${d.address} (${guid}) differs from the state of ${context.dir} in ${fieldNames(fields) || "its attributes"}.`,
        advice: `Run ${apply} to set the configuration's values again, or ${reading.command("apply -refresh-only")} to accept the live ones into the state (then change the configuration to match, or the next apply reverts them).`,
        location,
      });
    }
  }
  return { observations, deleted };
}

/** The one observation of a configuration's change, or none when it is no difference (a no-op, a create already reported as deleted). */
function configurationObservation(
  c: PlanChange,
  reading: PlanReading,
  deleted: ReadonlySet<string>,
): Observation | undefined {
  const { context, apply } = reading;
  const { change } = c;
  const actions = change.actions;
  const location = reading.locate(c.address, c.name);
  const differs = (guid: string | null, message: string, advice: string, fields: Observation["fields"] = []) => ({
    class: "differs-from-configuration" as const,
    address: c.address,
    guid,
    fields,
    message,
    advice,
    location,
  });
  const importing = change.importing?.id ?? (change.importing ? guidOf(change.before) : undefined);
  if (c.deposed) {
    const guid = guidOf(change.before);
    if (!guid) return undefined;
    const address = `${c.address} (deposed ${c.deposed})`;
    reading.claim(address, c.name, change.before);
    return {
      ...differs(
        guid,
        `${c.address} has a deposed object ${guid}: the old subscription of a replacement that did not finish, which the configuration no longer declares.`,
        `Run ${apply} to delete it (its replacement is the current ${c.address}).`,
      ),
      address,
    };
  }
  if (importing !== undefined)
    return differs(
      importing,
      `${c.address} is to be imported from ${importing} by an import block: the state does not record it yet.`,
      `Run ${apply} to import it.`,
    );
  if (has(actions, "create") && !has(actions, "delete")) {
    if (deleted.has(c.address)) return undefined; // Deleted out of band: reported once, as deleted.
    return differs(
      null,
      `${c.address} is declared by the configuration of ${context.dir} but was never created (no state records it).`,
      `Run ${apply} to create it, or remove it from the configuration.`,
    );
  }
  const guid = guidOf(change.before) ?? null;
  const which = `${c.address}${guid ? ` (${guid})` : ""}`;
  if (has(actions, "delete") && !has(actions, "create"))
    return differs(
      guid,
      `${which} exists and is recorded in the state, but the configuration of ${context.dir} no longer declares it.`,
      `Run ${apply} to delete it, or declare it again; to keep the subscription but stop managing it, add a \`removed\` block (or run ${reading.command(`state rm ${shellWord(c.address)}`)}).`,
    );
  if (has(actions, "update") || (has(actions, "delete") && has(actions, "create"))) {
    const fields = differingFields(change, "live", "declared");
    return differs(
      guid,
      `${which} differs from the configuration of ${context.dir} in ${fieldNames(fields) || "its attributes"}: \`${context.cli.name} apply\` would ${applyWould(change)}.`,
      `Run ${apply} to apply the configuration, or change the configuration to the live values.`,
      fields,
    );
  }
  return undefined;
}

/**
 * The plan as a source: its claims, what the plan found, its instances. A working directory's
 * instances say how to adopt into it (`adoptInto`); a saved plan's file cannot be applied, so its
 * do not. Throws a DriftError for a plan format of another major version.
 */
export function readPlan(plan: PlanJson, context: PlanContext): SourceResult {
  const major = (plan.format_version ?? "1.0").split(".")[0];
  if (major !== "1")
    throw new DriftError(
      DriftErrorCode.TerraformPlanFailed,
      `--terraform ${context.dir}: \`${context.cli.name} show -json\` printed format_version ${plan.format_version}; this review reads 1.x. Use a CLI that prints 1.x, or update webhook-subscriptions.`,
    );
  const reading = new PlanReading(plan, context);
  for (const r of stateSubscriptions(plan.prior_state?.values?.root_module)) reading.claim(r.address, r.name, r.values);
  const { observations, deleted } = driftObservations(plan, reading);
  for (const c of (plan.resource_changes ?? []).filter(isSubscription)) {
    const found = configurationObservation(c, reading, deleted);
    if (found) observations.push(found);
  }

  const { instances, notes } = terraformInstances(
    providerConstants(plan),
    reading.recordedUrls,
    context.env,
    context.dir,
  );
  const { ref } = context;
  const adoptInto =
    ref.kind === "terraform-directory"
      ? { kind: "terraform-directory" as const, dir: context.dir, cli: context.cli.name }
      : undefined;
  const compared: Compared[] = context.stateOnly ? ["state"] : ["state", "configuration"];
  return {
    report: { source: ref, status: "reviewed", compared, instances },
    claims: [...reading.claims.values()],
    observations,
    instances: instances.map((i): ReachedInstance => (adoptInto ? { ...i, adoptInto } : i)),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
