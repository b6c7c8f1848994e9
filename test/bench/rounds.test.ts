import { describe, expect, it } from "vitest";
import { compareRounds, mediansStable, roundsUntilStable, type RoundSeries } from "../../bench/rounds";

describe("rounds compared", () => {
  it("gives the medians, and the spread of each side and of each round's own ratio", () => {
    expect(compareRounds([12, 10, 11], [10, 10, 8], "s", 500)).toEqual({
      value: 11,
      unit: "s",
      baseline: 10,
      ratio: 1.1,
      n: 500,
      rounds: 3,
      spread: { value: [10, 12], baseline: [8, 10], ratio: [1, 1.375] },
    });
  });

  it("pairs round i with round i, leaving out the longer side's extra rounds", () => {
    expect(compareRounds([2, 4, 100], [1, 2], "ms", 2)).toMatchObject({
      rounds: 2,
      value: 3,
      spread: { ratio: [2, 2] },
    });
  });
});

describe("rounds until the medians are stable", () => {
  it("calls the medians stable once the last round moves every ratio by less than the tolerance", () => {
    const wall = { ours: [12, 11, 12], floor: [10, 10, 10] };
    expect(mediansStable([wall], 0.02)).toBe(false); // 1.15 → 1.2
    expect(mediansStable([{ ours: [...wall.ours, 12], floor: [...wall.floor, 10] }], 0.02)).toBe(true); // 1.2 → 1.2
    expect(mediansStable([{ ours: [12], floor: [10] }], 0.5)).toBe(false);
  });

  /** Rounds whose ratios are `ratios` in turn, against a floor of 10. */
  const rounds = async (ratios: number[], options: { minRounds: number; maxRounds: number }) => {
    const series: RoundSeries = { ours: [], floor: [] };
    const ran = await roundsUntilStable(
      { ...options, tolerance: 0.02 },
      async (round) => {
        series.ours.push(10 * ratios[round - 1]!);
        series.floor.push(10);
      },
      () => [series],
    );
    return { ran, pushed: series.ours.length };
  };

  it("runs at least minRounds, even when the medians settle before", async () => {
    expect(await rounds([1.2, 1.2, 1.2, 1.2, 1.2], { minRounds: 4, maxRounds: 10 })).toEqual({ ran: 4, pushed: 4 });
  });

  it("adds rounds while the last one moves a median, and stops at the first that does not", async () => {
    // Medians of the ratios after each round: 1, 1.5, 1.2, 1.35, 1.5 (each moved), then 1.5 again.
    expect(await rounds([1, 2, 1.2, 1.5, 1.5, 1.5, 9], { minRounds: 2, maxRounds: 10 })).toEqual({
      ran: 6,
      pushed: 6,
    });
  });

  it("stops at maxRounds when the medians never settle", async () => {
    expect(await rounds([1, 2, 1, 2, 1, 2, 1, 2], { minRounds: 2, maxRounds: 5 })).toEqual({ ran: 5, pushed: 5 });
  });
});
