/**
 * The dynamic provider: Pulumi's contract, implemented. The fixed `__provider` module in state
 * requires this file by package name, so keep its path (`pulumi-webhook-subscriptions/runtime`).
 *
 * - check validates and normalises inputs before any API call;
 * - diff is local, with no API calls;
 * - create is transactional and never leaves a duplicate;
 * - read (refresh) reports the live subscription, or drops it when it is gone;
 * - update keeps GUID and Signature; delete treats "already gone" as deleted.
 */
import type * as pulumi from "@pulumi/pulumi";
import { NotFoundError } from "../client";
import { adopt, subscribeOnce, updateChecked } from "./create";
import { diffSubscription } from "./diff";
import { checkInputs, desiredOf, inputsOf, type SubscriptionInputs } from "./inputs";
import { outputsOf, type ResourceOnly, type SubscriptionOutputs } from "./outputs";
import { readLive } from "./readLive";
import { apiVersion, session, setConfig } from "./session";
import { warn, warnReplacement } from "./warn";
import { isLegacy } from "../wire";

type Outputs = SubscriptionOutputs & { __provider?: string };

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  setConfig(req.config);
}

export async function check(
  _olds: Record<string, unknown>,
  news: Record<string, unknown>,
): Promise<pulumi.dynamic.CheckResult> {
  const { inputs, failures } = checkInputs(news);
  // Sent without `property`: for a failure on a property the engine prints "property X value {…}"
  // with the raw value, even the plaintext of a secret (a customHeaderValue with a stray newline)
  // or a password in a URL. Every reason starts with the field's name, so nothing is lost.
  return { inputs, failures: failures.map((f) => ({ property: "", reason: f.reason })) };
}

export async function diff(_id: string, olds: Outputs, news: SubscriptionInputs): Promise<pulumi.dynamic.DiffResult> {
  const result = diffSubscription(olds, news, isLegacy(apiVersion()));
  // Said at preview (and again at up): a replacement is the moment receivers must be ready.
  if (result.replaces.length > 0) warnReplacement(news, result.replaces);
  return { changes: result.changes, replaces: result.replaces, deleteBeforeReplace: false };
}

/** What this resource keeps of its own arguments (the service does not store them), from inputs or state. */
function ownOf(source: { adoptGuid?: string | null; rotation?: string | null } | undefined): ResourceOnly {
  return { adoptGuid: source?.adoptGuid ?? null, rotation: source?.rotation ?? null };
}

export async function create(inputs: SubscriptionInputs): Promise<pulumi.dynamic.CreateResult<SubscriptionOutputs>> {
  const s = session();
  const spec = desiredOf(inputs);
  const live = inputs.adoptGuid
    ? await adopt(s, inputs.adoptGuid, spec)
    : await subscribeOnce(s, spec, inputs.rotation !== undefined);
  s.snapshots.record(live);
  return { id: live.guid, outs: outputsOf(live, ownOf(inputs)) };
}

export async function read(id: string, props: Outputs): Promise<pulumi.dynamic.ReadResult> {
  const s = session();
  if (s.legacy) {
    warn(`refresh of ${id}: the legacy 2024.1 API has no Get, so drift cannot be seen; the state is left as it was`);
    return { id, props };
  }
  const live = await readLive(s, id);
  if (!live) return {};
  const own = ownOf(props);
  return { id: live.guid, props: outputsOf(live, own), inputs: inputsOf(live, own) };
}

export async function update(
  id: string,
  olds: Outputs,
  news: SubscriptionInputs,
): Promise<pulumi.dynamic.UpdateResult<SubscriptionOutputs>> {
  const s = session();
  if (s.legacy)
    throw new Error(
      `UpdateWebhookSubscription of ${id}: the legacy 2024.1 API has no Update; changes replace the subscription instead. This is a bug in diff: please report it.`,
    );
  try {
    const live = await updateChecked(s, { guid: id, signature: olds.signature }, desiredOf(news));
    s.snapshots.record(live);
    return { outs: outputsOf(live, { ...ownOf(news), adoptGuid: news.adoptGuid ?? olds.adoptGuid ?? null }) };
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new Error(
        `${err.message} It was deleted outside Pulumi: run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again.`,
        { cause: err },
      );
    throw err;
  }
}

// `delete` is a reserved word, so the export is renamed.
async function remove(id: string, _props?: Outputs): Promise<void> {
  const s = session();
  try {
    await s.client.unsubscribe(id);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    // Already gone: that is what delete wants.
  }
  s.snapshots.forget(id);
}
export { remove as delete };
