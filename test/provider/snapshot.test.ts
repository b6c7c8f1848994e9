/** ListSnapshots: reads share one GetAll, failures are not shared, own writes keep it coherent. */
import { describe, expect, it } from "vitest";
import { ListSnapshots } from "../../provider/core/snapshot";
import type { Subscription } from "../../provider/wire";

function sub(guid: string, url = "https://h.example.com/x"): Subscription {
  return {
    guid,
    webhook: 3,
    filterObjectType: 7,
    filterObjectGuid: null,
    subscriberUrl: url,
    signature: "s",
    customHeader: "",
    customHeaderValue: null,
  };
}

function source(results: Array<Subscription[] | Error>) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    async listWithProblems() {
      const next = results[Math.min(calls++, results.length - 1)]!;
      if (next instanceof Error) throw next;
      return { subscriptions: next, problems: [] };
    },
  };
}

describe("ListSnapshots", () => {
  it("shares one GetAll between concurrent reads and within the reuse window", async () => {
    let now = 0;
    const src = source([[sub("a")], [sub("a"), sub("b")]]);
    const snapshots = new ListSnapshots(src, 1_000, () => now);
    const [x, y] = await Promise.all([snapshots.get(), snapshots.get()]);
    expect(x).toBe(y);
    now = 900;
    expect((await snapshots.get()).has("b")).toBe(false);
    expect(src.calls).toBe(1);
    now = 2_000;
    expect((await snapshots.get()).has("b")).toBe(true);
    expect(src.calls).toBe(2);
  });

  it("does not share a failed GetAll: the next read tries again", async () => {
    const src = source([new Error("boom"), [sub("a")]]);
    const snapshots = new ListSnapshots(src);
    await expect(snapshots.get()).rejects.toThrow("boom");
    expect((await snapshots.get()).has("a")).toBe(true);
    expect(src.calls).toBe(2);
  });

  it("records this process's creates and updates and forgets its deletes", async () => {
    const snapshots = new ListSnapshots(source([[sub("a")]]));
    await snapshots.get();
    snapshots.record(sub("b"));
    snapshots.record(sub("a", "https://h.example.com/moved"));
    snapshots.forget("a");
    const all = await snapshots.get();
    expect([...all.keys()]).toEqual(["b"]);
  });
});

describe("ListSnapshots problems", () => {
  it("keeps the unreadable entries of the same GetAll by GUID, and forgets them on own writes", async () => {
    const problem = { index: 0, guid: "bad", field: "Webhook", value: "X", message: "m" };
    const snapshots = new ListSnapshots({
      listWithProblems: async () => ({ subscriptions: [sub("a")], problems: [problem, { ...problem, guid: null }] }),
    });
    expect(await snapshots.problem("bad")).toBe(problem);
    expect(await snapshots.problem("a")).toBeUndefined();
    snapshots.record(sub("bad"));
    expect(await snapshots.problem("bad")).toBeUndefined();
    expect((await snapshots.get()).has("bad")).toBe(true);
  });
});
