import { describe, expect, it } from "vitest";
import { describeLive } from "../../drift/review/liveSubscription";
import { adoptionNames } from "../../drift/review/adoptionNames";
import { adoptSnippet } from "../../drift/sources/pulumi/adoptionSnippet";
import type { Subscription } from "../../provider/wire";

const withHeader: Subscription = {
  guid: "3F2A9C1D-0000-4000-8000-000000000001",
  webhook: 0,
  filterObjectType: 2,
  filterObjectGuid: "6f1c0000-0000-4000-8000-0000000000c3",
  subscriberUrl: "https://hooks.example.com/orders",
  signature: "sig-secret",
  customHeader: "X-Api-Key",
  customHeaderValue: "header-secret",
};

const typeScoped: Subscription = {
  guid: "77777777-0000-4000-8000-000000000002",
  webhook: 9,
  filterObjectType: 4,
  filterObjectGuid: null,
  subscriberUrl: 'https://hooks.example.com/"quoted"',
  signature: "sig-2",
  customHeader: "",
  customHeaderValue: null,
};

describe("an unmanaged subscription, as the review describes it", () => {
  it("is described without its secrets", () => {
    const u = describeLive(withHeader, "https://hooks.example.com");
    expect(u).toMatchObject({ webhookName: "PacketCreated", customHeader: "X-Api-Key", hasCustomHeaderValue: true });
    expect(JSON.stringify(u)).not.toMatch(/sig-secret|header-secret/);
  });
});

/** The name a subscription reviewed alone gets. */
const nameOf = (live: Subscription) => adoptionNames([live]).get(live.guid)!;

describe("adoptSnippet", () => {
  it("reproduces the live fields and reads the header value from secret config", () => {
    expect(adoptSnippet(withHeader, nameOf(withHeader))).toMatchInlineSnapshot(`
      "new WebhookSubscription("hooks-example-com-orders-packet-created", {
        adoptGuid: "3F2A9C1D-0000-4000-8000-000000000001",
        webhook: Webhook.PacketCreated,
        filterObjectType: 2,
        filterObjectGuid: "6f1c0000-0000-4000-8000-0000000000c3",
        subscriberUrl: "https://hooks.example.com/orders",
        customHeader: "X-Api-Key",
        // The live value, from the stack's secret config: adopt stores it there; by hand, pulumi config set --secret hooksExampleComOrdersPacketCreatedHeaderValue <value>
        customHeaderValue: new pulumi.Config().requireSecret("hooksExampleComOrdersPacketCreatedHeaderValue"),
      });"
    `);
  });

  it("leaves out absent fields, quotes strings, and writes unknown events as integers", () => {
    expect(adoptSnippet(typeScoped, nameOf(typeScoped))).toMatchInlineSnapshot(`
      "new WebhookSubscription("hooks-example-com-quoted-webhook-9", {
        adoptGuid: "77777777-0000-4000-8000-000000000002",
        webhook: 9,
        filterObjectType: 4,
        subscriberUrl: "https://hooks.example.com/\\"quoted\\"",
      });"
    `);
  });
});
