/**
 * StopProvider, which Terraform sends on Ctrl-C, ends a call that is waiting out the instance's
 * rate limit at once, with a diagnostic that says nothing more was sent, and leaves no
 * subscription behind. Driven through the tfplugin6 service object, as the gRPC server calls it.
 */
import type * as grpc from "@grpc/grpc-js";
import { beforeAll, describe, expect, it } from "vitest";
import { pluginSchema } from "../../provider/native/schema";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { terraformProvider } from "../../provider/terraform/provider";
import { objectType, terraformSchema } from "../../provider/terraform/schema";
import { toMsgpack, type Value } from "../../provider/terraform/values/codec";
import { readSchemaDeclarations } from "../../scripts/schemaDeclarations";
import { useEmulator } from "../support/emulatorHarness";

type Response = { diagnostics?: Array<{ summary?: string; detail?: string }> };

// One token, then one every 1000 s: every request after the first is refused with 429.
const emulator = useEmulator({ rateLimit: { requestsPerSecond: 0.001, burst: 1 } });
let schema: string;

// readSchemaDeclarations runs the TypeScript compiler: seconds on a loaded machine.
beforeAll(() => {
  schema = JSON.stringify(pluginSchema("0.0.0-test", readSchemaDeclarations()));
}, 60_000);

/** Calls one method the way the gRPC server does. */
function call(service: grpc.UntypedServiceImplementation, method: string, request: object): Promise<Response> {
  return new Promise((resolve, reject) => {
    const handler = service[method] as grpc.handleUnaryCall<object, Response>;
    handler({ request } as grpc.ServerUnaryCall<object, Response>, (err, response) =>
      err ? reject(err) : resolve(response!),
    );
  });
}

describe("StopProvider", () => {
  it("ends an apply waiting out 429s within a second, saying nothing more was sent, with no subscription left", async () => {
    // The bucket's one token goes to this read, so the Subscribe below meets only 429s.
    await emulator.all();
    const service = terraformProvider({
      schema,
      env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" },
    });
    expect((await call(service, "ConfigureProvider", {})).diagnostics ?? []).toEqual([]);
    const type = objectType(terraformSchema(JSON.parse(schema)).resources[RESOURCE_TYPE]!.attributes);
    const planned = {
      webhook: "PacketCreated",
      filter_object_type: 2,
      filter_object_guid: "6f1c2a3b-0000-4000-8000-000000000001",
      subscriber_url: "https://hooks.example.com/orders",
    };
    const msgpack = (value: Value) => ({ msgpack: Buffer.from(toMsgpack(value, type)) });
    const apply = call(service, "ApplyResourceChange", {
      type_name: RESOURCE_TYPE,
      prior_state: msgpack(null),
      planned_state: msgpack(planned),
      config: msgpack(planned),
    });
    // Let it meet a 429 and start backing off (the first backoffs are short; later ones grow to 10 s).
    await new Promise((resolve) => setTimeout(resolve, 1500));

    const stoppedAt = Date.now();
    await call(service, "StopProvider", {});
    const response = await Promise.race([
      apply,
      new Promise<Response>((resolve) =>
        setTimeout(() => resolve({ diagnostics: [{ summary: "still running" }] }), 5000),
      ),
    ]);
    expect(Date.now() - stoppedAt).toBeLessThan(1000);
    const said = (response.diagnostics ?? []).map((d) => `${d.summary}: ${d.detail}`).join("\n");
    expect(said).toContain("stopped while rate limited; nothing more was sent after attempt");

    await emulator.admin("PUT", "/rate-limit", null);
    expect(await emulator.all()).toEqual([]);
  }, 30_000);
});
