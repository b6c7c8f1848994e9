/**
 * The cost curve as a picture: seconds against N, ours and the engine floor, one panel per
 * operation and mode. A Vega-Lite spec, compiled to Vega and rendered to SVG by Vega's headless
 * View (no browser, no canvas).
 */
import { writeFileSync } from "node:fs";
import type { TopLevelSpec } from "vega-lite/build/index";
import { OPERATIONS, type Mode, type Operation } from "./cycle";
import type { ScaleEntry } from "./scale";

const VEGA_LITE: string = "vega-lite";

/** One plotted point. */
export interface ChartRow {
  n: number;
  mode: Mode;
  operation: Operation;
  who: "ours" | "floor";
  seconds: number;
}

/** The points of the chart: for every entry and operation, ours and the floor. */
export function chartRows(scale: readonly ScaleEntry[]): ChartRow[] {
  return scale.flatMap((entry) =>
    OPERATIONS.flatMap((operation) => [
      { n: entry.n, mode: entry.mode, operation, who: "ours" as const, seconds: entry[operation].value },
      { n: entry.n, mode: entry.mode, operation, who: "floor" as const, seconds: entry[operation].baseline },
    ]),
  );
}

/** The Vega-Lite spec: panels by operation (columns) and mode (rows), each with its own y scale. */
export function chartSpec(scale: readonly ScaleEntry[]): TopLevelSpec {
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: "Seconds against N: WebhookSubscription (ours) and the no-op engine floor",
    data: { values: chartRows(scale) },
    facet: {
      row: { field: "mode", type: "nominal", title: "mode" },
      column: { field: "operation", type: "nominal", title: null, sort: [...OPERATIONS] },
    },
    spec: {
      width: 180,
      height: 140,
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "n", type: "quantitative", title: "N (subscriptions)" },
        y: { field: "seconds", type: "quantitative", title: "seconds" },
        color: { field: "who", type: "nominal", title: null, scale: { domain: ["ours", "floor"] } },
        strokeDash: { field: "who", type: "nominal", title: null, scale: { domain: ["ours", "floor"] } },
      },
    },
    resolve: { scale: { y: "independent" } },
    config: { background: "white" },
  };
}

/** Renders the chart of `scale` to an SVG file. */
export async function writeScaleChart(scale: readonly ScaleEntry[], file: string): Promise<void> {
  // Both are ES modules with top-level await: they cannot be required, only imported (tsx keeps
  // import()). vega-lite's types resolve only by path under this repository's CommonJS resolution.
  const [vega, vegaLite] = await Promise.all([
    import("vega"),
    import(VEGA_LITE) as Promise<typeof import("vega-lite/build/index")>,
  ]);
  const view = new vega.View(vega.parse(vegaLite.compile(chartSpec(scale)).spec), { renderer: "none" });
  writeFileSync(file, await view.toSVG());
  view.finalize();
}
