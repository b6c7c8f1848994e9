/**
 * The drift review against an instance that answers as the vendor's documentation shows
 * (`vendor-docs` dialect): enumeration names, arrays, no envelope, 400 for a Get of a deleted
 * subscription, and per-user visibility. The review must still classify everything it can see,
 * say that it sees only the configured account's subscriptions, and never report another
 * account's subscription as unmanaged.
 */
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { Webhook, WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { reviewDrift } from "../../drift/index";
import { VISIBILITY_NOTE } from "../../provider/client";
import { findingsOf, resourceOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";

const ORDERS = "6f1c0000-0000-4000-8000-0000000000d4";
const OTHER_ACCOUNT = "Bearer dev-builder-2";

/** The stack's subscriptions, with object types the documentation names (Company, None, Contract). */
const DESIRED: Record<string, WebhookSubscriptionArgs> = {
  "url-changed": {
    webhook: Webhook.PacketCreated,
    filterObjectType: 31,
    filterObjectGuid: ORDERS,
    subscriberUrl: "https://hooks.example.com/orders",
  },
  deleted: {
    webhook: Webhook.BusinessObjectTypeUpdated,
    filterObjectType: 0,
    subscriberUrl: "https://hooks.example.com/types",
  },
  "in-sync": {
    webhook: Webhook.BusinessObjectCreated,
    filterObjectType: 215,
    subscriberUrl: "https://hooks.example.com/contracts",
  },
};

describe("drift review under the vendor-docs dialect", () => {
  let instance: EmulatorHarness;
  let stack: Stack;
  let dir: string;
  let guids: Record<string, string>;
  let unmanagedGuid: string;
  let othersGuid: string;

  beforeAll(async () => {
    instance = await EmulatorHarness.start({ dialect: "vendor-docs" });
    dir = workDir("drift-vendor");
    stack = await openStack({
      engine: requireEngine(),
      backendDir: join(dir, "state"),
      stackName: "vendor",
      workDir: dir,
      projectName: "drift-vendor",
      config: { "webhooks:baseUrl": { value: instance.url }, "webhooks:token": { value: "dev-builder", secret: true } },
      program: async () =>
        Object.fromEntries(
          Object.entries(DESIRED).map(([name, args]) => [name, new WebhookSubscription(name, args).guid]),
        ),
    });
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    guids = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value as string]));

    // Out of band, with enumeration names as the documentation's examples send them.
    const change = await instance.config("UpdateWebhookSubscription", {
      body: {
        GUID: guids["url-changed"],
        Webhook: "PacketCreated",
        FilterObjectType: "Company",
        FilterObjectGUID: ORDERS,
        SubscriberURL: "https://attacker.example.net/orders",
      },
    });
    expect(change.status).toBe(200);
    const removal = await instance.config("Unsubscribe", { query: { webHookSubscriptionGUID: guids.deleted! } });
    expect([removal.status, removal.text]).toEqual([200, ""]);
    const body = {
      Webhook: "BusinessObjectCreated",
      FilterObjectType: "Service",
      SubscriberURL: "https://manual.example.org/x",
    };
    unmanagedGuid = (await instance.subscribe(body)).GUID;
    const others = await instance.config("SubscribeToWebhook", { body, auth: OTHER_ACCOUNT });
    othersGuid = others.json[0].GUID;
  });

  afterAll(async () => {
    await instance?.close();
  });

  it("classifies what the account can see, and says it sees only that", async () => {
    const progress: string[] = [];
    const review = await reviewDrift({
      stacks: [{ name: "vendor", workDir: dir }],
      engine: requireEngine(),
      onProgress: (line) => progress.push(line),
      // An inline program, which no preview can run again: compare with the state alone.
      stateOnly: true,
    });
    expect(review).toMatchObject({ status: "drift", exitCode: 2 });
    expect(review.summary).toMatchObject({
      "differs-from-state": 1,
      deleted: 1,
      unmanaged: 1,
      "differs-from-program": 0,
    });
    // Three managed, one of them in sync.
    expect(review.sources[0]!.subscriptions.filter((m) => m.findings.length === 0)).toHaveLength(1);
    expect(review.sources[0]!.subscriptions).toHaveLength(3);
    expect(findingsOf(review, "differs-from-state").map((f) => [resourceOf(f), f.fields])).toEqual([
      [
        "url-changed",
        [
          {
            field: "subscriberUrl",
            secret: false,
            recorded: "https://hooks.example.com/orders",
            live: "https://attacker.example.net/orders",
          },
        ],
      ],
    ]);
    expect(findingsOf(review, "deleted").map(resourceOf)).toEqual(["deleted"]);
    expect(
      findingsOf(review, "unmanaged").map((f) => [
        f.guid,
        f.subscription?.webhookName,
        f.subscription?.filterObjectType,
      ]),
    ).toEqual([[unmanagedGuid, "BusinessObjectCreated", 217]]);
    expect(JSON.stringify(review)).not.toContain(othersGuid);
    expect(review.notes).toEqual([VISIBILITY_NOTE]);
    expect(progress.join("\n")).toContain("listing the subscriptions the configured account can see");
  });

  it("refresh and destroy then succeed: the deleted one is dropped, the others are removed", async () => {
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1, update: 1 });
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    const left = (await instance.all()).map((s) => s.GUID);
    expect(left).toEqual([unmanagedGuid]);
    const theirs = await instance.config("GetAllWebhookSubscriptions", { auth: OTHER_ACCOUNT });
    expect(theirs.json.map((s: { GUID: string }) => s.GUID)).toEqual([othersGuid]);
  });
});
