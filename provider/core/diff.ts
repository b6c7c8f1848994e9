/**
 * The `diff` step: local, no API calls. Compares normalised desired inputs with the outputs in
 * state and says what changes and what forces a replacement.
 */
import { isDeepStrictEqual } from "node:util";
import { UNKNOWN, desiredOf, type SubscriptionInputs } from "./inputs";
import type { SubscriptionOutputs } from "./outputs";

/** Fields the service stores, in the order people read them. */
export const SUBSCRIPTION_FIELDS = [
  "webhook",
  "filterObjectType",
  "filterObjectGuid",
  "subscriberUrl",
  "customHeader",
  "customHeaderValue",
] as const;
export type SubscriptionField = (typeof SUBSCRIPTION_FIELDS)[number];

/**
 * What a subscription listens to: changing it makes a different subscription, so it is replaced
 * (create-before-delete, which rotates the Signature) rather than updated in place.
 */
export const IDENTITY_FIELDS: ReadonlySet<string> = new Set(["webhook", "filterObjectType", "filterObjectGuid"]);

/** Arguments only this resource knows; changing them replaces the subscription. */
const REPLACE_ONLY: ReadonlySet<string> = new Set(["adoptGuid", "rotation"]);

export interface SubscriptionDiff {
  changes: boolean;
  /** Every changed property, for people and for drift review. */
  changed: string[];
  replaces: string[];
  /** Of `replaces`, those the configuration API would update in place: replaced only because the legacy API has no Update. */
  replacedForLegacy: string[];
}

/**
 * @param legacy In legacy mode (api-version 2024.1) there is no Update: every change replaces.
 */
export function diffSubscription(
  olds: Partial<SubscriptionOutputs>,
  news: Partial<SubscriptionInputs>,
  legacy: boolean,
): SubscriptionDiff {
  const desired = desiredOf(news as SubscriptionInputs);
  const changed: string[] = [];
  for (const field of SUBSCRIPTION_FIELDS) {
    const want = desired[field];
    if (want === UNKNOWN || !isDeepStrictEqual(want, olds[field] ?? null)) changed.push(field);
  }
  // adoptGuid only matters at create: adopting another subscription replaces, dropping the argument does not.
  const adopt = news.adoptGuid;
  if (adopt !== undefined && adopt !== (olds.adoptGuid ?? null) && adopt !== olds.guid) changed.push("adoptGuid");

  // A new rotation label asks for a new subscription, and so a new Signature.
  if ((news.rotation ?? null) !== (olds.rotation ?? null)) changed.push("rotation");

  const replacing = (f: string) => IDENTITY_FIELDS.has(f) || REPLACE_ONLY.has(f);
  const replaces = legacy ? [...changed] : changed.filter(replacing);
  const replacedForLegacy = legacy ? changed.filter((f) => !replacing(f)) : [];
  return { changes: changed.length > 0, changed, replaces, replacedForLegacy };
}
