import { describe, expect, it } from "vitest";
import type { Cycle } from "../../bench/cycle";
import { compare, roundOrder } from "../../bench/frontDoors";

const cycle = (up: number, peakRssMb: number, refreshCalls = 1): Cycle => ({
  seconds: { up, preview: up / 2, refresh: up / 4, destroy: up / 8 },
  previewCalls: 0,
  refreshCalls,
  peakRssMb,
});

describe("the order of the contenders", () => {
  it("rotates by round, so each goes first, second and last in turn", () => {
    const kinds = ["noop", "subscriptions", "native"];
    expect([1, 2, 3, 4].map((round) => roundOrder(kinds, round))).toEqual([
      ["noop", "subscriptions", "native"],
      ["subscriptions", "native", "noop"],
      ["native", "noop", "subscriptions"],
      ["noop", "subscriptions", "native"],
    ]);
  });
});

describe("one contender against another", () => {
  const ours = [cycle(10, 170), cycle(30, 180, 2), cycle(20, 175)];
  const base = [cycle(8, 190), cycle(12, 200), cycle(10, 195)];
  const result = compare(ours, base, 2000, "skip-checkpoints");

  it("compares the medians of each operation, in the shape of a results.json entry", () => {
    expect(result.up).toEqual({ value: 20, unit: "s", baseline: 10, ratio: 2, n: 2000 });
    expect(result.destroy).toEqual({ value: 2.5, unit: "s", baseline: 1.25, ratio: 2, n: 2000 });
    expect(result).toMatchObject({ n: 2000, mode: "skip-checkpoints", rounds: 3 });
  });

  it("compares the highest peak RSS of each side, and keeps the most API calls of ours", () => {
    expect(result.provider_peak_rss).toEqual({ value: 180, unit: "MB", baseline: 200, ratio: 0.9, n: 2000 });
    expect(result.refresh_api_calls).toBe(2);
    expect(result.preview_api_calls).toBe(0);
  });

  it("leaves out a ratio over a zero baseline", () => {
    const noRss = compare([cycle(1, 150)], [cycle(1, 0)], 50, "skip-checkpoints").provider_peak_rss;
    expect(noRss).toEqual({ value: 150, unit: "MB", baseline: 0, n: 50 });
  });
});
