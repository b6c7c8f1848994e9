/**
 * Warnings from the provider process. The engine shows each line a provider writes to stderr
 * as a diagnostic in the operation's output — at preview too — so people see them.
 * The provider host does not pass the resource's name, so a warning names the subscription.
 */
import { webhookName } from "../wire";
import { UNKNOWN } from "./inputs";

export function warn(message: string): void {
  console.error(`warning: ${message}`);
}

/** Names a subscription by what people declared: event, scoped object and URL. */
export function describeSubscription(s: {
  webhook: unknown;
  subscriberUrl: unknown;
  filterObjectGuid?: unknown;
}): string {
  const shown = (value: unknown) => (value === UNKNOWN ? "(known after apply)" : String(value));
  const event = typeof s.webhook === "number" ? (webhookName(s.webhook) ?? `webhook ${s.webhook}`) : shown(s.webhook);
  return `${event}${s.filterObjectGuid ? ` on ${shown(s.filterObjectGuid)}` : ""} → ${shown(s.subscriberUrl)}`;
}

/**
 * The warning on every replacement: the new subscription gets a new Signature, and until the old
 * one is deleted both deliver, so receivers must accept both.
 */
export function warnReplacement(
  s: { webhook: unknown; subscriberUrl: unknown; filterObjectGuid?: unknown },
  because: readonly string[],
): void {
  warn(
    `${describeSubscription(s)}: replaced (${because.join(", ")} changed), so its Signature will change. ` +
      "The new subscription is created before the old one is deleted and both deliver meanwhile: " +
      "receivers must accept both the old and the new Signature during the overlap (verifySignature with an array).",
  );
}
