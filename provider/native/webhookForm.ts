/**
 * The event's form at the native plugin's boundary. The schema declares `webhook` a string enum of
 * the event names (schema.ts, why there), so what the plugin hands the engine — checked inputs,
 * outputs, function results — holds the name (`"PacketCreated"`): typed SDKs read it back as their
 * enum, `pulumi import` writes it. The core works in the service's integers, so what the engine
 * hands the plugin is mapped back. Integers are still read (a program or state written before the
 * names, a stack moved from the dynamic provider) and are written back as names.
 */
import { Webhook, webhookName } from "../wire";

/** `values` with `webhook` as the core takes it: the integer of a name; anything else as it was. */
export function coreForm<T extends object>(values: T): T {
  const webhook: unknown = (values as { webhook?: unknown }).webhook;
  return typeof webhook === "string" && Object.hasOwn(Webhook, webhook)
    ? { ...values, webhook: Webhook[webhook as keyof typeof Webhook] }
    : values;
}

/** `values` with `webhook` as the schema declares it: the name of a known integer; anything else as it was. */
export function engineForm<T extends object>(values: T): T {
  const webhook: unknown = (values as { webhook?: unknown }).webhook;
  const name = typeof webhook === "number" ? webhookName(webhook) : undefined;
  return name === undefined ? values : { ...values, webhook: name };
}
