/**
 * Warnings from the provider process. The engine shows each line the dynamic provider writes to
 * stderr as a diagnostic in the operation's output — at preview too — so people see them; the
 * native plugin sends them to the engine's Log service instead (../native/engineLog.ts).
 * The provider host does not pass the resource's name, so a warning names the subscription.
 */
import { webhookName } from "../wire";
import { UNKNOWN } from "./inputs";

/** Where warnings go: stderr, unless a front door routes them elsewhere (`routeWarnings`). */
let sink: (message: string) => void = (message) => console.error(`warning: ${message}`);

export function warn(message: string): void {
  sink(message);
}

/**
 * Sends every later warning to `to` instead of stderr: for a host that does not show a
 * provider's stderr to people (the engine logs a plugin's stderr at debug level only).
 */
export function routeWarnings(to: (message: string) => void): void {
  sink = to;
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
 * one is deleted both deliver, so receivers must accept both (`receiverAdvice`, worded by the
 * front door). Under the legacy 2024.1 API a change the configuration API would update in place
 * replaces too (`replacedForLegacy`), and the warning says that this is why.
 */
export function warnReplacement(
  s: { webhook: unknown; subscriberUrl: unknown; filterObjectGuid?: unknown },
  because: readonly string[],
  options: { replacedForLegacy: readonly string[]; receiverAdvice: string },
): void {
  const why =
    options.replacedForLegacy.length > 0
      ? `the legacy 2024.1 API has no Update, so changing ${because.join(", ")} replaces the subscription and its Signature changes. `
      : `the update replaces it (${because.join(", ")} changed), so its Signature will change. `;
  warn(
    `${describeSubscription(s)}: ${why}` +
      `The new subscription is created before the old one is deleted and both deliver meanwhile: ${options.receiverAdvice}.`,
  );
}
