/**
 * Creating a subscription without ever leaving a duplicate: adoption, reconciliation of
 * ambiguous Subscribe results, and confirmation of legacy creates.
 */
import { AmbiguousResultError, mayMeanGone, NotFoundError, VISIBILITY_NOTE, WebhookApiError } from "../client";
import type { Subscription } from "../wire";
import type { DesiredSubscription } from "./inputs";
import { naturalKey } from "./naturalKey";
import type { Instance, Session } from "./session";
import { describeSubscription, warn } from "./warn";

/**
 * How many times an ambiguous Subscribe or Update is reconciled and tried again before giving up.
 * Every attempt looks before it sends again, so more attempts never risk a duplicate; 8 makes a
 * run of lost answers that fails a create (p^8) negligible even at a 20 % fault rate.
 */
const MAX_ATTEMPTS = 8;

/**
 * Subscribes, or takes over the identical subscription that already exists (the orphan of an
 * interrupted run, or the result of a Subscribe whose response was lost). Two subscriptions with
 * the same event, scope, URL and header name would deliver every message twice, so an identical
 * one is adopted rather than duplicated. The subscription a replacement replaces is never taken:
 * `diff` claims it, so a rotation gets a new subscription (and Signature) beside the old one.
 */
export async function subscribeOnce(s: Session, spec: DesiredSubscription): Promise<Subscription> {
  const home = s.home;
  if (!home.legacy) {
    const existing = unclaimedMatch(s, spec, await home.snapshots.get());
    if (existing) {
      if (!s.settings.adoptIdentical)
        throw new Error(
          `${describeSubscription(spec)}: an identical subscription ${existing.guid} already exists on ${home.baseUrl}, and ` +
            `${adoptSetting(s)} is false, so it is not taken over. If this stack should manage it, set ` +
            `adoptGuid: "${existing.guid}" on this resource; if another stack manages it, change this one (e.g. its subscriberUrl) or remove it.`,
        );
      warn(
        `${describeSubscription(spec)}: adopted the existing identical subscription ${existing.guid} on ${home.baseUrl} instead of creating a duplicate (${VISIBILITY_NOTE}). ` +
          `If another stack manages it, both now do, and destroying either unsubscribes it for both: ` +
          `set ${adoptSetting(s)} to false to refuse instead.`,
      );
      return bringTo(s, home, existing, spec);
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const created = await home.client.subscribe(spec);
      s.claimed.add(created.guid);
      return home.legacy ? await confirmLegacyCreate(home, created) : created;
    } catch (err) {
      if (!(err instanceof AmbiguousResultError) || attempt >= MAX_ATTEMPTS || home.legacy) throw err;
      // The request may have been committed: look before trying again.
      const found = unclaimedMatch(s, spec, new Map((await home.client.list()).map((x) => [x.guid, x])));
      if (found) return bringTo(s, home, found, spec);
    }
  }
}

/** Where adoptIdentical is set for this provider, for messages. */
function adoptSetting(s: Session): string {
  return s.settings.providerName === undefined
    ? "webhooks:adoptIdentical"
    : `adoptIdentical of Provider "${s.settings.providerName}"`;
}

/** Adopts the subscription `guid` and brings it to the desired state. */
export async function adopt(s: Session, guid: string, spec: DesiredSubscription): Promise<Subscription> {
  const home = s.home;
  if (home.legacy)
    throw new Error(
      `adoptGuid ${guid}: adopting needs Get and Update, which the legacy 2024.1 API lacks. ` +
        `Set webhooks:apiVersion to 3 for the adoption, or remove adoptGuid to create a new subscription.`,
    );
  let live: Subscription;
  try {
    live = await home.client.get(guid);
  } catch (err) {
    // A 400 on Get may mean the same (vendor documentation), e.g. a subscription of another account.
    if (err instanceof NotFoundError || mayMeanGone(err))
      throw new Error(
        `adoptGuid ${guid}: no subscription with that GUID exists on ${home.baseUrl} for the configured account ` +
          "(subscriptions may be per user: another account's cannot be adopted). " +
          "Check the GUID (`npx webhook-subscriptions drift --stack <stack>` lists the unmanaged subscriptions with their GUIDs), or remove adoptGuid to create a new subscription.",
        { cause: err },
      );
    throw err;
  }
  return bringTo(s, home, live, spec);
}

/** Updates `live` to `spec` when any stored field differs; keeps GUID and Signature. */
async function bringTo(s: Session, at: Instance, live: Subscription, spec: DesiredSubscription): Promise<Subscription> {
  s.claimed.add(live.guid);
  s.adoptedThisRun.add(live.guid);
  if (matches(live, spec)) return live;
  return updateChecked(at, live, spec);
}

/** Update, checking that the service kept the identity; an ambiguous Update is verified with Get. */
export async function updateChecked(
  s: Instance,
  before: Pick<Subscription, "guid" | "signature">,
  spec: DesiredSubscription,
): Promise<Subscription> {
  let after: Subscription | undefined;
  // Each ambiguous attempt is checked with Get before the next: a second reset must not fail the
  // update when the first one may already have been applied (or was not, and can simply be sent again).
  for (let attempt = 1; !after; attempt++) {
    try {
      after = await s.client.update(before.guid, spec);
    } catch (err) {
      if (!(err instanceof AmbiguousResultError) || attempt >= MAX_ATTEMPTS) throw err;
      const live = await s.client.get(before.guid);
      if (matches(live, spec)) after = live;
    }
  }
  if (after.guid !== before.guid || after.signature !== before.signature)
    throw new Error(
      `UpdateWebhookSubscription of ${before.guid} answered with ${after.guid === before.guid ? "a new Signature" : `GUID ${after.guid}`}: ` +
        "an update must keep the GUID and Signature. The service broke its contract; run `pulumi refresh` to record the subscription as it is now.",
    );
  return after;
}

/** Whether the live subscription already has every desired field. */
export function matches(live: Subscription, spec: DesiredSubscription): boolean {
  return naturalKey(live) === naturalKey(spec) && live.customHeaderValue === spec.customHeaderValue;
}

/**
 * Each list's subscriptions by natural key, built on first use: every create of a fleet looks in
 * the same snapshot, and scanning it each time made an `up` of N creates cost N² key computations.
 */
const byNaturalKey = new WeakMap<Map<string, Subscription>, Map<string, Subscription[]>>();

function unclaimedMatch(
  s: Session,
  spec: DesiredSubscription,
  live: Map<string, Subscription>,
): Subscription | undefined {
  let index = byNaturalKey.get(live);
  if (!index) {
    index = new Map();
    for (const candidate of live.values()) {
      const key = naturalKey(candidate);
      const same = index.get(key);
      if (same) same.push(candidate);
      else index.set(key, [candidate]);
    }
    byNaturalKey.set(live, index);
  }
  // Still in the list as indexed (not deleted or changed since by this process), and not taken.
  return index.get(naturalKey(spec))?.find((c) => live.get(c.guid) === c && !s.claimed.has(c.guid));
}

/**
 * The legacy API answers 200 even when it silently creates nothing (PacketUpdated on a Closed
 * work item). Confirm through the configuration API when the instance offers it.
 */
async function confirmLegacyCreate(s: Instance, created: Subscription): Promise<Subscription> {
  let all: Subscription[];
  try {
    all = await s.configurationClient.list();
  } catch (err) {
    if (err instanceof WebhookApiError && (err.code === "NOT_FOUND" || err.code === "LEGACY_UNSUPPORTED")) {
      warn(
        `${describeSubscription(created)}: the legacy Subscribe returned ${created.guid}, but this instance has no configuration API to confirm it exists; ` +
          "the legacy API can answer 200 without creating anything (e.g. PacketUpdated on a Closed work item)",
      );
      return created;
    }
    throw err;
  }
  const confirmed = all.find((x) => x.guid === created.guid);
  if (confirmed) return confirmed;
  throw new Error(
    `SubscribeToWebhook (legacy 2024.1) answered 200 with GUID ${created.guid}, but no such subscription exists: ` +
      `the legacy API silently creates nothing when it rejects a subscription` +
      (created.webhook === 1 && created.filterObjectGuid
        ? ` — PacketUpdated on work item ${created.filterObjectGuid}, which is probably Closed.`
        : ".") +
      " Check the work item and the subscription's fields, or use the configuration API (webhooks:apiVersion 3) for a precise error.",
  );
}
