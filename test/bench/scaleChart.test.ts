import { describe, expect, it } from "vitest";
import type { ScaleEntry } from "../../bench/scale";
import { chartRows, chartSpec } from "../../bench/scaleChart";

const timing = (value: number, baseline: number) => ({ value, baseline, ratio: value / baseline });

const entry: ScaleEntry = {
  n: 500,
  mode: "skip-checkpoints",
  rounds: 3,
  up: timing(4.2, 4),
  preview: timing(2.5, 2.4),
  refresh: timing(2.1, 2),
  destroy: timing(1.6, 1.5),
  preview_api_calls: 0,
  refresh_api_calls: 1,
  provider_peak_rss_mb: 120,
  floor_provider_peak_rss_mb: 110,
  goal: "diagnostic: the curve below the large-fleet goals",
};

describe("the cost-curve chart", () => {
  it("plots ours and the floor for every operation of every entry", () => {
    expect(chartRows([entry])).toEqual([
      { n: 500, mode: "skip-checkpoints", operation: "up", who: "ours", seconds: 4.2 },
      { n: 500, mode: "skip-checkpoints", operation: "up", who: "floor", seconds: 4 },
      { n: 500, mode: "skip-checkpoints", operation: "preview", who: "ours", seconds: 2.5 },
      { n: 500, mode: "skip-checkpoints", operation: "preview", who: "floor", seconds: 2.4 },
      { n: 500, mode: "skip-checkpoints", operation: "refresh", who: "ours", seconds: 2.1 },
      { n: 500, mode: "skip-checkpoints", operation: "refresh", who: "floor", seconds: 2 },
      { n: 500, mode: "skip-checkpoints", operation: "destroy", who: "ours", seconds: 1.6 },
      { n: 500, mode: "skip-checkpoints", operation: "destroy", who: "floor", seconds: 1.5 },
    ]);
  });

  it("puts one point per entry on each line of a panel", () => {
    const rows = chartRows([entry, { ...entry, n: 2000, mode: "default", up: timing(270, 265) }]);
    const upOurs = rows.filter((r) => r.operation === "up" && r.who === "ours");
    expect(upOurs.map((r) => [r.n, r.mode, r.seconds])).toEqual([
      [500, "skip-checkpoints", 4.2],
      [2000, "default", 270],
    ]);
  });

  it("feeds the rows to the spec, faceted by mode and operation", () => {
    const spec = chartSpec([entry]) as unknown as {
      data: { values: unknown[] };
      facet: Record<string, { field: string }>;
    };
    expect(spec.data.values).toEqual(chartRows([entry]));
    expect(spec.facet.row!.field).toBe("mode");
    expect(spec.facet.column!.field).toBe("operation");
  });
});
