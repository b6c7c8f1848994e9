/**
 * `drift_fleet_vs_single` (`npm run bench -- --only drift-fleet`, issue 66): a fleet reviewed over
 * a CI matrix against one review of the whole fleet on one machine, side by side in one run.
 *
 * The fleet is bench/driftSources.ts's, made by its own setup (`setUpSize`): `directories`
 * Terraform directories of `perDirectory` subscriptions and `stacks` stacks of `perStack`, all on
 * one emulator (loopback), nothing drifted; 20 + 4 = 24 sources by default.
 * - The matrix: the sources dealt into `parts` parts in turn (`partsOf`: 5 directories and 1 stack
 *   each by default). Each part is reviewed alone, one after another, as a matrix cell would on a
 *   machine of its own: `node dist/cli/index.js drift <its sources> --report part-N.json`. Each
 *   part sees the others' subscriptions as unmanaged, so it must exit 2. Then `drift --merge
 *   part-1.json … --report merged.json`, which must exit 0, in sync, every source reviewed. The
 *   figure is what the matrix takes from start to report: the longest part plus the merge.
 * - One review: bench/driftSources.ts's command line (`reviewArgs`), every source in one process.
 * Wall time and CPU time (user + system) of each process tree (bench/processTree.py); the fleet's
 * CPU is its parts' and the merge's sum (what the matrix costs in all). The two sides alternate
 * which goes first by round; rounds are added until the ratios of the medians settle.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { BenchContext } from "./engineRuns";
import { installProvider, reviewArgs, setUpSize, type DriftSourcesOptions, type Size } from "./driftSources";
import { roundOrder } from "./frontDoors";
import { median } from "./median";
import {
  compareWallCpu,
  roundSeries,
  roundsUntilStable,
  spread,
  type RoundsOptions,
  type Spread,
  type TimedRun,
  type WallCpuComparison,
} from "./rounds";
import { underProcessTree } from "./yamlPreview";

/** The fleet, how it is split, and the rounds. */
export interface DriftFleetOptions extends RoundsOptions {
  directories: number;
  perDirectory: number;
  stacks: number;
  perStack: number;
  parts: number;
}

/** The matrix against one review: wall as the entry (longest part + merge), CPU (all parts + merge) beside it. */
export type FleetComparison = WallCpuComparison & {
  parts: number;
  sources: number;
  subscriptions: number;
  /** Medians over the rounds: the longest part's wall, the merge's wall, and each part's wall. */
  longest_part: number;
  merge: number;
  part_walls: number[];
  part_walls_spread: Spread;
};

/** One part: its Terraform directories and stacks. */
export interface FleetPart {
  dirs: string[];
  stacks: string[];
}

/** The sources dealt into `n` parts in turn, directories and stacks each: as even as they go. */
export function partsOf(dirs: readonly string[], stacks: readonly string[], n: number): FleetPart[] {
  return Array.from({ length: n }, (_, k) => ({
    dirs: dirs.filter((_, i) => i % n === k),
    stacks: stacks.filter((_, i) => i % n === k),
  }));
}

/** A part's review: the review's command line with its own report, `part-<k>.json` (1-based). */
export function partArgs(part: FleetPart, k: number): string[] {
  const args = reviewArgs(part.dirs, part.stacks);
  args.splice(args.indexOf("--report"), 2, "--report", partFile(k));
  return args;
}

const partFile = (k: number) => `part-${k}.json`;

/** The merge's command line (after node): the parts in order, one report. */
export function mergeArgs(parts: number): string[] {
  const bin = reviewArgs([], [])[0]!;
  return [
    bin,
    "drift",
    ...Array.from({ length: parts }, (_, i) => ["--merge", partFile(i + 1)]).flat(),
    "--report",
    "merged.json",
  ];
}

/** What the checks read of a JSON report. */
interface ReportJson {
  status: string;
  sources: { status: string }[];
  findings: { class: string }[];
}

const readReport = (size: Size, file: string) => JSON.parse(readFileSync(join(size.root, file), "utf8")) as ReportJson;

/** Checks a report that must be in sync with `sources` sources, all reviewed. */
function expectInSync(report: ReportJson, sources: number, what: string, output: string): void {
  if (
    report.status !== "in-sync" ||
    report.sources.length !== sources ||
    report.sources.some((s) => s.status !== "reviewed") ||
    report.findings.length > 0
  )
    throw new Error(`${what} of ${sources} sources is not in sync with every source reviewed:\n${output}`);
}

/**
 * `node <args>` in the size's root, which must exit `code`: a part finds the other parts'
 * subscriptions unmanaged and exits 2, which bench/processTree.py would take for a failure, so it
 * runs under `sh -c` (a shell more in the tree: a millisecond).
 */
function node(size: Size, args: string[], code: 0 | 2) {
  if (code === 0) return underProcessTree(process.execPath, args, size.root, size.env);
  return underProcessTree(
    "sh",
    [
      "-c",
      `"$@"; c=$?; [ $c -eq ${code} ] || { echo "exit $c, not ${code}" >&2; exit 1; }`,
      "sh",
      process.execPath,
      ...args,
    ],
    size.root,
    size.env,
  );
}

/** One matrix: each part alone, then the merge; the parts' walls and the merge's run. */
async function fleet(size: Size, parts: readonly FleetPart[]): Promise<{ parts: TimedRun[]; merge: TimedRun }> {
  const runs: TimedRun[] = [];
  for (const [i, part] of parts.entries()) {
    const { output, tree } = await node(size, partArgs(part, i + 1), 2);
    const report = readReport(size, partFile(i + 1));
    const sources = part.dirs.length + part.stacks.length;
    if (
      report.sources.length !== sources ||
      report.sources.some((s) => s.status !== "reviewed") ||
      !report.findings.every((f) => f.class === "unmanaged")
    )
      throw new Error(`part ${i + 1}: not ${sources} sources reviewed with only unmanaged findings:\n${output}`);
    runs.push({ wall: tree.wall, cpu: tree.cpu });
  }
  const merged = await node(size, mergeArgs(parts.length), 0);
  expectInSync(readReport(size, "merged.json"), size.dirs.length + size.stacks.length, "the merge", merged.output);
  return { parts: runs, merge: { wall: merged.tree.wall, cpu: merged.tree.cpu } };
}

/** One review of every source. */
async function single(size: Size): Promise<TimedRun> {
  const { output, tree } = await node(size, reviewArgs(size.dirs, size.stacks), 0);
  expectInSync(readReport(size, "review.json"), size.dirs.length + size.stacks.length, "the review", output);
  return { wall: tree.wall, cpu: tree.cpu };
}

/** The matrix's figures of one round: the longest part plus the merge, and all the CPU. */
export function matrixRun(parts: readonly TimedRun[], merge: TimedRun): TimedRun {
  return {
    wall: Math.max(...parts.map((p) => p.wall)) + merge.wall,
    cpu: parts.reduce((sum, p) => sum + p.cpu, 0) + merge.cpu,
  };
}

/** Measures the part (see the module comment). */
export async function measureDriftFleet(
  ctx: BenchContext,
  options: DriftFleetOptions,
  log: (line: string) => void,
): Promise<FleetComparison> {
  const { tofu, cliConfig } = await installProvider(ctx, log);
  const sizeOptions: DriftSourcesOptions = { ...options, sizes: [options.directories] };
  const size = await setUpSize(ctx, tofu, cliConfig, options.directories, sizeOptions, log);
  try {
    const parts = partsOf(size.dirs, size.stacks, options.parts);
    const matrix: TimedRun[] = [];
    const one: TimedRun[] = [];
    const partWalls: number[][] = [];
    const merges: number[] = [];
    const rounds = await roundsUntilStable(
      options,
      async (round) => {
        for (const side of roundOrder(["fleet", "single"] as const, round)) {
          if (side === "single") {
            const run = await single(size);
            one.push(run);
            log(`drift fleet round ${round} one review: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`);
            continue;
          }
          const run = await fleet(size, parts);
          matrix.push(matrixRun(run.parts, run.merge));
          partWalls.push(run.parts.map((p) => p.wall));
          merges.push(run.merge.wall);
          log(
            `drift fleet round ${round} ${parts.length} parts: walls ${run.parts.map((p) => p.wall.toFixed(2)).join(", ")} s, ` +
              `merge ${run.merge.wall.toFixed(2)} s; longest + merge ${matrix.at(-1)!.wall.toFixed(2)} s, cpu ${matrix.at(-1)!.cpu.toFixed(2)} s`,
          );
        }
      },
      () => [roundSeries(matrix, one, "wall"), roundSeries(matrix, one, "cpu")],
    );
    log(`drift fleet: ${rounds} rounds`);
    const sources = size.dirs.length + size.stacks.length;
    const goal = `ratio <= 0.4 (${sources} sources in ${parts.length} parts, each reviewed alone: the longest part plus the merge, against one review of all ${sources})`;
    const cpuGoal = "diagnostic: the CPU of all the parts and the merge, against one review's";
    const allParts = partWalls.flat();
    return {
      ...compareWallCpu(matrix, one, { unit: "s", n: sources, goal, cpuGoal }),
      parts: parts.length,
      sources,
      subscriptions: options.directories * options.perDirectory + options.stacks * options.perStack,
      longest_part: median(partWalls.map((walls) => Math.max(...walls))),
      merge: median(merges),
      part_walls: parts.map((_, k) => median(partWalls.map((walls) => walls[k]!))),
      part_walls_spread: spread(allParts),
    };
  } finally {
    await size.emulator.close();
    rmSync(size.floorTmp, { recursive: true, force: true });
  }
}
