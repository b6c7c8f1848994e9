/**
 * Creating a subscription without ever leaving a duplicate: adoption, reconciliation of
 * ambiguous Subscribe results, and confirmation of legacy creates.
 */
import {
  AmbiguousResultError,
  mayMeanGone,
  NotFoundError,
  StoppedError,
  VISIBILITY_NOTE,
  WebhookApiError,
} from "../client";
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
 * Subscribes. One subscription has one owner: an identical subscription that already exists (same
 * event, scope, URL and header name) may be another stack's, so by default a create makes its own
 * beside it — as the service allows — and warns once, naming the identical GUIDs and how to take
 * one over instead (docs/multi-instance.md). Only with `adoptIdentical` is one taken over (the
 * recovery of a killed run, docs/recovery.md). A Subscribe whose answer was lost is still reconciled
 * without a duplicate: what is identical now but was not before it was sent is its own. The
 * subscription a replacement replaces is never taken: `diff` claims it, so a rotation gets a new
 * subscription (and Signature) beside the old one.
 */
export async function subscribeOnce(s: Session, spec: DesiredSubscription): Promise<Subscription> {
  const home = s.home;
  let before: ReadonlySet<string> = new Set();
  if (!home.legacy) {
    const live = await home.snapshots.get();
    const identical = identicalIn(live, spec).filter((c) => !s.claimed.has(c.guid));
    if (identical.length > 0 && s.settings.adoptIdentical) {
      warn(
        `${describeSubscription(spec)}: adopted the existing identical subscription ${identical[0]!.guid} on ${home.baseUrl} instead of creating a duplicate (${VISIBILITY_NOTE}), ` +
          `because ${adoptSetting(s)} is true. If another stack manages it, both now do, and destroying either unsubscribes it for both: ` +
          "set it back to false once the recovery is done.",
      );
      return bringTo(s, home, identical[0]!, spec);
    }
    if (identical.length > 0) warnIdentical(s, spec, identical);
    before = new Set(identicalIn(live, spec).map((c) => c.guid));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const created = await home.client.subscribe(spec);
      s.claimed.add(created.guid);
      return home.legacy ? await confirmLegacyCreate(home, created) : created;
    } catch (err) {
      if (!(err instanceof AmbiguousResultError) || attempt >= MAX_ATTEMPTS || home.legacy) throw err;
      // The request may have been committed: look before trying again. An identical subscription
      // that was not there before the first send is this create's own.
      const after = new Map((await reconcilingList(home, spec)).map((x) => [x.guid, x]));
      const found = identicalIn(after, spec).find((c) => !s.claimed.has(c.guid) && !before.has(c.guid));
      if (found) return bringTo(s, home, found, spec);
    }
  }
}

/**
 * The list that reconciles an ambiguous Subscribe. Stopped (Terraform's StopProvider) before it
 * answers, the create cannot know whether the service holds the subscription, nor its GUID, so no
 * state can record it: the error says so and how the next run takes it over instead of adding a
 * second (the create looks only at what was there before its own send, so only adoptIdentical does).
 */
async function reconcilingList(home: Instance, spec: DesiredSubscription): Promise<Subscription[]> {
  try {
    return await home.client.list();
  } catch (err) {
    if (!(err instanceof StoppedError)) throw err;
    throw new Error(
      `${describeSubscription(spec)}: stopped while finding out whether its Subscribe took effect (the answer was lost on the way back): ` +
        `${home.baseUrl} may now hold this subscription, which no state records. Run again with adoptIdentical set to true ` +
        "(WEBHOOKS_ADOPT_IDENTICAL=true; Terraform: adopt_identical = true in the provider block) to take it over instead of creating a second, " +
        "then set it back; `npx webhook-subscriptions drift` lists it as unmanaged meanwhile.",
      { cause: err },
    );
  }
}

/** The warning of a create that made its own subscription beside identical ones it does not own. */
function warnIdentical(s: Session, spec: DesiredSubscription, identical: readonly Subscription[]): void {
  const guids = identical.map((c) => c.guid);
  warn(
    `${describeSubscription(spec)}: ${guids.length === 1 ? "an identical subscription already exists" : `${guids.length} identical subscriptions already exist`} ` +
      `on ${s.home.baseUrl} (${guids.join(", ")}; same event, scope, URL and header name), so this stack creates its own: ` +
      "each delivers every message, and a destroy of this stack leaves the others alone. " +
      `To take one over instead, set adoptGuid: "${guids[0]}" on this resource (or \`pulumi import webhooks:index:WebhookSubscription <name> ${guids[0]}\` ` +
      "with the native plugin), then remove it from the stack that manages it, if any. If it is the orphan of a killed `pulumi up` of this stack, " +
      "`npx webhook-subscriptions drift --stack <stack>` prints the commands that let this resource take it over instead (docs/recovery.md).",
  );
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

/** The subscriptions of `live` identical to `spec` (same natural key). */
function identicalIn(live: Map<string, Subscription>, spec: DesiredSubscription): Subscription[] {
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
  // Still in the list as indexed (not deleted or changed since by this process).
  return (index.get(naturalKey(spec)) ?? []).filter((c) => live.get(c.guid) === c);
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
