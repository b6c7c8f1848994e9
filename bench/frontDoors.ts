/**
 * The front doors side by side (issue 23): N WebhookSubscriptions through the native plugin and
 * through the dynamic provider, both declared from the same TypeScript program, and the no-op
 * engine floor — in fast mode (skip-checkpoints), interleaved in one run, the order rotating by
 * round so that each contender goes first, second and last in turn. Each cycle is
 * bench/cycle.ts's: up, preview, three refreshes, destroy, the provider's peak RSS.
 */
import { join } from "node:path";
import type { Entry } from "./entry";
import { measureCycle, OPERATIONS, type Cycle, type CycleDeps, type Mode, type Operation } from "./cycle";
import type { Kind } from "./engineRuns";
import { median } from "./median";

/** One contender against another, medians over the rounds (peak RSS: the highest of all). */
export interface Comparison extends Record<Operation, Entry> {
  n: number;
  mode: Mode;
  rounds: number;
  provider_peak_rss: Entry;
  /** The most API calls any preview of ours made. */
  preview_api_calls: number;
  /** The most API calls any refresh of ours made. */
  refresh_api_calls: number;
  goal: string;
}

/** The three comparisons, as results.json names them. */
export interface FrontDoorResults {
  native_vs_dynamic: Comparison;
  native_vs_engine_floor: Comparison;
  dynamic_vs_engine_floor: Comparison;
}

export interface FrontDoorPlan {
  n: number;
  rounds: number;
}

/** Fast mode (docs/large-fleets.md): an engine setting, the same for every contender. */
const MODE: Mode = "skip-checkpoints";
const CONTENDERS: readonly Kind[] = ["noop", "subscriptions", "native"];
const GOAL = "diagnostic: front doors side by side (no goal set)";

/** The order of a round (1-based): `items` rotated left by round − 1. */
export function roundOrder<T>(items: readonly T[], round: number): T[] {
  const shift = (round - 1) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}

/** `ours` against `base` as a results.json entry, each side summarised (median, or the highest). */
export function entry(
  ours: number[],
  base: number[],
  unit: string,
  n: number,
  summary: (xs: number[]) => number,
): Entry {
  const value = summary(ours);
  const baseline = summary(base);
  return { value, unit, baseline, ...(baseline > 0 ? { ratio: value / baseline } : {}), n };
}

/** `ours` against `base`: the cycles of each side at the same N and mode. */
export function compare(ours: readonly Cycle[], base: readonly Cycle[], n: number, mode: Mode): Comparison {
  const seconds = (op: Operation) =>
    entry(
      ours.map((c) => c.seconds[op]),
      base.map((c) => c.seconds[op]),
      "s",
      n,
      median,
    );
  const peak = (xs: number[]) => Math.max(...xs);
  return {
    n,
    mode,
    rounds: Math.min(ours.length, base.length),
    ...(Object.fromEntries(OPERATIONS.map((op) => [op, seconds(op)])) as Record<Operation, Entry>),
    provider_peak_rss: entry(
      ours.map((c) => c.peakRssMb),
      base.map((c) => c.peakRssMb),
      "MB",
      n,
      peak,
    ),
    preview_api_calls: peak(ours.map((c) => c.previewCalls)),
    refresh_api_calls: peak(ours.map((c) => c.refreshCalls)),
    goal: GOAL,
  };
}

/** Measures the three contenders at `plan.n` in fast mode, `plan.rounds` cycles each. */
export async function measureFrontDoors(deps: CycleDeps, plan: FrontDoorPlan): Promise<FrontDoorResults> {
  const cycles: Record<Kind, Cycle[]> = { noop: [], subscriptions: [], native: [] };
  for (let round = 1; round <= plan.rounds; round++)
    for (const kind of roundOrder(CONTENDERS, round)) {
      const c = await measureCycle(deps, kind, plan.n, MODE, join(deps.ctx.dir, "rss"));
      cycles[kind].push(c);
      const s = c.seconds;
      deps.log(
        `front doors N=${plan.n} ${MODE} round ${round}/${plan.rounds} ${kind}: up ${s.up.toFixed(2)}s, preview ${s.preview.toFixed(2)}s, ` +
          `refresh ${s.refresh.toFixed(2)}s, destroy ${s.destroy.toFixed(2)}s, provider peak RSS ${c.peakRssMb.toFixed(0)} MB, ` +
          `API calls: preview ${c.previewCalls}, refresh ${c.refreshCalls}` +
          (c.rawUnsubscribeSeconds !== undefined
            ? ` (destroy includes ${c.rawUnsubscribeSeconds.toFixed(2)}s of raw Unsubscribes)`
            : ""),
      );
    }
  return {
    native_vs_dynamic: compare(cycles.native, cycles.subscriptions, plan.n, MODE),
    native_vs_engine_floor: compare(cycles.native, cycles.noop, plan.n, MODE),
    dynamic_vs_engine_floor: compare(cycles.subscriptions, cycles.noop, plan.n, MODE),
  };
}
