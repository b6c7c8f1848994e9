/**
 * StopProvider, which Terraform sends on Ctrl-C, ends every call that is waiting out the instance's
 * rate limit at once: the resource's and the data sources' (which list with their own client). A
 * create stopped before it could reconcile an ambiguous Subscribe says that the service may hold
 * the subscription and how the next run takes it over; that run, as said, leaves one subscription.
 * Driven through the tfplugin6 service object, as the gRPC server calls it.
 */
import type * as grpc from "@grpc/grpc-js";
import { beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_TYPE, SUBSCRIPTIONS_DATA_SOURCE } from "../../provider/terraform/names";
import { terraformProvider } from "../../provider/terraform/provider";
import { objectType, terraformSchema } from "../../provider/terraform/schema";
import { fromMsgpack, toMsgpack, type Value } from "../../provider/terraform/values/codec";
import { useEmulator } from "../support/emulatorHarness";
import { callService as call, type ServiceResponse, testResourceDescription } from "../support/tfpluginService";

// One token, then one every 1000 s: every request after the first is refused with 429.
const RATE_LIMIT = { requestsPerSecond: 0.001, burst: 1 };
const emulator = useEmulator({ rateLimit: RATE_LIMIT });
let description: string;

beforeAll(() => {
  description = testResourceDescription();
}, 60_000);

const PLANNED = {
  webhook: "PacketCreated",
  filter_object_type: 2,
  filter_object_guid: "6f1c2a3b-0000-4000-8000-000000000001",
  subscriber_url: "https://hooks.example.com/orders",
};

/** A configured provider service against the emulator, with `env` beside the connection. */
async function configured(env: NodeJS.ProcessEnv = {}): Promise<grpc.UntypedServiceImplementation> {
  const service = terraformProvider({
    description,
    env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder", ...env },
  });
  expect((await call(service, "ConfigureProvider", {})).diagnostics ?? []).toEqual([]);
  return service;
}

/** The resource's object type, and a value of it as msgpack. */
function resourceValues(): { type: ReturnType<typeof objectType>; msgpack: (value: Value) => { msgpack: Buffer } } {
  const type = objectType(terraformSchema(JSON.parse(description)).resources[RESOURCE_TYPE]!.attributes);
  return { type, msgpack: (value: Value) => ({ msgpack: Buffer.from(toMsgpack(value, type)) }) };
}

/** Creates PLANNED through `service`. */
function applyCreate(service: grpc.UntypedServiceImplementation): Promise<ServiceResponse> {
  const { msgpack } = resourceValues();
  return call(service, "ApplyResourceChange", {
    type_name: RESOURCE_TYPE,
    prior_state: msgpack(null),
    planned_state: msgpack(PLANNED),
    config: msgpack(PLANNED),
  });
}

/** Sends StopProvider once `pending` is backing off; its response, or "still running" 5 s later, and how long it took. */
async function stopDuring(
  service: grpc.UntypedServiceImplementation,
  pending: Promise<ServiceResponse>,
): Promise<{ said: string; ms: number }> {
  // Let it meet a 429 and start backing off (the first backoffs are short; later ones grow to 10 s).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const stoppedAt = Date.now();
  await call(service, "StopProvider", {});
  const response = await Promise.race([
    pending,
    new Promise<ServiceResponse>((resolve) =>
      setTimeout(() => resolve({ diagnostics: [{ summary: "still running" }] }), 5000),
    ),
  ]);
  const said = (response.diagnostics ?? []).map((d) => `${d.summary}: ${d.detail}`).join("\n");
  return { said, ms: Date.now() - stoppedAt };
}

describe("StopProvider", () => {
  it("ends an apply waiting out 429s within a second, saying nothing more was sent, with no subscription left", async () => {
    // The bucket's one token goes to this read, so the Subscribe below meets only 429s.
    await emulator.all();
    const service = await configured();
    const { said, ms } = await stopDuring(service, applyCreate(service));
    expect(ms).toBeLessThan(1000);
    expect(said).toContain("stopped while rate limited; nothing more was sent after attempt");

    await emulator.admin("PUT", "/rate-limit", null);
    expect(await emulator.all()).toEqual([]);
  }, 30_000);

  it("ends a webhooks_subscriptions data source read waiting out 429s within a second", async () => {
    await emulator.admin("PUT", "/rate-limit", RATE_LIMIT);
    await emulator.all();
    const service = await configured();
    const block = terraformSchema(JSON.parse(description)).dataSources[SUBSCRIPTIONS_DATA_SOURCE]!;
    const config = { msgpack: Buffer.from(toMsgpack({ id: null, subscriptions: null }, objectType(block.attributes))) };
    const read = call(service, "ReadDataSource", { type_name: SUBSCRIPTIONS_DATA_SOURCE, config });
    const { said, ms } = await stopDuring(service, read);
    expect(ms).toBeLessThan(1000);
    expect(said).toContain("stopped while rate limited; nothing more was sent after attempt");
  }, 30_000);

  it(
    "stopped while reconciling an ambiguous Subscribe, says the service may hold the subscription and how to take it over; " +
      "the next apply with adopt_identical does, leaving one",
    async () => {
      // Two tokens: the create's first look (a list), then its Subscribe, which commits but whose
      // answer is lost; the list that reconciles it meets 429s.
      await emulator.admin("PUT", "/rate-limit", { ...RATE_LIMIT, burst: 2 });
      await emulator.admin("PUT", "/faults", {
        rules: [{ operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 1 }],
      });
      const service = await configured();
      const { said, ms } = await stopDuring(service, applyCreate(service));
      expect(ms).toBeLessThan(1000);
      expect(said).toContain("stopped while finding out whether its Subscribe took effect");
      expect(said).toContain("may now hold this subscription, which no state records");
      expect(said).toContain("adopt_identical = true");

      await emulator.admin("PUT", "/rate-limit", null);
      await emulator.admin("DELETE", "/faults");
      const [orphan, ...others] = await emulator.all();
      expect(others).toEqual([]);
      const rerun = await applyCreate(await configured({ WEBHOOKS_ADOPT_IDENTICAL: "true" }));
      const state = fromMsgpack(rerun.new_state!.msgpack!, resourceValues().type) as Record<string, Value>;
      expect(state.guid).toBe(orphan!.GUID);
      expect(await emulator.all()).toHaveLength(1);
    },
    30_000,
  );
});
