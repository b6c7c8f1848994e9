/**
 * The pack's policies as the engine calls them, on both front doors' type tokens (constructing
 * `WebhookGuard` itself starts the analyzer's gRPC server: the e2e test runs it under the engine).
 */
import type { ResourceValidation, ResourceValidationPolicy, StackValidationPolicy } from "@pulumi/policy";
import { describe, expect, it } from "vitest";
import { apiVersionOf, fieldsOfInputs } from "../../policy/fields";
import { initialConfigOf, webhookPolicies } from "../../policy/webhookGuard";
import { parsePolicySettings } from "../../policy/settings";
import { UNKNOWN } from "../../provider/core/inputs";
import {
  NATIVE_PROVIDER_TYPE,
  NATIVE_WEBHOOK_SUBSCRIPTION_TYPE,
  WEBHOOK_SUBSCRIPTION_TYPE,
} from "../../provider/model";

const props = {
  __provider: "exports.handler = …",
  webhook: 0,
  filterObjectType: 2,
  filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
  subscriberUrl: "https://evil.example.net/orders",
  customHeader: "X-Api-Key",
  customHeaderValue: "s3cr3t-value",
};
const config = { allowedSubscriberHosts: ["hooks.example.com"] };

function policy<T>(name: string): T {
  return webhookPolicies().find((p) => p.name === name) as T;
}

/** Runs a resource policy the way the engine does; returns what it reported. */
function validate(name: string, type: string, resourceProps: object, options: object = config): string[] {
  const reported: string[] = [];
  const run = policy<ResourceValidationPolicy>(name).validateResource as ResourceValidation;
  void run({ type, name: "orders", props: resourceProps, getConfig: () => options } as never, (message: string) =>
    reported.push(message),
  );
  return reported;
}

describe("resource policies", () => {
  it.each([WEBHOOK_SUBSCRIPTION_TYPE, NATIVE_WEBHOOK_SUBSCRIPTION_TYPE])(
    "apply to %s, naming the resource and never the header value",
    (type) => {
      const [message, ...more] = validate("subscriber-host-allowed", type, props);
      expect(more).toEqual([]);
      expect(message).toMatch(
        /^WebhookSubscription "orders": subscriberUrl "https:\/\/evil\.example\.net\/orders" sends to host "evil\.example\.net"/,
      );
      expect(message).not.toContain("s3cr3t");
    },
  );

  it("leave other resource types alone", () => {
    expect(validate("subscriber-host-allowed", "aws:s3/bucket:Bucket", props)).toEqual([]);
  });

  it("refuse bad options from --policy-pack-config, naming the key and value", () => {
    expect(() =>
      validate("subscriber-host-allowed", WEBHOOK_SUBSCRIPTION_TYPE, props, { allowedSubscriberHosts: "x" }),
    ).toThrow(/subscriber-host-allowed\.allowedSubscriberHosts must be a list of host patterns.*got: "x"/);
  });

  it("declare their config schema and default level", () => {
    const host = policy<ResourceValidationPolicy>("subscriber-host-allowed");
    expect(host.enforcementLevel).toBe("mandatory");
    expect(Object.keys(host.configSchema!.properties)).toEqual(["allowedSubscriberHosts"]);
  });
});

describe("the stack policy", () => {
  it("reports a duplicate once, on the later resource's URN", () => {
    const resource = (name: string) => ({
      type: NATIVE_WEBHOOK_SUBSCRIPTION_TYPE,
      name,
      urn: `urn:${name}`,
      props: { ...props, subscriberUrl: "https://hooks.example.com/x" },
    });
    const reported: [string, string | undefined][] = [];
    void policy<StackValidationPolicy>("no-duplicate-subscriptions").validateStack(
      { resources: [resource("a"), resource("b")], getConfig: () => ({}) } as never,
      (message: string, urn?: string) => reported.push([message, urn]),
    );
    expect(reported).toEqual([
      [expect.stringMatching(/^WebhookSubscription "b": .* through WebhookSubscription "a"/), "urn:b"],
    ]);
  });
});

describe("reading inputs", () => {
  it("treats a preview's unknown values as not known, and absent ones as not set", () => {
    expect(
      fieldsOfInputs({ webhook: "PacketUpdated", subscriberUrl: UNKNOWN, filterObjectGuid: UNKNOWN }, "x"),
    ).toEqual({
      label: "x",
      webhook: 1,
      filterObjectType: undefined,
      filterObjectGuid: undefined,
      subscriberUrl: undefined,
      customHeader: "",
      hasCustomHeaderValue: false,
    });
    expect(fieldsOfInputs({ customHeader: "X Api Key", filterObjectGuid: "" }, "x")).toMatchObject({
      customHeader: "X-Api-Key",
      filterObjectGuid: null,
    });
  });

  it("finds the api-version on a native provider, an explicit dynamic Provider, or the environment", () => {
    expect(apiVersionOf({ type: NATIVE_PROVIDER_TYPE, props: { apiVersion: "2024.1" } })).toBe("2024.1");
    expect(apiVersionOf({ type: "pulumi:providers:pulumi-nodejs", props: { "webhooks:apiVersion": "2" } })).toBe("2");
    expect(apiVersionOf(undefined, { WEBHOOKS_API_VERSION: "2024.1" })).toBe("2024.1");
    expect(apiVersionOf(undefined, {})).toBe("3");
  });
});

it("the initial config names every rule with its level and options", () => {
  expect(initialConfigOf(parsePolicySettings({ allowedSubscriberHosts: ["hooks.example.com"] }))).toMatchObject({
    "subscriber-host-allowed": { enforcementLevel: "mandatory", allowedSubscriberHosts: ["hooks.example.com"] },
    "custom-header-required": { enforcementLevel: "disabled" },
  });
});
