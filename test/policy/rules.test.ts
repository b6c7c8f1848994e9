/** Each rule's validator, on fields as the pack and the drift review hand them over. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostAllowed, hostOf } from "../../policy/hostPattern";
import {
  customHeaderRequired,
  noDuplicateSubscriptions,
  noLegacyApiVersion,
  objectScopeRequired,
  RULES,
  subscriberHostAllowed,
  subscriberUrlHttps,
  type SubscriptionFields,
} from "../../policy/rules";
import { Webhook } from "../../provider/wire";
import { REPO_ROOT } from "../support/engine";

const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
const ok: SubscriptionFields = {
  label: 'WebhookSubscription "orders"',
  webhook: Webhook.PacketCreated,
  filterObjectType: 2,
  filterObjectGuid: GUID,
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X-Api-Key",
  hasCustomHeaderValue: true,
  apiVersion: "3",
};
const hosts = { allowedSubscriberHosts: ["hooks.example.com", "*.example.org"] };

describe("host patterns", () => {
  it("match the exact host, and every host under a *. domain but not the domain itself", () => {
    expect(hostAllowed("hooks.example.com", hosts.allowedSubscriberHosts)).toBe(true);
    expect(hostAllowed("HOOKS.Example.com", hosts.allowedSubscriberHosts)).toBe(true);
    expect(hostAllowed("a.example.org", hosts.allowedSubscriberHosts)).toBe(true);
    expect(hostAllowed("a.b.example.org", hosts.allowedSubscriberHosts)).toBe(true);
    expect(hostAllowed("example.org", hosts.allowedSubscriberHosts)).toBe(false);
    expect(hostAllowed("evilexample.org", hosts.allowedSubscriberHosts)).toBe(false);
    expect(hostAllowed("hooks.example.com.evil.net", hosts.allowedSubscriberHosts)).toBe(false);
  });

  it("read the host of a URL without port, credentials or trailing dot", () => {
    expect(hostOf("https://Hooks.Example.com.:8443/x")).toBe("hooks.example.com");
    expect(hostOf("not a url")).toBeUndefined();
  });
});

describe("subscriber-host-allowed", () => {
  it("passes an allowed host and names the host, the URL and the allowed list otherwise", () => {
    expect(subscriberHostAllowed.validate(ok, hosts)).toEqual([]);
    expect(subscriberHostAllowed.validate({ ...ok, subscriberUrl: "https://sub.example.org/x" }, hosts)).toEqual([]);
    const [finding, ...more] = subscriberHostAllowed.validate(
      { ...ok, subscriberUrl: "https://evil.example.net/x" },
      hosts,
    );
    expect(more).toEqual([]);
    expect(finding!.field).toBe("subscriberUrl");
    expect(finding!.message).toBe(
      'subscriberUrl "https://evil.example.net/x" sends to host "evil.example.net", which is not allowed (allowedSubscriberHosts: "hooks.example.com", "*.example.org"). Point subscriberUrl at an allowed host, or add the host to allowedSubscriberHosts.',
    );
  });

  it("checks nothing without a list or an unknown URL", () => {
    expect(subscriberHostAllowed.validate({ ...ok, subscriberUrl: "https://evil.example.net" }, {})).toEqual([]);
    expect(subscriberHostAllowed.validate({ ...ok, subscriberUrl: undefined }, hosts)).toEqual([]);
  });
});

describe("subscriber-url-https", () => {
  it("refuses http and shows the URL", () => {
    expect(subscriberUrlHttps.validate(ok, {})).toEqual([]);
    expect(subscriberUrlHttps.validate({ ...ok, subscriberUrl: "http://hooks.example.com/x" }, {})).toEqual([
      {
        field: "subscriberUrl",
        message:
          'subscriberUrl "http://hooks.example.com/x" does not use https (allowed: https:// URLs only). Serve the receiver over TLS and change the URL to https://.',
      },
    ]);
  });
});

describe("custom-header-required", () => {
  it("asks for a header, the configured name and a value, never showing the value", () => {
    expect(customHeaderRequired.validate(ok, {})).toEqual([]);
    expect(customHeaderRequired.validate({ ...ok, customHeader: "" }, {})[0]!.message).toMatch(
      /^customHeader is not set \(allowed: any header name\)/,
    );
    expect(customHeaderRequired.validate(ok, { customHeader: "X-Token" })[0]!.message).toBe(
      'customHeader "X-Api-Key" is not the required header (allowed: "X-Token"). Rename it to "X-Token".',
    );
    expect(customHeaderRequired.validate(ok, { customHeader: "x-api-key" })).toEqual([]);
    expect(customHeaderRequired.validate({ ...ok, hasCustomHeaderValue: false }, {})).toEqual([
      expect.objectContaining({ field: "customHeaderValue" }),
    ]);
  });

  it("is off by default", () => {
    expect(customHeaderRequired.defaultLevel).toBe("disabled");
  });
});

describe("object-scope-required", () => {
  it("uses the wire's object-scoped events", () => {
    expect(objectScopeRequired.validate({ ...ok, filterObjectGuid: null }, {})).toEqual([
      {
        field: "filterObjectGuid",
        message:
          "filterObjectGuid is not set for PacketCreated (webhook 0), an object-scoped event (allowed: the GUID of one object). Set filterObjectGuid to the object the subscription is about.",
      },
    ]);
    expect(
      objectScopeRequired.validate({ ...ok, webhook: Webhook.BusinessObjectCreated, filterObjectGuid: null }, {}),
    ).toEqual([]);
    expect(objectScopeRequired.validate({ ...ok, filterObjectGuid: undefined }, {})).toEqual([]);
  });
});

describe("no-duplicate-subscriptions", () => {
  it("reports each later duplicate once, naming the first", () => {
    const b = { ...ok, label: 'WebhookSubscription "b"', customHeader: "X-Other" };
    const c = { ...ok, label: 'WebhookSubscription "c"', filterObjectGuid: GUID.toUpperCase() };
    const other = { ...ok, label: "d", subscriberUrl: "https://hooks.example.com/other" };
    const found = noDuplicateSubscriptions.validateAll([ok, b, c, other], {});
    expect(found.map((f) => f.index)).toEqual([1, 2]);
    expect(found[0]!.finding.message).toContain('through WebhookSubscription "orders"');
  });

  it("ignores subscriptions whose key is not known yet", () => {
    expect(noDuplicateSubscriptions.validateAll([ok, { ...ok, subscriberUrl: undefined }], {})).toEqual([]);
  });
});

describe("no-legacy-api-version", () => {
  it("flags 2024.1 and names the versions to use", () => {
    expect(noLegacyApiVersion.validate(ok, {})).toEqual([]);
    expect(noLegacyApiVersion.validate({ ...ok, apiVersion: "2024.1" }, {})[0]!.message).toContain(
      'apiVersion "2024.1" is the legacy API',
    );
    expect(noLegacyApiVersion.defaultLevel).toBe("advisory");
  });
});

it("every rule has a unique kebab-case name and a description", () => {
  const names = RULES.map((r) => r.name);
  expect(new Set(names).size).toBe(names.length);
  for (const rule of RULES) {
    expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(rule.description.length).toBeGreaterThan(20);
  }
});

it("docs/policy.md's table lists every rule with its default level, in order", () => {
  const page = readFileSync(join(REPO_ROOT, "docs", "policy.md"), "utf8");
  const section = page.slice(page.indexOf("## The rules"), page.indexOf("## Settings"));
  const rows = [...section.matchAll(/^\| `([a-z-]+)` .*\| (\w+) +\|$/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toEqual(RULES.map((r) => [r.name, r.defaultLevel]));
});
