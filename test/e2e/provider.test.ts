/**
 * WebhookSubscription on the real engine against the emulator: the whole lifecycle, drift
 * through refresh, adoption, and what the state at rest may hold. The lifecycle and adoption run
 * under both emulator dialects: the spec's, and the shapes the vendor's documentation shows
 * (`vendor-docs`: enumeration names, arrays, no envelope, empty Unsubscribe body, 400 for a Get of
 * a deleted subscription), so nothing documented can break up, refresh or destroy. Legacy mode (a
 * change replaces, never updates) is conformance/scenarios.ts's, run on this front door by
 * conformance/dynamicTs.test.ts.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook, WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import { openStack } from "../../engine/automation";
import type { DialectName } from "../../emulator";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";

const PACKET = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
const HEADER_SECRET = "hv-7d1f0c9e2b";
/** A token the emulator accepts only because we register it nowhere else: dev-builder is the Builder token. */
const TOKEN = "dev-builder";

/** One emulator per dialect; `emulator` is the one the running describe block uses. */
const emulators: Partial<Record<DialectName, EmulatorHarness>> = {};
let emulator: EmulatorHarness;
let dir: string;
let desired: Record<string, WebhookSubscriptionArgs>;

/** The program: one resource per entry of `desired`, exporting guid and signature of each. */
async function program(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const [name, args] of Object.entries(desired)) {
    const sub = new WebhookSubscription(name, args);
    out[name] = { guid: sub.guid, signature: sub.signature, url: sub.subscriberUrl };
    out[`${name}Signature`] = sub.signature;
  }
  return out;
}

async function stackFor(name: string, config: Record<string, string> = {}): Promise<Stack> {
  const stack = await openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: name,
    workDir: dir,
    projectName: "provider-e2e",
    program,
    config: {
      "webhooks:baseUrl": { value: emulator.url },
      "webhooks:token": { value: TOKEN, secret: true },
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])),
    },
  });
  return stack;
}

/** Outputs of the last up, as plain values (secrets decrypted by the Automation API). */
function outputsOf(
  result: { outputs: Record<string, { value: unknown }> },
  name: string,
): { guid: string; signature: string; url: string } {
  return result.outputs[name]!.value as { guid: string; signature: string; url: string };
}

/** A resource's outputs in state (refresh updates these, not the stack outputs). */
async function resourceOutputs(stack: Stack, name: string): Promise<Record<string, unknown>> {
  const state = await stack.exportStack();
  const resources = state.deployment.resources as Array<{ urn: string; outputs: Record<string, unknown> }>;
  return resources.find((r) => r.urn.endsWith(`::${name}`))!.outputs;
}

/** The checkpoint exactly as the file backend keeps it at rest. */
function stateAtRest(stackName: string): string {
  const stacksDir = join(dir, "state", ".pulumi", "stacks", "provider-e2e");
  const file = readdirSync(stacksDir).find((f) => f === `${stackName}.json`)!;
  return readFileSync(join(stacksDir, file), "utf8");
}

beforeAll(async () => {
  const [spec, vendor] = await Promise.all([
    EmulatorHarness.start(),
    EmulatorHarness.start({ dialect: "vendor-docs" }),
  ]);
  emulators.spec = spec;
  emulators["vendor-docs"] = vendor;
  emulator = spec;
  dir = workDir("provider");
});
afterAll(async () => {
  await Promise.all(Object.values(emulators).map((e) => e.close()));
});

/** Runs the describe block against the emulator of `dialect`. */
function useDialect(dialect: DialectName): void {
  beforeAll(() => {
    emulator = emulators[dialect]!;
  });
}

describe.each(["spec", "vendor-docs"] as const)("WebhookSubscription lifecycle (%s dialect)", (dialect) => {
  useDialect(dialect);
  let stack: Stack;
  let first: { guid: string; signature: string };

  it("creates subscriptions, with outputs and secrets", async () => {
    desired = {
      orders: {
        webhook: Webhook.PacketCreated,
        filterObjectGuid: PACKET.toUpperCase(),
        filterObjectType: 2,
        subscriberUrl: "https://hooks.example.com/orders",
        customHeader: "X Api Key",
        customHeaderValue: pulumi.secret(HEADER_SECRET),
      },
      // Under vendor-docs this one is answered as "BusinessObjectUpdated" and "None" (documented names).
      catalogue: {
        webhook: "BusinessObjectTypeUpdated",
        filterObjectType: 0,
        subscriberUrl: "https://hooks.example.com/catalogue",
      },
    };
    stack = await stackFor(`lifecycle-${dialect}`);
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    first = outputsOf(up, "orders");
    expect(up.outputs.ordersSignature!.secret).toBe(true);
    const live = await emulator.all();
    expect(live.map((s) => s.GUID).sort()).toEqual([first.guid, outputsOf(up, "catalogue").guid].sort());
    expect(live.find((s) => s.GUID === first.guid)).toMatchObject({
      CustomHeader: "X-Api-Key",
      FilterObjectGUID: PACKET,
      Signature: first.signature,
    });
  });

  it("keeps the state small and free of plaintext secrets", async () => {
    const raw = stateAtRest(`lifecycle-${dialect}`);
    expect(raw).not.toContain(HEADER_SECRET);
    expect(raw).not.toContain(first.signature);
    expect(raw).not.toContain(TOKEN);
    const checkpoint = JSON.parse(raw) as {
      checkpoint: { latest: { resources: Array<{ type: string; inputs: Record<string, unknown> }> } };
    };
    const subs = checkpoint.checkpoint.latest.resources.filter(
      (r) => r.type === "pulumi-nodejs:dynamic/webhooks:WebhookSubscription",
    );
    expect(subs).toHaveLength(2);
    for (const r of subs) expect(Buffer.byteLength(String(r.inputs.__provider))).toBeLessThanOrEqual(1536);
  });

  it("reports no changes on a second up", async () => {
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 3 });
  });

  it("updates the URL in place: same GUID and Signature", async () => {
    desired.orders = { ...desired.orders!, subscriberUrl: "https://hooks.example.com/orders/v2" };
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, update: 1 });
    expect(outputsOf(up, "orders")).toMatchObject({
      guid: first.guid,
      signature: first.signature,
      url: "https://hooks.example.com/orders/v2",
    });
  });

  it("replaces on a webhook change: new GUID and Signature, the old one unsubscribed", async () => {
    desired.orders = { ...desired.orders!, webhook: "NewCommunication" };
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 2, replace: 1 });
    const now = outputsOf(up, "orders");
    expect(now.guid).not.toBe(first.guid);
    expect(now.signature).not.toBe(first.signature);
    const live = await emulator.all();
    expect(live.map((s) => s.GUID)).not.toContain(first.guid);
    expect(live).toHaveLength(2);
    first = now;
  });

  it("shows an out-of-band update after refresh, and puts it back on up", async () => {
    const body = {
      GUID: first.guid,
      Webhook: 2,
      FilterObjectType: 2,
      FilterObjectGUID: PACKET,
      SubscriberURL: "https://evil.example.com/x",
      CustomHeader: "X-Api-Key",
      CustomHeaderValue: HEADER_SECRET,
    };
    expect((await emulator.config("UpdateWebhookSubscription", { body })).status).toBe(200);
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(await resourceOutputs(stack, "orders")).toMatchObject({
      guid: first.guid,
      subscriberUrl: "https://evil.example.com/x",
    });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ update: 1 });
    expect((await emulator.all()).find((s) => s.GUID === first.guid)!.SubscriberURL).toBe(
      "https://hooks.example.com/orders/v2",
    );
  });

  it("drops an out-of-band unsubscribe on refresh, and creates it again on up", async () => {
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: first.guid } });
    const refresh = await stack.refresh();
    expect(refresh.summary.resourceChanges).toMatchObject({ delete: 1 });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ create: 1 });
    expect(outputsOf(up, "orders").guid).not.toBe(first.guid);
    expect(await emulator.all()).toHaveLength(2);
  });

  it("rejects bad input per field before any write", async () => {
    const before = (await emulator.admin("GET", "/stats")).json.requests;
    // @ts-expect-error -- the public type already rejects an unknown event name; check must too (plain JS, config values).
    desired.bad = { webhook: "PacketDeleted", filterObjectType: 2, subscriberUrl: "ftp://x.example.com" };
    const failure = await stack.up().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    delete desired.bad;
    expect(failure).toMatch(/webhook "PacketDeleted" is not a known event/);
    expect(failure).toMatch(/subscriberUrl must be an absolute http\(s\) URL, got: "ftp:\/\/x.example.com"/);
    const after = (await emulator.admin("GET", "/stats")).json.requests;
    for (const op of ["SubscribeToWebhook", "UpdateWebhookSubscription", "Unsubscribe"])
      expect(after[op] ?? 0).toBe(before[op] ?? 0);
  });

  it("destroys everything: GetAll is empty", async () => {
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
    expect(await emulator.all()).toEqual([]);
  });
});

describe.each(["spec", "vendor-docs"] as const)("adoption (%s dialect)", (dialect) => {
  useDialect(dialect);
  it("adopts an existing subscription instead of creating one", async () => {
    const existing = await emulator.subscribe({
      Webhook: 3,
      FilterObjectType: 7,
      SubscriberURL: "https://old.example.com/catalogue",
    });
    desired = {
      adopted: {
        webhook: "BusinessObjectCreated",
        filterObjectType: 7,
        subscriberUrl: "https://hooks.example.com/catalogue",
        adoptGuid: existing.GUID,
      },
    };
    const stack = await stackFor(`adopt-${dialect}`);
    const up = await stack.up();
    expect(outputsOf(up, "adopted")).toMatchObject({ guid: existing.GUID, signature: existing.Signature });
    expect(await emulator.all()).toHaveLength(1);
    expect((await emulator.all())[0]!.SubscriberURL).toBe("https://hooks.example.com/catalogue");
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});
