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

/** Ours against the floor over paired rounds: medians, and the spread of each side and of each round's ratio. */
export type RoundsEntry = Entry & { rounds: number; spread: { value: Spread; baseline: Spread; ratio: Spread } };

/** `ours` against `floor`, round i against round i (the extra rounds of the longer one left out). */
export function compareRounds(ours: readonly number[], floor: readonly number[], unit: string, n: number): RoundsEntry {
  const rounds = Math.min(ours.length, floor.length);
  const a = ours.slice(0, rounds);
  const b = floor.slice(0, rounds);
  return {
    value: median(a),
    unit,
    baseline: median(b),
    ratio: median(a) / median(b),
    n,
    rounds,
    spread: { value: spread(a), baseline: spread(b), ratio: spread(a.map((x, i) => x / b[i]!)) },
  };
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
  for (let done = 1; ; done++) {
    await round(done);
    if (done >= options.maxRounds) return done;
    if (done >= options.minRounds && mediansStable(series(), options.tolerance)) return done;
  }
}
