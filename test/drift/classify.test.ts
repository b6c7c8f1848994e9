import { describe, expect, it } from "vitest";
import { classify } from "../../drift/sources/pulumi/classifyManaged";
import type { RefreshObservation } from "../../drift/sources/pulumi/refreshObserver";
import type { StateSubscription } from "../../drift/sources/pulumi/stateSnapshot";
import type { Subscription } from "../../provider/wire";

/** How engine events show a secret: masked, identical before and after. */
const MASKED = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };

const live: Subscription = {
  guid: "0da33133-f5b8-4cfc-89ce-c8fe220074b0",
  webhook: 3,
  filterObjectType: 3,
  filterObjectGuid: null,
  subscriberUrl: "https://hooks.example.com/b",
  signature: "sig-1",
  customHeader: "X-Key",
  customHeaderValue: "v1",
};

const state: StateSubscription = {
  urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/webhooks:WebhookSubscription::b",
  name: "b",
  guid: live.guid,
  outputs: { ...live },
  provider: null,
  providerUrn: null,
  frontDoor: "dynamic",
};

/** Outputs as an engine event carries them. */
function eventOutputs(sub: Subscription): Record<string, unknown> {
  return {
    ...sub,
    signature: MASKED,
    customHeaderValue: MASKED,
    webhookName: "BusinessObjectCreated",
    adoptGuid: null,
  };
}

const observation = (op: string, after?: Subscription): RefreshObservation => ({
  op,
  old: eventOutputs(live),
  ...(after ? { new: eventOutputs(after) } : {}),
});

describe("classify", () => {
  it("is in sync when the engine saw no change", () => {
    expect(classify(state, observation("same", live))).toEqual({
      urn: state.urn,
      name: "b",
      guid: live.guid,
      status: "in-sync",
      changes: [],
    });
  });

  it("is deleted when the engine dropped the resource", () => {
    expect(classify(state, observation("delete")).status).toBe("deleted");
  });

  it("reports visible fields with both values", () => {
    const after = { ...live, subscriberUrl: "https://evil.example.com/b", filterObjectType: 9 };
    expect(classify(state, observation("update", after), after).changes).toEqual([
      { field: "filterObjectType", secret: false, recorded: 3, live: 9 },
      {
        field: "subscriberUrl",
        secret: false,
        recorded: "https://hooks.example.com/b",
        live: "https://evil.example.com/b",
      },
    ]);
  });

  it("names a changed secret without its values, from the plaintext state and the live subscription", () => {
    const after = { ...live, customHeaderValue: "v2" };
    const result = classify(state, observation("update", after), after);
    expect(result.status).toBe("changed");
    expect(result.changes).toEqual([{ field: "customHeaderValue", secret: true }]);
    expect(JSON.stringify(result)).not.toContain("v2");
  });

  it("puts an unexplained masked change on every secret field when the live subscription is unknown", () => {
    expect(classify(state, observation("update", live)).changes).toEqual([
      { field: "customHeaderValue", secret: true },
      { field: "signature", secret: true },
    ]);
  });

  it("claims no secret change when visible fields explain the step and the live subscription is unknown", () => {
    const after = { ...live, customHeader: "X-Other" };
    expect(classify(state, observation("update", after)).changes).toEqual([
      { field: "customHeader", secret: false, recorded: "X-Key", live: "X-Other" },
    ]);
  });

  it("is in sync when only recorded inputs differed", () => {
    expect(classify(state, observation("update", live), live)).toMatchObject({ status: "in-sync", changes: [] });
  });

  describe("a refresh step of a preview of the program (op refresh, which says neither changed nor gone)", () => {
    it("is in sync when the outputs and the secrets' plaintexts are equal", () => {
      expect(classify(state, observation("refresh", live), live)).toMatchObject({ status: "in-sync", changes: [] });
    });

    it("is deleted when the refresh read nothing", () => {
      expect(classify(state, observation("refresh")).status).toBe("deleted");
    });

    it("names a visible field that changed", () => {
      const after = { ...live, subscriberUrl: "https://hooks.example.com/moved" };
      expect(classify(state, observation("refresh", after), after).changes).toEqual([
        {
          field: "subscriberUrl",
          secret: false,
          recorded: "https://hooks.example.com/b",
          live: "https://hooks.example.com/moved",
        },
      ]);
    });

    it("finds a secret changed alone, from the plaintexts (the events mask it)", () => {
      const after = { ...live, customHeaderValue: "v2" };
      expect(classify(state, observation("refresh", after), after)).toMatchObject({
        status: "changed",
        changes: [{ field: "customHeaderValue", secret: true }],
      });
    });

    it("puts no change on a secret it cannot read", () => {
      expect(classify(state, observation("refresh", live))).toMatchObject({ status: "in-sync", changes: [] });
    });

    it("is in sync when the state records the event as an integer (before event names) and the plugin reads its name", () => {
      const legacy: RefreshObservation = {
        op: "refresh",
        old: { ...eventOutputs(live), webhook: 3 },
        new: { ...eventOutputs(live), webhook: "BusinessObjectCreated" },
      };
      expect(classify(state, legacy, live)).toMatchObject({ status: "in-sync", changes: [] });
    });

    it("still names an event that changed, whichever form each side records", () => {
      const moved: RefreshObservation = {
        op: "refresh",
        old: { ...eventOutputs(live), webhook: 3 },
        new: { ...eventOutputs(live), webhook: "PacketCreated" },
      };
      expect(classify(state, moved, live).changes).toEqual([
        { field: "webhook", secret: false, recorded: 3, live: "PacketCreated" },
      ]);
    });
  });
});
