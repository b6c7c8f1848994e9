/** diff: local, deep equality of normalised desired inputs against state; identity changes replace. */
import { describe, expect, it } from "vitest";
import { diffSubscription } from "../../provider/core/diff";
import { UNKNOWN } from "../../provider/core/inputs";
import type { SubscriptionOutputs } from "../../provider/core/outputs";

const GUID = "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b";
const state: SubscriptionOutputs = {
  guid: "11111111-2222-4333-8444-555555555555",
  signature: "sig",
  webhook: 0,
  webhookName: "PacketCreated",
  filterObjectType: 2,
  filterObjectGuid: GUID,
  subscriberUrl: "https://hooks.example.com/x",
  customHeader: "",
  customHeaderValue: null,
  adoptGuid: null,
  rotation: null,
  baseUrl: "https://instance.example.com",
};
const desired = {
  webhook: 0 as const,
  filterObjectType: 2,
  filterObjectGuid: GUID,
  subscriberUrl: "https://hooks.example.com/x",
};

describe("diffSubscription", () => {
  it("sees no change when absent optional inputs match the service's empty values", () => {
    expect(diffSubscription(state, desired, false)).toEqual({
      changes: false,
      changed: [],
      replaces: [],
      replacedForLegacy: [],
    });
  });

  it("updates URL and custom header in place", () => {
    const d = diffSubscription(
      state,
      { ...desired, subscriberUrl: "https://hooks.example.com/y", customHeader: "X-Key", customHeaderValue: "v" },
      false,
    );
    expect(d).toEqual({
      changes: true,
      changed: ["subscriberUrl", "customHeader", "customHeaderValue"],
      replaces: [],
      replacedForLegacy: [],
    });
  });

  it.each([
    ["webhook", { webhook: 1 as const }],
    ["filterObjectType", { filterObjectType: 3 }],
    ["filterObjectGuid", { filterObjectGuid: "0d9e8f7a-6b5c-4d3e-9f21-0a1b2c3d4e5f" }],
  ])("replaces when %s changes", (field, change) => {
    expect(diffSubscription(state, { ...desired, ...change }, false).replaces).toEqual([field]);
  });

  it("replaces every change in legacy mode, which has no Update, and says which replace for that reason only", () => {
    const d = diffSubscription(state, { ...desired, subscriberUrl: "https://hooks.example.com/y", webhook: 1 }, true);
    expect(d.replaces).toEqual(["webhook", "subscriberUrl"]);
    expect(d.replacedForLegacy).toEqual(["subscriberUrl"]);
  });

  it("treats unknown values (preview) as changes, replacing when they are identity fields", () => {
    const d = diffSubscription(state, { ...desired, webhook: UNKNOWN as never, subscriberUrl: UNKNOWN }, false);
    expect(d.changed).toEqual(["webhook", "subscriberUrl"]);
    expect(d.replaces).toEqual(["webhook"]);
  });

  it("replaces to adopt a different subscription, and ignores adoptGuid once it names this one or is dropped", () => {
    expect(
      diffSubscription(state, { ...desired, adoptGuid: "99999999-2222-4333-8444-555555555555" }, false).replaces,
    ).toEqual(["adoptGuid"]);
    expect(diffSubscription(state, { ...desired, adoptGuid: state.guid }, false).changes).toBe(false);
    expect(diffSubscription({ ...state, adoptGuid: state.guid }, desired, false).changes).toBe(false);
  });

  it("replaces when the rotation label is set, changed or removed; a state from before rotation existed is quiet", () => {
    expect(diffSubscription(state, { ...desired, rotation: "2026-q4" }, false).replaces).toEqual(["rotation"]);
    const rotated = { ...state, rotation: "2026-q4" };
    expect(diffSubscription(rotated, { ...desired, rotation: "2027-q1" }, false).replaces).toEqual(["rotation"]);
    expect(diffSubscription(rotated, desired, false).replaces).toEqual(["rotation"]);
    expect(diffSubscription(rotated, { ...desired, rotation: "2026-q4" }, false).changes).toBe(false);
    const { rotation: _, ...older } = state;
    expect(diffSubscription(older, desired, false).changes).toBe(false);
  });
});
