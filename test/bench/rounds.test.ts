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

  it("gives no ratio for a floor of 0, and leaves its rounds out of the ratios' spread", () => {
    const c = compareRounds([20, 30, 20], [0, 10, 0], "ms", 3);
    expect(c).not.toHaveProperty("ratio");
    expect(c.spread).toEqual({ value: [20, 30], baseline: [0, 10], ratio: [3, 3] });
    expect(compareRounds([20], [0], "ms", 1).spread).not.toHaveProperty("ratio");
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
    expect(series.ours).toHaveLength(ran);
    return ran;
  };

  it("runs at least minRounds, even when the medians settle before", async () => {
    expect(await rounds([1.2, 1.2, 1.2, 1.2, 1.2], { minRounds: 4, maxRounds: 10 })).toBe(4);
  });

  it("adds rounds while the last one moves a median, and stops at the first that does not", async () => {
    // Medians of the ratios after each round: 1, 1.5, 1.2, 1.35, 1.5 (each moved), then 1.5 again.
    expect(await rounds([1, 2, 1.2, 1.5, 1.5, 1.5, 9], { minRounds: 2, maxRounds: 10 })).toBe(6);
  });

  it("refuses a range it cannot keep, before any round", async () => {
    let ran = 0;
    const run = (minRounds: number, maxRounds: number, tolerance = 0.02) =>
      roundsUntilStable(
        { minRounds, maxRounds, tolerance },
        async () => void ran++,
        () => [],
      );
    await expect(run(10, 8)).rejects.toThrow(/rounds from 10 to 8: give whole numbers/);
    await expect(run(0, 8)).rejects.toThrow(/rounds from 0 to 8/);
    await expect(run(3, Number("abc"))).rejects.toThrow(/rounds from 3 to NaN/);
    await expect(run(3, 8, Number.NaN)).rejects.toThrow(/tolerance NaN: give a number of 0 or more/);
    expect(ran).toBe(0);
  });

  it("stops at maxRounds when the medians never settle", async () => {
    expect(await rounds([1, 2, 1, 2, 1, 2, 1, 2], { minRounds: 2, maxRounds: 5 })).toBe(5);
  });
});
