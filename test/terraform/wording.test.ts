/**
 * The Terraform front door's messages name Terraform's knobs (provider/terraform/wording.ts): an
 * apply that gives up on the instance's rate limit says `-parallelism=N` and the provider block's
 * `retry_deadline_ms`, never a Pulumi command or stack-config key. Driven through the tfplugin6
 * service object, as the gRPC server calls it.
 */
import { beforeAll, expect, it } from "vitest";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { terraformProvider } from "../../provider/terraform/provider";
import { objectType, terraformSchema } from "../../provider/terraform/schema";
import { toMsgpack, type Value } from "../../provider/terraform/values/codec";
import { useEmulator } from "../support/emulatorHarness";
import { callService as call, testResourceDescription } from "../support/tfpluginService";

// One token, then one every 1000 s: every request after the first is refused with 429.
const emulator = useEmulator({ rateLimit: { requestsPerSecond: 0.001, burst: 1 } });
let description: string;

beforeAll(() => {
  description = testResourceDescription();
}, 60_000);

it("an apply that gives up on 429s names -parallelism and retry_deadline_ms, nothing of Pulumi's", async () => {
  await emulator.all(); // the bucket's one token
  const service = terraformProvider({
    description,
    env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" },
  });
  const terraform = terraformSchema(JSON.parse(description));
  const providerType = objectType(terraform.provider.attributes);
  const type = objectType(terraform.resources[RESOURCE_TYPE]!.attributes);
  const msgpack = (value: Value, of = type) => ({ msgpack: Buffer.from(toMsgpack(value, of)) });
  expect(
    (await call(service, "ConfigureProvider", { config: msgpack({ retry_deadline_ms: 1500 }, providerType) }))
      .diagnostics ?? [],
  ).toEqual([]);
  const planned = {
    webhook: "PacketCreated",
    filter_object_type: 2,
    filter_object_guid: "6f1c2a3b-0000-4000-8000-000000000001",
    subscriber_url: "https://hooks.example.com/orders",
  };
  const response = await call(service, "ApplyResourceChange", {
    type_name: RESOURCE_TYPE,
    prior_state: msgpack(null),
    planned_state: msgpack(planned),
    config: msgpack(planned),
  });
  const said = (response.diagnostics ?? []).map((d) => `${d.summary}: ${d.detail}`).join("\n");
  expect(said).toContain("`-parallelism=N` on plan and apply");
  expect(said).toContain("retry_deadline_ms in the provider block");
  expect(said).not.toMatch(/pulumi|webhooks:/i);
  await emulator.admin("PUT", "/rate-limit", null);
  expect(await emulator.all()).toEqual([]);
}, 30_000);
