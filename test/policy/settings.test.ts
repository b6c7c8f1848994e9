/** The settings schema: what WebhookGuard and `drift --policy` accept, and each bad key's message. */
import { describe, expect, it } from "vitest";
import {
  configSchemaOf,
  parsePolicySettings,
  PolicySettingsError,
  resolveRules,
  ruleOptions,
} from "../../policy/settings";
import { RULES, subscriberHostAllowed } from "../../policy/rules";

const levels = (settings: object) =>
  Object.fromEntries(resolveRules(parsePolicySettings(settings)).map((r) => [r.rule.name, r.level]));

function problems(value: unknown): readonly string[] {
  try {
    parsePolicySettings(value);
  } catch (err) {
    expect(err).toBeInstanceOf(PolicySettingsError);
    return (err as PolicySettingsError).problems;
  }
  throw new Error("expected the settings to be refused");
}

describe("resolving levels and options", () => {
  it("takes each rule's default, then enforcementLevel for the rules on by default, then all, then the rule by name", () => {
    expect(levels({})).toEqual({
      "subscriber-host-allowed": "mandatory",
      "subscriber-url-https": "mandatory",
      "custom-header-required": "disabled",
      "object-scope-required": "mandatory",
      "no-duplicate-subscriptions": "mandatory",
      "no-legacy-api-version": "advisory",
    });
    expect(levels({ enforcementLevel: "advisory" })).toMatchObject({
      "subscriber-host-allowed": "advisory",
      "custom-header-required": "disabled",
    });
    expect(levels({ all: "mandatory", "subscriber-url-https": "advisory" })).toMatchObject({
      "custom-header-required": "mandatory",
      "subscriber-url-https": "advisory",
    });
    expect(
      levels({ "custom-header-required": { enforcementLevel: "advisory", customHeader: "X-Token" } }),
    ).toMatchObject({ "custom-header-required": "advisory" });
  });

  it("gives allowedSubscriberHosts to the host rule; the rule's own entry wins", () => {
    const [host] = resolveRules(parsePolicySettings({ allowedSubscriberHosts: ["hooks.example.com"] }));
    expect(host).toMatchObject({
      rule: subscriberHostAllowed,
      options: { allowedSubscriberHosts: ["hooks.example.com"] },
    });
    const [own] = resolveRules(
      parsePolicySettings({
        allowedSubscriberHosts: ["hooks.example.com"],
        "subscriber-host-allowed": { allowedSubscriberHosts: ["*.example.org"] },
      }),
    );
    expect(own!.options).toEqual({ allowedSubscriberHosts: ["*.example.org"] });
  });

  it("accepts a --policy-pack-config file as it is", () => {
    expect(() =>
      parsePolicySettings({
        all: "advisory",
        "subscriber-host-allowed": { enforcementLevel: "mandatory", allowedSubscriberHosts: ["hooks.example.com"] },
      }),
    ).not.toThrow();
  });
});

describe("bad settings name the key and the value, each once", () => {
  it("unknown rule names and options", () => {
    expect(problems({ "subscriber-hosts": "advisory", "subscriber-url-https": { level: "advisory" } })).toEqual([
      "subscriber-url-https.level is not a setting (known: enforcementLevel)",
      "subscriber-hosts is not a setting (known: enforcementLevel, all, allowedSubscriberHosts, subscriber-host-allowed, subscriber-url-https, custom-header-required, object-scope-required, no-duplicate-subscriptions, no-legacy-api-version)",
    ]);
  });

  it("bad host patterns", () => {
    expect(problems({ allowedSubscriberHosts: ["https://hooks.example.com/x", "*", 3, "*.example.org"] })).toEqual([
      'allowedSubscriberHosts[0] must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: "https://hooks.example.com/x"',
      'allowedSubscriberHosts[1] must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: "*"',
      'allowedSubscriberHosts[2] must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: 3',
    ]);
  });

  it("wrong types", () => {
    expect(
      problems({
        enforcementLevel: "strict",
        allowedSubscriberHosts: "hooks.example.com",
        "subscriber-url-https": 4,
        "custom-header-required": { customHeader: 7 },
      }),
    ).toEqual([
      'enforcementLevel must be one of "advisory", "mandatory", "remediate", "disabled", got: "strict"',
      'allowedSubscriberHosts must be a list of host patterns, e.g. ["hooks.example.com", "*.example.org"], got: "hooks.example.com"',
      'subscriber-url-https must be an enforcement level ("advisory", "mandatory", "remediate", "disabled") or an object of enforcementLevel, got: 4',
      'custom-header-required.customHeader must be a header name such as "X-Api-Key", got: 7',
    ]);
    expect(problems([])).toEqual(["the settings must be a JSON object, got: []"]);
  });

  it("the message lists every problem under where the settings came from", () => {
    expect(() => parsePolicySettings({ all: 1 }, "policy file policy.json")).toThrow(
      'Invalid policy file policy.json:\n  - all must be one of "advisory", "mandatory", "remediate", "disabled", got: 1',
    );
  });

  it("a rule's options from --policy-pack-config are checked the same way", () => {
    expect(() => ruleOptions(subscriberHostAllowed, { allowedSubscriberHosts: ["a b"], hosts: [] })).toThrow(
      /subscriber-host-allowed\.allowedSubscriberHosts\[0\] must be a host name .*got: "a b"\n {2}- subscriber-host-allowed\.hosts is not a setting/,
    );
  });
});

describe("the JSON schema --policy-pack-config is checked against", () => {
  it("is generated from the rule options, with the host pattern", () => {
    const schema = configSchemaOf(subscriberHostAllowed)!;
    const pattern = new RegExp(
      (schema.properties.allowedSubscriberHosts as { items: { pattern: string } }).items.pattern,
    );
    expect(pattern.test("*.Example.org")).toBe(true);
    expect(pattern.test("https://x")).toBe(false);
    expect(RULES.filter((r) => configSchemaOf(r)).map((r) => r.name)).toEqual([
      "subscriber-host-allowed",
      "custom-header-required",
    ]);
  });
});
