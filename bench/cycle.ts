/**
 * One measured cycle of a fresh stack: `up` (N creates), `preview` of the unchanged stack, three
 * `refresh`es (median) and `destroy`, with the API calls of the preview and the refreshes counted
 * at the emulator and the peak RSS of the provider process recorded by bench/rssProbe.cjs.
 * The cost curve (scale.ts) and the front-door comparison (frontDoors.ts) are made of these.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { destroyAll, freshStack, previewUnchanged, timed, upAll, type BenchContext, type Kind } from "./engineRuns";
import { median } from "./median";
import { rawUnsubscribeSeconds } from "./unsubscribeFloor";

export type Mode = "default" | "skip-checkpoints";
export const MODES: readonly Mode[] = ["default", "skip-checkpoints"];
export const OPERATIONS = ["up", "preview", "refresh", "destroy"] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Refreshes per cycle: a refresh is short, so one sample is at the mercy of the machine. */
const REFRESHES = 3;
const PROBE = join(__dirname, "rssProbe.cjs");

/** What one cycle measured. */
export interface Cycle {
  seconds: Record<Operation, number>;
  previewCalls: number;
  refreshCalls: number;
  /** The highest peak RSS of the provider processes of this cycle (dynamic-provider host or native plugin). */
  peakRssMb: number;
  /** The floor only: N raw Unsubscribe round trips (bench/unsubscribeFloor.ts), included in its `destroy`. */
  rawUnsubscribeSeconds?: number;
}

export interface CycleDeps {
  ctx: BenchContext;
  /** Requests the service has answered so far. */
  apiCalls(): Promise<number>;
  log(line: string): void;
}

/** Runs one cycle of N resources of `kind` in `mode`; the probe's records go to `rssDir` (emptied first). */
export async function measureCycle(deps: CycleDeps, kind: Kind, n: number, mode: Mode, rssDir: string): Promise<Cycle> {
  rmSync(rssDir, { recursive: true, force: true });
  mkdirSync(rssDir, { recursive: true });
  const env: Record<string, string> = {
    BENCH_RSS_DIR: rssDir,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --require ${JSON.stringify(PROBE)}`.trim(),
    ...(mode === "skip-checkpoints" ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
  };
  const stack = await freshStack(deps.ctx, kind, n, env);
  const up = await timed(() => upAll(stack, n));

  let calls = await deps.apiCalls();
  const preview = await timed(() => previewUnchanged(stack, n));
  const previewCalls = (await deps.apiCalls()) - calls;

  const refreshes: number[] = [];
  let refreshCalls = 0;
  for (let i = 0; i < REFRESHES; i++) {
    calls = await deps.apiCalls();
    refreshes.push(
      await timed(async () => {
        const result = await stack.refresh();
        if (result.summary.result !== "succeeded") throw new Error(`refresh ${result.summary.result}`);
      }),
    );
    refreshCalls = Math.max(refreshCalls, (await deps.apiCalls()) - calls);
  }

  const destroy = await timed(() => destroyAll(stack, n));
  await stack.workspace.removeStack(stack.name);
  // The floor deletes nothing on the service; a real destroy cannot avoid N Unsubscribes.
  const unsubscribes = kind === "noop" ? await rawUnsubscribeSeconds(deps.ctx.emulatorUrl, n) : undefined;
  return {
    seconds: { up, preview, refresh: median(refreshes), destroy: destroy + (unsubscribes ?? 0) },
    previewCalls,
    refreshCalls,
    peakRssMb: peakRssMb(rssDir),
    ...(unsubscribes !== undefined ? { rawUnsubscribeSeconds: unsubscribes } : {}),
  };
}

/** The highest maxRSS the probe recorded in `dir`, in MiB (0 when no provider process ran). */
function peakRssMb(dir: string): number {
  let peakKb = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json")))
    peakKb = Math.max(peakKb, (JSON.parse(readFileSync(join(dir, file), "utf8")) as { maxRssKb: number }).maxRssKb);
  return peakKb / 1024;
}
