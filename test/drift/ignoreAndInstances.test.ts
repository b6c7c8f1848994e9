/** The drift review's ignore list, and the instances a stack uses (default and explicit Providers). */
import { describe, expect, it } from "vitest";
import { invalidIgnoreRule, isIgnored } from "../../drift/review/ignore";
import { instancesOf } from "../../drift/sources/pulumi/instances";
import { adoptionNames } from "../../drift/review/adoptionNames";
import { adoptSnippet } from "../../drift/sources/pulumi/adoptionSnippet";
import type { StateSnapshot, StateSubscription } from "../../drift/sources/pulumi/stateSnapshot";

const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";

describe("ignore rules", () => {
  it("match a GUID in any case, or a subscriber-URL prefix", () => {
    const live = { guid: GUID, subscriberUrl: "https://legacy.example.com/orders" };
    expect(isIgnored(live, [GUID.toUpperCase()])).toBe(true);
    expect(isIgnored(live, ["https://legacy.example.com/"])).toBe(true);
    expect(isIgnored(live, ["https://hooks.example.com/", "11111111-2222-4333-8444-555555555555"])).toBe(false);
  });

  it("refuse anything else, naming the rule", () => {
    expect(invalidIgnoreRule([GUID, "http://x.example.com"])).toBeUndefined();
    expect(invalidIgnoreRule(["legacy"])).toMatch(/got: "legacy"/);
  });
});

describe("instancesOf", () => {
  /** A provider's URN; the native and the dynamic provider types may hold the same name. */
  const urnOf = (provider: string, type = "pulumi:providers:pulumi-nodejs") =>
    `urn:pulumi:dev::p::${type}::${provider}`;
  const sub = (
    name: string,
    provider: string | null,
    providerUrn = provider && urnOf(provider),
  ): StateSubscription => ({
    urn: `urn::${name}`,
    name,
    guid: name,
    outputs: {},
    provider,
    providerUrn,
    frontDoor: "dynamic",
  });
  /** Explicit providers by URN, each with its settings as `webhooks:*` keys. */
  const state = (managed: StateSubscription[], providers: Record<string, Record<string, string>>): StateSnapshot => ({
    managed,
    guids: new Set(),
    providers: new Map(
      Object.entries(providers).map(([urn, config]) => [
        urn.startsWith("urn:") ? urn : urnOf(urn),
        { name: config["webhooks:provider"]!, frontDoor: "dynamic", config: { get: (key) => config[key] } },
      ]),
    ),
    nativeDefaultProvider: false,
    pendingCreates: [],
  });
  const stackConfig = { get: (key: string) => ({ "webhooks:baseUrl": "https://test.example.com" })[key] };
  const env = { WEBHOOKS_TOKEN: "t", PROD_TOKEN: "p" };
  const prod = {
    "webhooks:provider": "prod",
    "webhooks:baseUrl": "https://prod.example.com",
    "webhooks:tokenFromEnv": "PROD_TOKEN",
  };

  it("lists the default instance and each Provider's, each with its managed subscriptions", () => {
    const found = instancesOf(state([sub("a", null), sub("b", "prod")], { prod }), stackConfig, env);
    expect(found.map((i) => [i.provider, i.settings.baseUrl, i.settings.token, i.managed.map((m) => m.name)])).toEqual([
      [null, "https://test.example.com", "t", ["a"]],
      ["prod", "https://prod.example.com", "p", ["b"]],
    ]);
  });

  it("lists one instance once when two providers reach it, and skips an unused default", () => {
    const same = { ...prod, "webhooks:baseUrl": "https://test.example.com/" };
    expect(instancesOf(state([sub("a", null), sub("b", "prod")], { prod: same }), stackConfig, env)).toHaveLength(1);
    expect(
      instancesOf(state([sub("b", "prod")], { prod }), { get: () => undefined }, { PROD_TOKEN: "p" }).map(
        (i) => i.provider,
      ),
    ).toEqual(["prod"]);
  });

  it("keeps apart a dynamic and a native provider of the same name on different instances", () => {
    const nativeUrn = urnOf("prod", "pulumi:providers:webhooks");
    const nativeProd = { ...prod, "webhooks:baseUrl": "https://eu.example.com" };
    const found = instancesOf(
      state([sub("b", "prod"), sub("n", "prod", nativeUrn)], { prod, [nativeUrn]: nativeProd }),
      { get: () => undefined },
      env,
    );
    expect(found.map((i) => [i.provider, i.settings.baseUrl, i.managed.map((m) => m.name)])).toEqual([
      ["prod", "https://prod.example.com", ["b"]],
      ["prod", "https://eu.example.com", ["n"]],
    ]);
  });
});

describe("adopt snippets", () => {
  it("name the Provider of the instance the subscription lives on", () => {
    const live = {
      guid: GUID,
      signature: "s",
      webhook: 3,
      filterObjectType: 7,
      filterObjectGuid: null,
      subscriberUrl: "https://x.example.com",
      customHeader: "",
      customHeaderValue: null,
    };
    const name = adoptionNames([live]).get(GUID)!;
    expect(adoptSnippet(live, name, "eu-prod")).toMatch(/\}, \{ provider: euProd \}\);$/);
    expect(adoptSnippet(live, name)).toMatch(/\n\}\);$/);
  });
});
