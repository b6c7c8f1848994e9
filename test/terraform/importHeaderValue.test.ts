/**
 * An imported subscription's custom header value stays out of the Terraform state: the import
 * records the write-only version (IMPORTED_VERSION) instead, so a configuration giving the value
 * through `custom_header_value_wo` at that version (or giving none, as `adopt` writes it) plans
 * no change. A plan that would then send the subscription without its value, clearing it on the
 * instance, is refused on `custom_header_value_wo`. Driven through the tfplugin6 service object,
 * as the gRPC server calls it, against the emulator.
 */
import type * as grpc from "@grpc/grpc-js";
import { beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { terraformProvider } from "../../provider/terraform/provider";
import {
  IMPORTED_VERSION,
  objectType,
  terraformSchema,
  WRITE_ONLY_VALUE,
  WRITE_ONLY_VERSION,
} from "../../provider/terraform/schema";
import { fromMsgpack, toMsgpack, type CtyType, type Value } from "../../provider/terraform/values/codec";
import { useEmulator } from "../support/emulatorHarness";
import { callService as call, testResourceDescription } from "../support/tfpluginService";

const emulator = useEmulator();
const SECRET = "s3cr3t-header-value";
const CAPABILITIES = { write_only_attributes_allowed: true };
/** A subscription with a custom header value, as a script makes it. */
const WITH_VALUE = {
  Webhook: 3,
  FilterObjectType: 2,
  SubscriberURL: "https://hooks.example.com/created",
  CustomHeader: "X-Api-Key",
  CustomHeaderValue: SECRET,
};

let description: string;
let type: CtyType;
beforeAll(() => {
  description = testResourceDescription();
  type = objectType(terraformSchema(JSON.parse(description)).resources[RESOURCE_TYPE]!.attributes);
}, 60_000);

type Attributes = Record<string, Value>;
type Dynamic = { msgpack?: Buffer };
const msgpack = (value: Value): Dynamic => ({ msgpack: Buffer.from(toMsgpack(value, type)) });
const decode = (value: Dynamic | undefined): Attributes => fromMsgpack(value!.msgpack!, type) as Attributes;

/** A configured provider service against the emulator. */
async function configured(): Promise<grpc.UntypedServiceImplementation> {
  const service = terraformProvider({
    description,
    env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" },
  });
  expect((await call(service, "ConfigureProvider", {})).diagnostics ?? []).toEqual([]);
  return service;
}

/** Imports `guid` as Terraform does: ImportResourceState, then ReadResource of what it gave. */
async function imported(
  service: grpc.UntypedServiceImplementation,
  guid: string,
): Promise<{ bytes: Buffer; state: Attributes }> {
  const response = (await call(service, "ImportResourceState", { type_name: RESOURCE_TYPE, id: guid })) as {
    diagnostics?: unknown[];
    imported_resources?: { state: Dynamic }[];
  };
  expect(response.diagnostics ?? []).toEqual([]);
  const read = await call(service, "ReadResource", {
    type_name: RESOURCE_TYPE,
    current_state: response.imported_resources![0]!.state,
  });
  expect(read.diagnostics ?? []).toEqual([]);
  const bytes = Buffer.concat([response.imported_resources![0]!.state.msgpack!, read.new_state!.msgpack!]);
  return { bytes, state: decode(read.new_state) };
}

/** The configuration `adopt` writes for a subscription with a header value, with `changes`. */
function configOf(state: Attributes, changes: Attributes = {}): Attributes {
  const config: Attributes = {};
  for (const name of Object.keys(state)) config[name] = null;
  return {
    ...config,
    webhook: state.webhook!,
    filter_object_type: state.filter_object_type!,
    filter_object_guid: state.filter_object_guid!,
    subscriber_url: state.subscriber_url!,
    custom_header: state.custom_header!,
    [WRITE_ONLY_VERSION]: IMPORTED_VERSION,
    ...changes,
  };
}

/** PlanResourceChange from `prior` to `config` (the proposed state: config over prior's computed attributes). */
async function plan(service: grpc.UntypedServiceImplementation, prior: Attributes, config: Attributes) {
  const proposed = {
    ...config,
    id: prior.id!,
    guid: prior.guid!,
    signature: prior.signature!,
    base_url: prior.base_url!,
  };
  const response = (await call(service, "PlanResourceChange", {
    type_name: RESOURCE_TYPE,
    prior_state: msgpack(prior),
    proposed_new_state: msgpack(proposed),
    config: msgpack(config),
    client_capabilities: CAPABILITIES,
  })) as { diagnostics?: { summary: string; detail: string; attribute?: unknown }[]; planned_state?: Dynamic };
  return { diagnostics: response.diagnostics ?? [], planned: response.planned_state && decode(response.planned_state) };
}

describe("importing a subscription with a custom header value", () => {
  it("records the write-only version, never the value, in the state", async () => {
    const { GUID } = await emulator.subscribe(WITH_VALUE);
    const { bytes, state } = await imported(await configured(), GUID);
    expect(state).toMatchObject({
      guid: GUID,
      custom_header: "X-Api-Key",
      custom_header_value: null,
      [WRITE_ONLY_VALUE]: null,
      [WRITE_ONLY_VERSION]: IMPORTED_VERSION,
    });
    expect(bytes.includes(SECRET)).toBe(false);
  });

  it("records neither when the subscription has a header name without a value", async () => {
    const { GUID } = await emulator.subscribe({ ...WITH_VALUE, CustomHeader: "X-Trace", CustomHeaderValue: null });
    const { state } = await imported(await configured(), GUID);
    expect(state).toMatchObject({ custom_header: "X-Trace", custom_header_value: null, [WRITE_ONLY_VERSION]: null });
  });
});

describe("planning an imported subscription whose header value is write-only", () => {
  async function importedWithValue() {
    const { GUID } = await emulator.subscribe(WITH_VALUE);
    const service = await configured();
    return { service, prior: (await imported(service, GUID)).state };
  }

  it("plans no change with the value at the imported version, or with none given", async () => {
    const { service, prior } = await importedWithValue();
    for (const value of [null, SECRET]) {
      const { diagnostics, planned } = await plan(service, prior, configOf(prior, { [WRITE_ONLY_VALUE]: value }));
      expect(diagnostics).toEqual([]);
      expect(planned).toEqual(prior);
    }
  });

  it("refuses a change that would send it without its value, saying how to supply it", async () => {
    const { service, prior } = await importedWithValue();
    for (const changes of [
      { subscriber_url: "https://hooks.example.com/moved" } as Attributes,
      { [WRITE_ONLY_VERSION]: IMPORTED_VERSION + 1 },
      { [WRITE_ONLY_VERSION]: null },
    ]) {
      const { diagnostics, planned } = await plan(service, prior, configOf(prior, changes));
      expect(planned).toBeUndefined();
      expect(diagnostics).toHaveLength(1);
      const [refused] = diagnostics;
      expect(refused!.attribute).toEqual({ steps: [{ attribute_name: WRITE_ONLY_VALUE }] });
      expect(refused!.detail).toContain(`${WRITE_ONLY_VALUE} is not set, but custom_header is "X-Api-Key"`);
      expect(refused!.detail).toContain("clearing the value on the instance");
      expect(refused!.detail).toContain("TF_VAR_<variable>");
      expect(refused!.detail).toContain(`change ${WRITE_ONLY_VERSION}`);
      expect(refused!.detail).not.toContain(SECRET);
    }
    const moved = await plan(service, prior, configOf(prior, { subscriber_url: "https://hooks.example.com/moved" }));
    expect(moved.diagnostics[0]!.detail).toContain("this plan changes subscriber_url:");
  });

  it("plans the change when the value is given, or when the header goes with it", async () => {
    const { service, prior } = await importedWithValue();
    const supplied = await plan(
      service,
      prior,
      configOf(prior, { [WRITE_ONLY_VALUE]: "new value", [WRITE_ONLY_VERSION]: IMPORTED_VERSION + 1 }),
    );
    expect(supplied.diagnostics).toEqual([]);
    expect(supplied.planned).toMatchObject({ [WRITE_ONLY_VERSION]: IMPORTED_VERSION + 1, [WRITE_ONLY_VALUE]: null });
    const dropped = await plan(service, prior, configOf(prior, { custom_header: null, [WRITE_ONLY_VERSION]: null }));
    expect(dropped.diagnostics).toEqual([]);
    expect(dropped.planned).toMatchObject({ custom_header: null });
  });
});
