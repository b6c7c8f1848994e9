/** Which unmanaged subscriptions adopt takes: `--match` rules (adopt/match.ts) and duplicates (adopt/duplicates.ts). */
import { describe, expect, it } from "vitest";
import { duplicateGroups, removeCommand } from "../../adopt/duplicates";
import { invalidMatchRule, selectByRules } from "../../adopt/match";
import type { Subscription } from "../../provider/wire";

const live = (guid: string, subscriberUrl: string, webhook = 3, over: Partial<Subscription> = {}): Subscription => ({
  guid,
  webhook,
  filterObjectType: 2,
  filterObjectGuid: null,
  subscriberUrl,
  customHeader: "",
  customHeaderValue: null,
  signature: "sig",
  ...over,
});
const A = "aaaaaaaa-0000-4000-8000-000000000001";
const B = "bbbbbbbb-0000-4000-8000-000000000002";
const C = "cccccccc-0000-4000-8000-000000000003";

describe("--match", () => {
  const subs = [
    live(A, "https://orders.example.com/a", 0),
    live(B, "https://orders.example.com/b"),
    live(C, "https://billing.example.com/c"),
  ];

  it("takes a GUID (any case), a subscriber-URL prefix or an event name; any rule matching adopts", () => {
    expect(selectByRules(subs, [A.toUpperCase()]).chosen.map((s) => s.guid)).toEqual([A]);
    expect(selectByRules(subs, ["https://orders.example.com/"]).chosen.map((s) => s.guid)).toEqual([A, B]);
    expect(selectByRules(subs, ["BusinessObjectCreated"]).chosen.map((s) => s.guid)).toEqual([B, C]);
    expect(selectByRules(subs, ["PacketCreated", C]).chosen.map((s) => s.guid)).toEqual([A, C]);
    expect(selectByRules(subs, []).chosen).toHaveLength(3);
  });

  it("names each rule that matched nothing", () => {
    expect(selectByRules(subs, ["https://nowhere.example/", A]).unmatched).toEqual(["https://nowhere.example/"]);
  });

  it("refuses a rule of none of the three kinds, showing it", () => {
    expect(invalidMatchRule("orders.example.com")).toMatch(
      /^--match "orders\.example\.com" is not a GUID, a subscriber-URL prefix/,
    );
    expect(invalidMatchRule("packetcreated")).toMatch(/event name \(PacketCreated, /);
    expect(invalidMatchRule("PacketCreated")).toBeUndefined();
    // A prefix names a host: `https://` alone would adopt every https subscription.
    expect(invalidMatchRule("https://")).toMatch(
      /^--match "https:\/\/" is not a GUID, a subscriber-URL prefix naming a host/,
    );
  });

  it("compares a prefix's scheme and host in any case, as URLs do, and its path as it is", () => {
    expect(selectByRules(subs, ["HTTPS://Orders.Example.com/"]).chosen.map((s) => s.guid)).toEqual([A, B]);
    expect(selectByRules(subs, ["https://orders.example.com/A"]).unmatched).toEqual(["https://orders.example.com/A"]);
  });
});

describe("duplicates", () => {
  const instance = { baseUrl: "http://127.0.0.1:1", apiVersion: "3" };
  const same = (guid: string) => live(guid, "https://orders.example.com/a");

  it("groups same event, filter, URL and header name; keeps the first listed, the rest are extras", () => {
    const groups = duplicateGroups(
      instance,
      [same(A), same(B), live(C, "https://other.example/")],
      new Set([A, B, C]),
      new Set(),
    );
    expect(groups).toHaveLength(1);
    expect(groups[0]!.keep.guid).toBe(A);
    expect(groups[0]!.keepManaged).toBe(false);
    expect(groups[0]!.extras.map((s) => s.guid)).toEqual([B]);
  });

  it("keeps the one a source manages: every unmanaged copy is an extra", () => {
    const groups = duplicateGroups(instance, [same(A), same(B)], new Set([A]), new Set([B]));
    expect(groups[0]!.keep.guid).toBe(B);
    expect(groups[0]!.keepManaged).toBe(true);
    expect(groups[0]!.extras.map((s) => s.guid)).toEqual([A]);
  });

  it("a different header name or filter GUID is no duplicate; a group with none chosen is not named", () => {
    const other = live(B, "https://orders.example.com/a", 3, { customHeader: "X-Key" });
    expect(duplicateGroups(instance, [same(A), other], new Set([A, B]), new Set())).toEqual([]);
    expect(duplicateGroups(instance, [same(A), same(B)], new Set([C]), new Set())).toEqual([]);
  });

  it("the request that removes an extra takes the token from the environment", () => {
    expect(removeCommand("http://127.0.0.1:1/", B, "3")).toBe(
      `curl -fsS -X POST -H "Authorization: Bearer $WEBHOOKS_TOKEN" 'http://127.0.0.1:1/configuration/WebHookSubscription/Unsubscribe?api-version=3&webHookSubscriptionGUID=${B}'`,
    );
  });
});
