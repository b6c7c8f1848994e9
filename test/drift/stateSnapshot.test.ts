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
      },
    ]);
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
    expect(stateSnapshot(undefined)).toEqual({ managed: [], guids: new Set() });
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
