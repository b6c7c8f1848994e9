/**
 * The outputs of the subscription the provider tests create (webhook 0 on the packet, "orders",
 * header X-Api-Key = "k1"), as both front doors return them from create: the dynamic runtime
 * (test/provider/runtime.test.ts) and the native plugin (test/native/server.test.ts), which
 * wraps the secret ones.
 */

/** The work item the provider tests' object-scoped subscriptions watch. */
export const PACKET = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";

/**
 * Every output of the created subscription; `signature` may be a value or a matcher, `webhook`
 * the event as the front door records it (the dynamic provider its integer, the default; the
 * native plugin its name), and `secret` wraps the always-secret outputs as the front door marshals them.
 */
export function createdOutputs(
  created: { guid: string; signature: unknown; baseUrl: string; webhook?: number | string },
  secret: (value: unknown) => unknown = (value) => value,
): Record<string, unknown> {
  return {
    guid: created.guid,
    signature: secret(created.signature),
    webhook: created.webhook ?? 0,
    webhookName: "PacketCreated",
    filterObjectType: 2,
    filterObjectGuid: PACKET,
    subscriberUrl: "https://hooks.example.com/orders",
    customHeader: "X-Api-Key",
    customHeaderValue: secret("k1"),
    adoptGuid: null,
    rotation: null,
    baseUrl: created.baseUrl,
  };
}
