/**
 * The cost curve: `up` (create), `preview` of the unchanged stack, `refresh` and `destroy` of N
 * WebhookSubscriptions against the no-op engine floor at the same N and mode, in both modes
 * (default, and skip-checkpoints = PULUMI_SKIP_CHECKPOINTS=true). Floor and ours alternate (the
 * one that goes first alternates by round); API calls are counted at the emulator, and the peak
 * RSS of each dynamic-provider process is recorded by bench/rssProbe.cjs.
 */
import { join } from "node:path";
import { measureCycle, type Cycle, type CycleDeps, type Mode, type Operation } from "./cycle";
import type { Kind } from "./engineRuns";
import { median } from "./median";

/** Seconds of ours against the floor's, medians over the rounds. */
export interface Timing {
  value: number;
  baseline: number;
  ratio: number;
}

/** One point of the curve (bench/results.json `scale`). */
export interface ScaleEntry extends Record<Operation, Timing> {
  n: number;
  mode: Mode;
  rounds: number;
  /** The most API calls any preview of the unchanged stack made. */
  preview_api_calls: number;
  /** The most API calls any refresh made. */
  refresh_api_calls: number;
  /** The highest peak RSS of our dynamic-provider process over all operations and rounds. */
  provider_peak_rss_mb: number;
  /** The same for the floor's (no-op) provider process: what the host itself holds. */
  floor_provider_peak_rss_mb: number;
  /** What this point is held to (issue 17 sets goals from N = 2,000; smaller N show the curve). */
  goal: string;
}

/** The goals of a large fleet, in either mode. */
const LARGE_FLEET_GOAL =
  "up <= 1.05, refresh <= 1.05, destroy <= 1.10 x the floor of the same mode; 0 preview calls; <= 3 refresh calls; provider peak RSS <= 200 MB";
const LARGE_FLEET_N = 2000;

export interface ScalePlan {
  sizes: number[];
  modes: readonly Mode[];
  /** Rounds of one (N, mode). */
  rounds(n: number, mode: Mode): number;
}

/** What the curve needs: the cycle's. */
export type ScaleDeps = CycleDeps;

function timing(ours: number[], floor: number[]): Timing {
  return { value: median(ours), baseline: median(floor), ratio: median(ours) / median(floor) };
}

/** Measures every (N, mode) of the plan, rounds outermost so that each point's rounds spread over the run. */
export async function measureScale(deps: ScaleDeps, plan: ScalePlan): Promise<ScaleEntry[]> {
  const points = plan.sizes.flatMap((n) => plan.modes.map((mode) => ({ n, mode, rounds: plan.rounds(n, mode) })));
  const cycles = new Map(points.map((p) => [p, { subscriptions: [] as Cycle[], noop: [] as Cycle[] }]));
  const maxRounds = Math.max(...points.map((p) => p.rounds));
  for (let round = 1; round <= maxRounds; round++)
    for (const point of points) {
      if (round > point.rounds) continue;
      const order: Exclude<Kind, "native">[] = round % 2 === 1 ? ["noop", "subscriptions"] : ["subscriptions", "noop"];
      for (const kind of order) {
        const c = await measureCycle(deps, kind, point.n, point.mode, join(deps.ctx.dir, "rss"));
        cycles.get(point)![kind].push(c);
        const s = c.seconds;
        deps.log(
          `scale N=${point.n} ${point.mode} round ${round}/${point.rounds} ${kind}: up ${s.up.toFixed(2)}s, preview ${s.preview.toFixed(2)}s, ` +
            `refresh ${s.refresh.toFixed(2)}s, destroy ${s.destroy.toFixed(2)}s, provider peak RSS ${c.peakRssMb.toFixed(0)} MB`,
        );
      }
    }
  return points.map((point) => {
    const { subscriptions: ours, noop: floor } = cycles.get(point)!;
    const per = (op: Operation) =>
      timing(
        ours.map((c) => c.seconds[op]),
        floor.map((c) => c.seconds[op]),
      );
    return {
      n: point.n,
      mode: point.mode,
      rounds: point.rounds,
      up: per("up"),
      preview: per("preview"),
      refresh: per("refresh"),
      destroy: per("destroy"),
      preview_api_calls: Math.max(...ours.map((c) => c.previewCalls)),
      refresh_api_calls: Math.max(...ours.map((c) => c.refreshCalls)),
      provider_peak_rss_mb: Math.max(...ours.map((c) => c.peakRssMb)),
      floor_provider_peak_rss_mb: Math.max(...floor.map((c) => c.peakRssMb)),
      goal: point.n >= LARGE_FLEET_N ? LARGE_FLEET_GOAL : "diagnostic: the curve below the large-fleet goals",
    };
  });
}
