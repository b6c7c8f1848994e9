/**
 * `npm run bench`: what the provider costs beyond the engine and the API, as ratios measured
 * side by side in one run (these machines are noisy; a time from another run means nothing).
 * Compared runs are interleaved (A B A B …) and medians reported. Writes bench/results.json,
 * merging: `npm run bench -- --only native` (bench/parts.ts) replaces only that part's entries.
 *
 * Settings (env): BENCH_N (200), BENCH_RATE (20 req/s), BENCH_ROUNDS (5). The cost curve (bench/scale.ts):
 * BENCH_SCALE_N (100,500,2000), BENCH_SCALE_MODES (default,skip-checkpoints), and its rounds:
 * BENCH_SCALE_ROUNDS (3, skip-checkpoints mode), BENCH_SCALE_DEFAULT_ROUNDS (2, default mode below N = 1000),
 * BENCH_SCALE_SLOW_ROUNDS (1, default mode at N >= 1000, where one up takes minutes). The front
 * doors (bench/frontDoors.ts): BENCH_NATIVE_N (2000), BENCH_NATIVE_ROUNDS (3). The plugin part:
 * BENCH_PLUGIN_ROUNDS (7, bench/pluginStart.ts), BENCH_CALL_REPEATS (20, bench/pluginCalls.ts),
 * BENCH_YAML_ROUNDS (5: at least, bench/yamlPreview.ts). The front door: BENCH_START_ROUNDS (3, bench/npmStart.ts).
 * The code cache: BENCH_CACHE_ROUNDS (5, bench/codeCacheStart.ts). The drift review:
 * BENCH_DRIFT_N (20), BENCH_DRIFT_ROUNDS (3, bench/driftReview.ts). The review of many sources
 * (bench/driftSources.ts): BENCH_DRIFT_SOURCES_DIRS (5,10,20: Terraform directories per review),
 * BENCH_DRIFT_SOURCES_PER_DIR (25), BENCH_DRIFT_SOURCES_STACKS (2), BENCH_DRIFT_SOURCES_PER_STACK (5),
 * BENCH_DRIFT_SOURCES_ROUNDS (5: at least) to BENCH_DRIFT_SOURCES_MAX_ROUNDS (10), until a round moves
 * the ratios of the medians by less than BENCH_DRIFT_SOURCES_TOLERANCE (BENCH_TOLERANCE). The Terraform door (bench/terraform.ts):
 * BENCH_TF_ROUNDS (7) to BENCH_TF_MAX_ROUNDS (15), BENCH_TF_N (500), BENCH_TF_SCALE_ROUNDS (3) to
 * BENCH_TF_SCALE_MAX_ROUNDS (8). The YAML preview's rounds go from BENCH_YAML_ROUNDS to BENCH_YAML_MAX_ROUNDS (15).
 * Those rounds are added until the last one moves no ratio of the medians by BENCH_TOLERANCE (0.02) or more
 * (bench/rounds.ts). The rate-limited ups in process (bench/rateLimitedUps.ts): BENCH_UPS (50). Adopt against
 * the engine's bulk import (bench/adoptImport.ts): BENCH_ADOPT_N (500), BENCH_ADOPT_ROUNDS (3: at least) to
 * BENCH_ADOPT_MAX_ROUNDS (6). The fleet review in parts (bench/driftFleet.ts): BENCH_FLEET_DIRS (20),
 * BENCH_FLEET_STACKS (4), BENCH_FLEET_PARTS (4), BENCH_FLEET_ROUNDS (5: at least) to BENCH_FLEET_MAX_ROUNDS (10),
 * each directory and stack of BENCH_DRIFT_SOURCES_PER_DIR and BENCH_DRIFT_SOURCES_PER_STACK.
 * How long a whole run takes, and the figures: docs/benchmarks.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, cpus, platform, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { UsageError } from "../cli/command";
import { startEmulator } from "../emulator";
import { provisionEngine } from "../engine/provision";
import { measureAdoptImport, type AdoptComparison } from "./adoptImport";
import { measureClientOverhead } from "./clientOverhead";
import { measureCodeCacheStart } from "./codeCacheStart";
import { measureDriftReview } from "./driftReview";
import { measureDriftFleet, type FleetComparison } from "./driftFleet";
import { measureDriftSources, type DriftSourcesResults } from "./driftSources";
import { MODES, type Mode } from "./cycle";
import { measureEmulatorThroughput } from "./emulatorThroughput";
import { ApiWindow } from "./apiWindow";
import { freshStack, stateBytes, timed, upAll, type BenchContext, type Kind } from "./engineRuns";
import { admin } from "./emulatorAdmin";
import type { Entry } from "./entry";
import { measureFrontDoors, type Comparison, type FrontDoorResults } from "./frontDoors";
import { median } from "./median";
import { BENCH_USAGE, PARTS, selectedParts } from "./parts";
import { measureNpmStart } from "./npmStart";
import { measurePluginCalls, type CallCost } from "./pluginCalls";
import { measurePluginStart } from "./pluginStart";
import { measureYamlPreview, type PreviewComparison } from "./yamlPreview";
import { measureScale, type ScaleEntry } from "./scale";
import { writeScaleChart } from "./scaleChart";
import { measureTerraform, type TfComparison } from "./terraform";
import { measureRateLimitedUps } from "./rateLimitedUps";
import type { RoundsOptions, Spread } from "./rounds";

const ROOT = resolve(__dirname, "..");
const N = Number(process.env.BENCH_N ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REFRESHES_PER_ROUND = 3;
const SCALE_N = (process.env.BENCH_SCALE_N ?? "100,500,2000").split(",").map(Number);
const SCALE_MODES = (process.env.BENCH_SCALE_MODES ?? MODES.join(",")).split(",") as Mode[];
const SCALE_ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const SCALE_DEFAULT_ROUNDS = Number(process.env.BENCH_SCALE_DEFAULT_ROUNDS ?? 2);
const SCALE_SLOW_ROUNDS = Number(process.env.BENCH_SCALE_SLOW_ROUNDS ?? 1);
const NATIVE_N = Number(process.env.BENCH_NATIVE_N ?? 2000);
const NATIVE_ROUNDS = Number(process.env.BENCH_NATIVE_ROUNDS ?? 3);
const PLUGIN_ROUNDS = Number(process.env.BENCH_PLUGIN_ROUNDS ?? 7);
/** How little the last round may move a ratio of the medians for the rounds to stop (bench/rounds.ts). */
const TOLERANCE = Number(process.env.BENCH_TOLERANCE ?? 0.02);
const YAML_ROUNDS: RoundsOptions = {
  minRounds: Number(process.env.BENCH_YAML_ROUNDS ?? 5),
  maxRounds: Number(process.env.BENCH_YAML_MAX_ROUNDS ?? 15),
  tolerance: TOLERANCE,
};
const CALL_REPEATS = Number(process.env.BENCH_CALL_REPEATS ?? 20);
const START_ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 3);
const CACHE_ROUNDS = Number(process.env.BENCH_CACHE_ROUNDS ?? 5);
const DRIFT_N = Number(process.env.BENCH_DRIFT_N ?? 20);
const DRIFT_ROUNDS = Number(process.env.BENCH_DRIFT_ROUNDS ?? 3);
const DRIFT_SOURCES = {
  sizes: (process.env.BENCH_DRIFT_SOURCES_DIRS ?? "5,10,20").split(",").map(Number),
  perDirectory: Number(process.env.BENCH_DRIFT_SOURCES_PER_DIR ?? 25),
  stacks: Number(process.env.BENCH_DRIFT_SOURCES_STACKS ?? 2),
  perStack: Number(process.env.BENCH_DRIFT_SOURCES_PER_STACK ?? 5),
  minRounds: Number(process.env.BENCH_DRIFT_SOURCES_ROUNDS ?? 5),
  maxRounds: Number(process.env.BENCH_DRIFT_SOURCES_MAX_ROUNDS ?? 10),
  tolerance: Number(process.env.BENCH_DRIFT_SOURCES_TOLERANCE ?? TOLERANCE),
};
const TF_ROUNDS: RoundsOptions = {
  minRounds: Number(process.env.BENCH_TF_ROUNDS ?? 7),
  maxRounds: Number(process.env.BENCH_TF_MAX_ROUNDS ?? 15),
  tolerance: TOLERANCE,
};
const TF_N = Number(process.env.BENCH_TF_N ?? 500);
const TF_SCALE_ROUNDS: RoundsOptions = {
  minRounds: Number(process.env.BENCH_TF_SCALE_ROUNDS ?? 3),
  maxRounds: Number(process.env.BENCH_TF_SCALE_MAX_ROUNDS ?? 8),
  tolerance: TOLERANCE,
};
const UPS = Number(process.env.BENCH_UPS ?? 50);
const ADOPT = {
  n: Number(process.env.BENCH_ADOPT_N ?? 500),
  minRounds: Number(process.env.BENCH_ADOPT_ROUNDS ?? 3),
  maxRounds: Number(process.env.BENCH_ADOPT_MAX_ROUNDS ?? 6),
  tolerance: TOLERANCE,
};
const FLEET = {
  directories: Number(process.env.BENCH_FLEET_DIRS ?? 20),
  stacks: Number(process.env.BENCH_FLEET_STACKS ?? 4),
  parts: Number(process.env.BENCH_FLEET_PARTS ?? 4),
  perDirectory: DRIFT_SOURCES.perDirectory,
  perStack: DRIFT_SOURCES.perStack,
  minRounds: Number(process.env.BENCH_FLEET_ROUNDS ?? 5),
  maxRounds: Number(process.env.BENCH_FLEET_MAX_ROUNDS ?? 10),
  tolerance: TOLERANCE,
};
const RESULTS = join(__dirname, "results.json");
/** Rounds of one point of the curve: fewer where checkpoints make each `up` cost N² (minutes at N = 2000). */
const scaleRounds = (n: number, mode: Mode) =>
  mode === "skip-checkpoints" ? SCALE_ROUNDS : n >= 1000 ? SCALE_SLOW_ROUNDS : SCALE_DEFAULT_ROUNDS;

function log(line: string): void {
  console.error(`[bench] ${line}`);
}

function totalRequests(stats: { requests: Record<string, number> }): number {
  return Object.values(stats.requests).reduce((a, b) => a + b, 0);
}

/** The fixed-size entries: up and refresh of BENCH_N against the floor, the rate-limited up, the state. */
async function measureFixed(ctx: BenchContext, emulatorUrl: string): Promise<Record<string, Entry>> {
  const samples = {
    up: { subscriptions: [] as number[], noop: [] as number[] },
    refresh: { subscriptions: [] as number[], noop: [] as number[] },
  };
  const refreshCalls: number[] = [];
  const rateLimited: number[] = [];
  const apiWindows: number[] = [];
  const engineFixed: number[] = [];
  let state = { provider: 0, perResource: 0 };

  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ["subscriptions", "noop"] as Exclude<Kind, "native">[]) {
      const stack = await freshStack(ctx, kind);
      const up = await timed(() => upAll(stack, N));
      samples.up[kind].push(up);
      // A refresh is short (about 2 s), so a single sample is at the mercy of the machine: take several.
      const refreshes: number[] = [];
      for (let i = 0; i < REFRESHES_PER_ROUND; i++) {
        const before = totalRequests(await admin(emulatorUrl, "GET", "/stats"));
        refreshes.push(await timed(() => stack.refresh()));
        if (kind === "subscriptions")
          refreshCalls.push(totalRequests(await admin(emulatorUrl, "GET", "/stats")) - before);
      }
      samples.refresh[kind].push(...refreshes);
      const refresh = median(refreshes);
      if (kind === "subscriptions") state = stateBytes(ctx, stack);
      await stack.destroy();
      await stack.workspace.removeStack(stack.name);
      log(
        `round ${round}/${ROUNDS} ${kind}: up ${up.toFixed(2)}s, refresh ${refresh.toFixed(2)}s (median of ${REFRESHES_PER_ROUND})`,
      );
    }

    // What any `up` costs the engine whatever it creates: start (CLI, plugins, program) and finish.
    const single = await freshStack(ctx, "noop", 1);
    engineFixed.push(await timed(() => upAll(single, 1)));
    await single.workspace.removeStack(single.name, { force: true });

    // Against a rate-limited service: how close to the N/R floor the limiter gets, and how much
    // of the rest is the engine's fixed start and finish (the API window is the limiter's part).
    await admin(emulatorUrl, "PUT", "/rate-limit", { requestsPerSecond: RATE, burst: RATE });
    const stack = await freshStack(ctx, "subscriptions");
    const window = new ApiWindow();
    const limited = await timed(() => upAll(stack, N));
    window.close();
    await admin(emulatorUrl, "PUT", "/rate-limit", null);
    rateLimited.push(limited);
    apiWindows.push(window.seconds());
    const stats = await admin(emulatorUrl, "GET", "/stats");
    log(
      `round ${round}/${ROUNDS} rate-limited up at ${RATE} req/s: ${limited.toFixed(2)}s, API window ${window.seconds().toFixed(2)}s, engine fixed ${engineFixed.at(-1)!.toFixed(2)}s (429s so far: ${stats.status["429"] ?? 0})`,
    );
    await stack.destroy();
    await stack.workspace.removeStack(stack.name);
  }

  const ratio = (a: number[], b: number[]) => median(a) / median(b);
  return {
    up_vs_engine_floor: {
      value: median(samples.up.subscriptions),
      unit: "s",
      baseline: median(samples.up.noop),
      ratio: ratio(samples.up.subscriptions, samples.up.noop),
      n: N,
      goal: "ratio <= 1.10",
    },
    refresh_api_calls: {
      value: Math.max(...refreshCalls),
      unit: "calls",
      n: N,
      goal: "<= 3 (the most any refresh made)",
    },
    refresh_vs_engine_floor: {
      value: median(samples.refresh.subscriptions),
      unit: "s",
      baseline: median(samples.refresh.noop),
      ratio: ratio(samples.refresh.subscriptions, samples.refresh.noop),
      n: N,
      goal: "ratio <= 1.10",
    },
    rate_limited_up_vs_floor: {
      value: median(rateLimited),
      unit: "s",
      baseline: N / RATE,
      ratio: median(rateLimited) / (N / RATE),
      n: N,
      goal: "ratio <= 1.15, 0 failed operations",
    },
    // Diagnostics behind rate_limited_up_vs_floor: the limiter's part, and the engine's part.
    rate_limited_api_window_vs_floor: {
      value: median(apiWindows),
      unit: "s",
      baseline: N / RATE,
      ratio: median(apiWindows) / (N / RATE),
      n: N,
      goal: "diagnostic: first to last API call",
    },
    rate_limited_net_vs_floor: {
      value: median(rateLimited) - median(engineFixed),
      unit: "s",
      baseline: N / RATE,
      ratio: (median(rateLimited) - median(engineFixed)) / (N / RATE),
      n: N,
      goal: "ratio <= 1.05, 0 failed operations (the rate-limited up minus engine_fixed_up)",
    },
    engine_fixed_up: { value: median(engineFixed), unit: "s", n: 1, goal: "diagnostic: up of one no-op resource" },
    provider_state_bytes_per_resource: {
      value: state.provider,
      unit: "bytes",
      baseline: Math.round(state.perResource),
      n: N,
      goal: "<= 1536 (baseline: whole state per resource)",
    },
  };
}

async function main(): Promise<void> {
  const parts = selectedParts(process.argv.slice(2));
  if (parts === "help") {
    console.log(BENCH_USAGE);
    return;
  }
  const results: Record<string, unknown> = {};
  let scale: ScaleEntry[] | undefined;
  let frontDoors: FrontDoorResults | undefined;

  const engineParts = [
    "fixed",
    "scale",
    "native",
    "plugin",
    "start",
    "drift",
    "drift-sources",
    "terraform",
    "adopt",
    "drift-fleet",
  ] as const;
  if (engineParts.some((part) => parts.has(part))) {
    const engine = await provisionEngine({ log: (line) => log(`engine: ${line}`) });
    const dir = join(ROOT, ".work", "bench");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const emulator = await startEmulator({ port: 0 });
    const ctx: BenchContext = { engine, dir, emulatorUrl: emulator.url, n: N };
    const deps = { ctx, apiCalls: async () => totalRequests(await admin(emulator.url, "GET", "/stats")), log };
    try {
      if (parts.has("fixed")) Object.assign(results, await measureFixed(ctx, emulator.url));
      if (parts.has("scale"))
        results.scale = scale = await measureScale(deps, { sizes: SCALE_N, modes: SCALE_MODES, rounds: scaleRounds });
      if (parts.has("native"))
        Object.assign(results, (frontDoors = await measureFrontDoors(deps, { n: NATIVE_N, rounds: NATIVE_ROUNDS })));
      if (parts.has("plugin")) {
        log("plugin start-up…");
        results.plugin_start = await measurePluginStart(PLUGIN_ROUNDS, log);
        log("the plugin's calls, one by one…");
        results.plugin_calls = await measurePluginCalls(CALL_REPEATS, log);
        log("YAML preview per packaging against the engine floor…");
        results.yaml_preview_vs_engine_floor = await measureYamlPreview(ctx, YAML_ROUNDS, log);
      }
      if (parts.has("start")) {
        log("the second npm start against pulumi up by hand…");
        results.npm_start_vs_pulumi_up = await measureNpmStart(ctx, START_ROUNDS, log);
      }
      if (parts.has("drift")) {
        log("the drift review with and without the comparison with the program…");
        results.drift_review_program_comparison = await measureDriftReview(ctx, DRIFT_N, DRIFT_ROUNDS, log);
      }
      if (parts.has("drift-sources")) {
        log("one review of many Terraform directories and stacks against the tools' own runs…");
        Object.assign(results, await measureDriftSources(ctx, DRIFT_SOURCES, log));
      }
      if (parts.has("terraform")) {
        log("the Terraform door: tofu with our provider against the Go anchor…");
        Object.assign(
          results,
          await measureTerraform(ctx, { rounds: TF_ROUNDS, n: TF_N, scaleRounds: TF_SCALE_ROUNDS }, log),
        );
      }
      if (parts.has("adopt")) {
        log(`adopt and the importing pulumi up of ${ADOPT.n} against pulumi import --file of the same…`);
        results.adopt_500_vs_floor = await measureAdoptImport(ctx, ADOPT, log);
      }
      if (parts.has("drift-fleet")) {
        log(
          `${FLEET.directories + FLEET.stacks} sources reviewed in ${FLEET.parts} parts and merged, against one review…`,
        );
        results.drift_fleet_vs_single = await measureDriftFleet(ctx, FLEET, log);
      }
    } finally {
      await emulator.close();
    }
  }

  if (parts.has("emulator")) {
    log("emulator throughput…");
    const throughput = await measureEmulatorThroughput({ durationMs: 5_000 });
    results.emulator_requests_per_second = {
      value: Math.round(throughput.requestsPerSecond),
      unit: "req/s",
      n: throughput.requests,
      goal: ">= 5000",
    } satisfies Entry;
  }
  if (parts.has("ups")) {
    log(`${UPS} rate-limited ups in process…`);
    results.rate_limited_ups = await measureRateLimitedUps(UPS, log);
  }
  if (parts.has("cache")) {
    log("the executable's start with and without V8's code cache, per runnable platform…");
    results.plugin_start_code_cache = await measureCodeCacheStart(CACHE_ROUNDS, log);
  }
  if (parts.has("client")) {
    log("client overhead…");
    const overhead = await measureClientOverhead();
    results.client_overhead_vs_raw_undici = {
      value: overhead.clientMsPerCall,
      unit: "ms/call",
      baseline: overhead.rawMsPerCall,
      ratio: overhead.ratio,
      n: overhead.n,
      goal: "ratio <= 1.10",
    } satisfies Entry;
  }
  const machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${platform()} ${arch()}`,
    node: process.version,
    rounds: ROUNDS,
  };
  // The machine of the last full run stays unless this run measured every part.
  if (parts.size === PARTS.length) results.machine = machine;
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as Record<string, unknown>) : {};
  writeFileSync(RESULTS, `${JSON.stringify({ ...previous, ...results }, null, 2)}\n`);
  if (scale) await writeScaleChart(scale, join(__dirname, "scale.svg"));
  printTable(results, scale, frontDoors, machine);
  if (results.plugin_start) printPluginStart(results.plugin_start as Record<string, Entry & { cpu_ms: number }>);
  if (results.plugin_calls) printPluginCalls(results.plugin_calls as Record<string, CallCost>);
  if (results.drift_review_program_comparison) {
    const { cpu } = results.drift_review_program_comparison as PreviewComparison;
    console.log(
      `drift_review_program_comparison cpu: ${fmt(cpu.value)} s (state-only ${fmt(cpu.baseline)} s), ratio ${fmt(cpu.ratio)}`,
    );
  }
  if (results.drift_sources_vs_floor) printDriftSources(results as unknown as DriftSourcesResults);
  if (results.adopt_500_vs_floor) printAdopt(results.adopt_500_vs_floor as AdoptComparison);
  if (results.drift_fleet_vs_single) printFleet(results.drift_fleet_vs_single as FleetComparison);
  if (results.yaml_preview_vs_engine_floor)
    printComparisons(
      "yaml_preview_vs_engine_floor",
      results.yaml_preview_vs_engine_floor as Record<string, PreviewComparison>,
    );
  if (results.tofu_plan_one_vs_go_anchor)
    printComparisons("terraform", {
      plan_one: results.tofu_plan_one_vs_go_anchor as TfComparison,
      handshake: results.tofu_handshake_vs_go_anchor as TfComparison,
      ...Object.fromEntries(
        Object.entries(results.tofu_500_vs_floor as Record<string, TfComparison>).map(([k, v]) => [`${k}_${v.n}`, v]),
      ),
    });
}

/** Comparisons side by side: wall and CPU of ours and the floor's, medians, with the rounds' own ratios' spread. */
function printComparisons(title: string, comparisons: Record<string, TfComparison | PreviewComparison>): void {
  console.log(
    `\n| ${title} | rounds | wall (floor) | ratio [per-round min–max] | cpu (floor) | cpu ratio [per-round min–max] | goal |\n|---|---|---|---|---|---|---|`,
  );
  for (const [name, e] of Object.entries(comparisons))
    console.log(
      `| ${name} | ${e.rounds} | ${fmt(e.value)} ${e.unit} (${fmt(e.baseline)}) | ${fmt(e.ratio)} [${range(e.spread.ratio)}] | ${fmt(e.cpu.value)} (${fmt(e.cpu.baseline)}) | ${fmt(e.cpu.ratio)} [${range(e.cpu.spread.ratio)}] | ${e.goal} |`,
    );
}

/** A spread as `min–max`; none (no round had a floor above 0) as `–`. */
const range = (spread: Spread | undefined) => (spread ? `${fmt(spread[0])}–${fmt(spread[1])}` : "–");

/** The review of many sources against its floor (with spreads), and its wall time per number of sources. */
function printDriftSources({ drift_sources_vs_floor: c, drift_sources_scaling: s }: DriftSourcesResults): void {
  console.log(
    `\n| drift_sources_vs_floor (${c.directories} directories + ${c.n - c.directories} stacks, ${c.rounds} rounds) | review s [min–max] | floor s [min–max] | ratio [per-round min–max] |\n|---|---|---|---|`,
  );
  for (const [label, e] of [
    ["wall", c],
    ["cpu", c.cpu],
  ] as const)
    console.log(
      `| ${label} | ${fmt(e.value)} [${range(e.spread.value)}] | ${fmt(e.baseline)} [${range(e.spread.baseline)}] | ${fmt(e.ratio)} [${range(e.spread.ratio)}] |`,
    );
  console.log(
    `API calls of one run — review: ${JSON.stringify(c.api_calls.review)}; floor: ${JSON.stringify(c.api_calls.floor)}`,
  );
  console.log(
    "\n| directories | sources | review wall s [min–max] | wall per source | review cpu s | floor wall s | floor cpu s |\n|---|---|---|---|---|---|---|",
  );
  for (const p of s.points)
    console.log(
      `| ${p.directories} | ${p.sources} | ${fmt(p.wall)} [${range(p.wall_spread)}] | ${fmt(p.wall_per_source)} | ${fmt(p.cpu)} | ${fmt(p.floor_wall)} | ${fmt(p.floor_cpu)} |`,
    );
  console.log(
    `wall growth ${fmt(s.value)}× for ${fmt(s.baseline)}× the sources (ratio ${fmt(s.ratio)}); each directory adds ${fmt(s.marginal_wall_per_directory.review)} s (floor ${fmt(s.marginal_wall_per_directory.floor)} s)`,
  );
}

/** adopt against the engine's bulk import, its two steps, its phases and the secret config's floor. */
function printAdopt(c: AdoptComparison): void {
  printComparisons("adopt_500_vs_floor", { [`adopt + up (n = ${c.n})`]: c });
  console.log(
    `steps (medians): adopt ${fmt(c.steps.adopt.wall)} s wall, ${fmt(c.steps.adopt.cpu)} s cpu; ` +
      `pulumi up ${fmt(c.steps.up.wall)} s wall, ${fmt(c.steps.up.cpu)} s cpu; ${c.secrets} header values`,
  );
  console.log("\n| adopt phase (one run, progress lines timed) | s |\n|---|---|");
  for (const p of c.phases) console.log(`| ${p.step} | ${fmt(p.seconds)} |`);
  const s = c.secret_config;
  console.log(
    `the ${s.values} header values as stack secrets: one pulumi config set --secret each ${fmt(s.per_value.wall)} s wall ` +
      `(${fmt(s.per_value.cpu)} s cpu); one config set-all ${fmt(s.set_all.wall)} s wall (${fmt(s.set_all.cpu)} s cpu)`,
  );
}

/** The fleet in parts against one review: the comparison, and what the matrix's time is made of. */
function printFleet(c: FleetComparison): void {
  printComparisons("drift_fleet_vs_single", { [`${c.sources} sources in ${c.parts} parts`]: c });
  console.log(
    `longest part ${fmt(c.longest_part)} s + merge ${fmt(c.merge)} s (medians); each part ${c.part_walls.map(fmt).join(", ")} s [all ${range(c.part_walls_spread)}]`,
  );
}

/** plugin_calls: each call's first and later cost to the plugin. */
function printPluginCalls(calls: Record<string, CallCost>): void {
  console.log("\n| plugin_calls | first cpu ms (wall) | then cpu ms (wall), median |\n|---|---|---|");
  for (const [name, c] of Object.entries(calls))
    console.log(`| ${name} | ${c.first_cpu_ms} (${c.first_wall_ms}) | ${c.cpu_ms} (${c.wall_ms}), n = ${c.n} |`);
}

/** plugin_start side by side: wall and CPU per packaging. */
function printPluginStart(starts: Record<string, Entry & { cpu_ms: number }>): void {
  console.log("\n| plugin_start (spawn → port) | wall ms | cpu ms |\n|---|---|---|");
  for (const [packaging, entry] of Object.entries(starts))
    console.log(`| ${packaging} | ${entry.value} | ${entry.cpu_ms} |`);
}

const fmt = (x: number | undefined) =>
  x === undefined ? "" : Number.isInteger(x) ? String(x) : x.toFixed(x < 10 ? 3 : 1);

function printTable(
  results: Record<string, unknown>,
  scale: ScaleEntry[] | undefined,
  frontDoors: FrontDoorResults | undefined,
  machine: Record<string, unknown>,
): void {
  const entries = Object.entries(results).filter((e): e is [string, Entry] => typeof (e[1] as Entry).unit === "string");
  if (entries.length > 0) {
    console.log("| metric | value | baseline | ratio | n | goal |");
    console.log("|---|---|---|---|---|---|");
    for (const [name, e] of entries)
      console.log(
        `| ${name} | ${fmt(e.value)} ${e.unit} | ${fmt(e.baseline)} | ${fmt(e.ratio)} | ${e.n} | ${e.goal ?? ""} |`,
      );
  }
  if (scale) printScale(scale);
  if (frontDoors) printFrontDoors(frontDoors);
  console.log(
    `\nmachine: ${machine.cpus} × ${machine.cpu}, ${machine.memoryGiB} GiB, ${machine.platform}, Node ${machine.node}`,
  );
}

function printScale(scale: ScaleEntry[]): void {
  console.log(
    "\n| N | mode | rounds | up s (floor) | ratio | preview s (floor) | refresh s (floor) | ratio | destroy s (floor) | ratio | preview calls | refresh calls | provider peak RSS MB (floor) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const e of scale)
    console.log(
      `| ${e.n} | ${e.mode} | ${e.rounds} | ${fmt(e.up.value)} (${fmt(e.up.baseline)}) | ${fmt(e.up.ratio)} | ` +
        `${fmt(e.preview.value)} (${fmt(e.preview.baseline)}) | ${fmt(e.refresh.value)} (${fmt(e.refresh.baseline)}) | ${fmt(e.refresh.ratio)} | ` +
        `${fmt(e.destroy.value)} (${fmt(e.destroy.baseline)}) | ${fmt(e.destroy.ratio)} | ${e.preview_api_calls} | ${e.refresh_api_calls} | ` +
        `${e.provider_peak_rss_mb.toFixed(0)} (${e.floor_provider_peak_rss_mb.toFixed(0)}) |`,
    );
}

/** One row per measure: the three contenders and the three ratios. */
function printFrontDoors(r: FrontDoorResults): void {
  const { native_vs_dynamic: nd, native_vs_engine_floor: nf, dynamic_vs_engine_floor: df } = r;
  console.log(`\nfront doors, N = ${nd.n}, ${nd.mode}, ${nd.rounds} rounds (medians; peak RSS: the highest)`);
  console.log("| measure | native | dynamic | floor | native / dynamic | native / floor | dynamic / floor |");
  console.log("|---|---|---|---|---|---|---|");
  const row = (label: string, pick: (c: Comparison) => Entry) =>
    console.log(
      `| ${label} | ${fmt(pick(nd).value)} | ${fmt(pick(nd).baseline)} | ${fmt(pick(nf).baseline)} | ` +
        `${fmt(pick(nd).ratio)} | ${fmt(pick(nf).ratio)} | ${fmt(pick(df).ratio)} |`,
    );
  row("up s", (c) => c.up);
  row("preview s", (c) => c.preview);
  row("refresh s", (c) => c.refresh);
  row("destroy s", (c) => c.destroy);
  row("provider peak RSS MB", (c) => c.provider_peak_rss);
  console.log(
    `API calls — native: preview ${nd.preview_api_calls}, refresh ${nd.refresh_api_calls}; dynamic: preview ${df.preview_api_calls}, refresh ${df.refresh_api_calls}`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(err.message);
    process.exit(2);
  }
  console.error(`[bench] failed: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
