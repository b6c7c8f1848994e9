/**
 * Interleaved rounds, added until the medians settle, and what a comparison of rounds reports: the
 * medians, and how far each side and the rounds' own ratios spread. These machines' rounds scatter
 * by more than the margins the goals leave, so one figure alone says little (issue 51).
 */
import type { Entry } from "./entry";
import { median } from "./median";

/** min and max across the rounds. */
export type Spread = [number, number];

/** min and max. */
export function spread(xs: readonly number[]): Spread {
  return [Math.min(...xs), Math.max(...xs)];
}

/**
 * Ours against the floor over paired rounds: medians, and the spread of each side and of each
 * round's ratio (rounds whose floor is 0, as a CPU reading in 10 ms ticks can be, have none).
 */
export type RoundsEntry = Entry & { rounds: number; spread: { value: Spread; baseline: Spread; ratio?: Spread } };

/** `ours` against `floor`, round i against round i (the extra rounds of the longer one left out). */
export function compareRounds(ours: readonly number[], floor: readonly number[], unit: string, n: number): RoundsEntry {
  const rounds = Math.min(ours.length, floor.length);
  const a = ours.slice(0, rounds);
  const b = floor.slice(0, rounds);
  const baseline = median(b);
  const ratios = a.flatMap((x, i) => (b[i]! > 0 ? [x / b[i]!] : []));
  return {
    value: median(a),
    unit,
    baseline,
    ...(baseline > 0 ? { ratio: median(a) / baseline } : {}),
    n,
    rounds,
    spread: { value: spread(a), baseline: spread(b), ...(ratios.length > 0 ? { ratio: spread(ratios) } : {}) },
  };
}

/** One round's cost: its wall time and its CPU time. */
export interface TimedRun {
  wall: number;
  cpu: number;
}

/** Wall time as the entry, CPU time beside it, each with its rounds' spread. */
export type WallCpuComparison = RoundsEntry & { cpu: RoundsEntry };

/** What an entry says besides its figures: the unit, its `n` (the rounds compared unless given) and each side's goal. */
export interface ComparisonLabels {
  readonly unit: string;
  readonly n?: number;
  readonly goal?: string;
  readonly cpuGoal?: string;
}

/** `ours` against `floor` round by round, in wall time and in CPU time. */
export function compareWallCpu(
  ours: readonly TimedRun[],
  floor: readonly TimedRun[],
  { unit, n = Math.min(ours.length, floor.length), goal, cpuGoal }: ComparisonLabels,
): WallCpuComparison {
  const side = (key: keyof TimedRun, sideGoal: string | undefined) => ({
    ...compareRounds(
      ours.map((r) => r[key]),
      floor.map((r) => r[key]),
      unit,
      n,
    ),
    ...(sideGoal !== undefined ? { goal: sideGoal } : {}),
  });
  return { ...side("wall", goal), cpu: side("cpu", cpuGoal) };
}

/** One series of rounds: ours and the floor's, in round order. */
export interface RoundSeries {
  ours: number[];
  floor: number[];
}

/**
 * Whether the last round moved the ratio of the medians (ours / floor) by less than `tolerance`,
 * relative, for every series given: the rounds so far against all but the last.
 */
export function mediansStable(series: readonly RoundSeries[], tolerance: number): boolean {
  return series.every(({ ours, floor }) => {
    if (ours.length < 2 || floor.length < 2) return false;
    const now = median(ours) / median(floor);
    const before = median(ours.slice(0, -1)) / median(floor.slice(0, -1));
    return Math.abs(now - before) / before < tolerance;
  });
}

/** One measure of ours and of the floor's rounds, as mediansStable reads it. */
export function roundSeries(ours: readonly TimedRun[], floor: readonly TimedRun[], key: keyof TimedRun): RoundSeries {
  return { ours: ours.map((r) => r[key]), floor: floor.map((r) => r[key]) };
}

/** At least `minRounds`, at most `maxRounds`; stop between them once the medians are stable within `tolerance`. */
export interface RoundsOptions {
  minRounds: number;
  maxRounds: number;
  tolerance: number;
}

/**
 * Runs `round(1)`, `round(2)`, … until `minRounds` are done and the last one moved no ratio of
 * `series()` by `tolerance` or more, or until `maxRounds`. Returns how many rounds ran.
 */
export async function roundsUntilStable(
  options: RoundsOptions,
  round: (round: number) => Promise<void>,
  series: () => readonly RoundSeries[],
): Promise<number> {
  const { minRounds, maxRounds, tolerance } = options;
  if (!Number.isInteger(minRounds) || minRounds < 1 || !Number.isInteger(maxRounds) || maxRounds < minRounds)
    throw new Error(
      `bench: rounds from ${minRounds} to ${maxRounds}: give whole numbers, the least at least 1 and the most no fewer than the least (the BENCH_…_ROUNDS and BENCH_…_MAX_ROUNDS settings)`,
    );
  if (!(tolerance >= 0))
    throw new Error(
      `bench: tolerance ${tolerance}: give a number of 0 or more (BENCH_TOLERANCE, BENCH_DRIFT_SOURCES_TOLERANCE)`,
    );
  for (let done = 1; ; done++) {
    await round(done);
    if (done >= maxRounds) return done;
    if (done >= minRounds && mediansStable(series(), tolerance)) return done;
  }
}
