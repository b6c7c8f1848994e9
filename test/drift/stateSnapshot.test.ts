import { describe, expect, it } from "vitest";
import { unwrapValue, MASKED } from "../../drift/fields";
import { resourceName, stateSnapshot } from "../../drift/stateSnapshot";

const TYPE = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const SIG = "4dabf18193072939515e22adb298388d";
const secret = (value: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(value) });

function resource(name: string, guid: string, extra: Record<string, unknown> = {}) {
  return {
    urn: `urn:pulumi:dev::proj::${TYPE}::${name}`,
    type: TYPE,
    id: guid,
    inputs: {},
    outputs: {
      guid,
      webhook: 0,
      subscriberUrl: "https://h.example.com",
      signature: secret("sig"),
      customHeaderValue: secret(null),
      adoptGuid: null,
    },
    ...extra,
  };
}

describe("stateSnapshot", () => {
  it("reads managed subscriptions with plaintext secrets", () => {
    const { managed } = stateSnapshot({ resources: [resource("a", "AAAA")] });
    expect(managed).toEqual([
      {
        urn: `urn:pulumi:dev::proj::${TYPE}::a`,
        name: "a",
        guid: "AAAA",
        outputs: { webhook: 0, subscriberUrl: "https://h.example.com", signature: "sig", customHeaderValue: null },
        provider: null,
      },
    ]);
  });

  it("tells which explicit Provider manages each subscription, with that Provider's plaintext config", () => {
    const providerUrn = "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::production";
    const snapshot = stateSnapshot({
      resources: [
        {
          urn: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default",
          type: "pulumi:providers:pulumi-nodejs",
          id: "d1",
          inputs: {},
        },
        {
          urn: providerUrn,
          type: "pulumi:providers:pulumi-nodejs",
          id: "p1",
          inputs: {
            "webhooks:provider": "production",
            "webhooks:baseUrl": "https://prod.example.com",
            "webhooks:token": secret("t"),
          },
        },
        resource("a", "AAAA", { provider: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default::d1" }),
        resource("b", "BBBB", { provider: `${providerUrn}::p1` }),
      ],
    });
    expect(snapshot.managed.map((m) => [m.name, m.provider])).toEqual([
      ["a", null],
      ["b", "production"],
    ]);
    expect(snapshot.providers.get("production")).toEqual({
      "webhooks:provider": "production",
      "webhooks:baseUrl": "https://prod.example.com",
      "webhooks:token": "t",
    });
  });

  it("collects every GUID, lower-cased: ids, adopted GUIDs, pending deletions and pending operations", () => {
    const snapshot = stateSnapshot({
      resources: [
        {
          urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
          type: "pulumi:pulumi:Stack",
          outputs: { guid: "STACK-OUTPUT" },
        },
        resource("a", "AAAA", { inputs: { adoptGuid: "adopted" } }),
        resource("old", "OLD", { delete: true }),
      ],
      pending_operations: [{ resource: resource("creating", "PENDING"), type: "creating" }],
    });
    expect([...snapshot.guids].sort()).toEqual(["aaaa", "adopted", "old", "pending"]);
    expect(snapshot.managed.map((m) => m.name)).toEqual(["a"]);
  });

  it("handles an empty deployment", () => {
    expect(stateSnapshot(undefined)).toEqual({ managed: [], guids: new Set(), providers: new Map() });
  });
});

describe("unwrapValue", () => {
  it("unwraps exported secrets and recognises masked ones", () => {
    expect(unwrapValue(secret("x"))).toBe("x");
    expect(unwrapValue({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" })).toBe(MASKED);
    expect(unwrapValue(null)).toBeNull();
    expect(unwrapValue(undefined)).toBeUndefined();
  });
});

describe("resourceName", () => {
  it("is the URN's last segment", () => {
    expect(resourceName(`urn:pulumi:dev::proj::${TYPE}::orders-created`)).toBe("orders-created");
  });
});
