import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  compareSources,
  directoryConfig,
  directoryNames,
  floorScript,
  REVIEW_CONCURRENCY,
  reviewArgs,
  scaling,
  stackNames,
} from "../../bench/driftSources";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs the floor script with stand-ins for tofu, pulumi and curl that log each start and end
 * (and sleep a little, so that runs overlap): the log, one line per event.
 */
function runFloor(sources: string[], stacks: string[], concurrency: number): string[] {
  const root = mkdtempSync(join(tmpdir(), "floor-script-"));
  dirs.push(root);
  const bin = join(root, "bin");
  const tmp = join(root, "tmp");
  mkdirSync(bin);
  mkdirSync(tmp);
  for (const d of sources) mkdirSync(join(root, d));
  const log = join(root, "log");
  const standIn = (name: string) => {
    writeFileSync(
      join(bin, name),
      `#!/bin/sh\necho "start ${name} $(basename "$PWD") $*" >>"${log}"\nsleep 0.05\necho "end ${name} $(basename "$PWD") $*" >>"${log}"\n`,
    );
    chmodSync(join(bin, name), 0o755);
  };
  for (const name of ["tofu", "pulumi", "curl"]) standIn(name);
  writeFileSync(join(root, "floor.sh"), floorScript(sources, stacks, concurrency));
  execFileSync("sh", [join(root, "floor.sh")], {
    cwd: root,
    env: {
      PATH: `${bin}${delimiter}${process.env.PATH}`,
      FLOOR_TMP: tmp,
      WEBHOOKS_BASE_URL: "http://127.0.0.1:1",
      WEBHOOKS_TOKEN: "t",
    },
  });
  return readFileSync(log, "utf8").trim().split("\n");
}

describe("the floor of the review of many sources", () => {
  it("runs each directory's plan then show -json and each stack's preview in one pool, the stacks first, then one list, at the review's concurrency", () => {
    const sources = directoryNames(6);
    const events = runFloor(sources, stackNames(2), 4);
    const runs = events.filter((e) => e.startsWith("start"));
    // The review's two commands per directory, in its directory, the plan first.
    for (const d of sources) {
      const own = runs.filter((e) => e.startsWith(`start tofu ${d} `));
      expect(own).toHaveLength(2);
      expect(own[0]).toMatch(
        new RegExp(`^start tofu ${d} plan -input=false -no-color -lock=false -out=\\S+${d}\\.tfplan$`),
      );
      expect(own[1]).toMatch(new RegExp(`^start tofu ${d} show -json -no-color \\S+${d}\\.tfplan$`));
    }
    // At most four at once, and four at once at some point.
    let running = 0;
    let most = 0;
    for (const e of events) {
      running += e.startsWith("start") ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(4);
    // One pool is handed the stacks first, then the directories (the lanes start side by side, so
    // their log lines may come in any order: the order is the script's own).
    expect(floorScript(sources, stackNames(2), 4)).toContain(
      `printf '%s\\n' 'stack:stack1' 'stack:stack2' ${sources.map((d) => `'dir:${d}'`).join(" ")} | xargs -P 4 -n 1 `,
    );
    expect(runs.filter((e) => e.startsWith("start pulumi"))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/preview --refresh --non-interactive --cwd program --stack stack1$/),
        expect.stringMatching(/preview --refresh --non-interactive --cwd program --stack stack2$/),
      ]),
    );
    expect(runs.at(-1)).toMatch(
      /^start curl \S+ -sSf -o \S+ -H authorization: Bearer t http:\/\/127\.0\.0\.1:1\/configuration\/WebHookSubscription\/GetAllWebhookSubscriptions\?api-version=3$/,
    );
  });

  it("takes the review's default concurrency", () => {
    expect(REVIEW_CONCURRENCY).toBe(4);
  });
});

describe("the review of many sources", () => {
  it("is one command line naming every directory and stack", () => {
    const args = reviewArgs(directoryNames(2), stackNames(2));
    expect(args.slice(1)).toEqual([
      "drift",
      "--terraform",
      "d01",
      "--terraform",
      "d02",
      "--stack",
      "stack1",
      "--stack",
      "stack2",
      "--cwd",
      "program",
      "--report",
      "review.json",
    ]);
    expect(args[0]).toMatch(/dist\/cli\/index\.js$/);
  });

  it("declares each directory's subscriptions at URLs of its own", () => {
    expect(directoryNames(12).at(-1)).toBe("d12");
    expect(directoryConfig("d03", 25)).toContain("count              = 25");
    expect(directoryConfig("d03", 25)).toContain('"https://hooks.example.com/drift-sources/d03/${count.index}"');
  });
});

describe("the figures", () => {
  const run = (wall: number, cpu: number) => ({ wall, cpu });

  it("compares medians, with the spread of each side and of the rounds' ratios", () => {
    const c = compareSources(
      [run(12, 30), run(10, 24), run(11, 27)],
      [run(10, 20), run(10, 20), run(8, 25)],
      { directories: 20, stacks: 2, subscriptions: 510 },
      "goal",
    );
    expect(c).toMatchObject({ value: 11, baseline: 10, ratio: 1.1, n: 22, rounds: 3, unit: "s" });
    expect(c.spread).toEqual({ value: [10, 12], baseline: [8, 10], ratio: [1, 1.375] });
    expect(c.cpu).toMatchObject({ value: 27, baseline: 20, ratio: 1.35 });
    expect(c.cpu.spread.ratio).toEqual([1.08, 1.5]);
  });

  it("grows wall time against the number of sources: sublinear when the ratio to linear is below 1", () => {
    const s = scaling(
      [
        { directories: 20, review: [run(40, 0)], floor: [run(36, 0)] },
        { directories: 5, review: [run(20, 0)], floor: [run(18, 0)] },
      ],
      2,
    );
    expect(s.points.map((p) => [p.sources, p.wall_per_source])).toEqual([
      [7, 20 / 7],
      [22, 40 / 22],
    ]);
    expect(s.value).toBe(2);
    expect(s.baseline).toBeCloseTo(22 / 7);
    expect(s.ratio).toBeCloseTo(2 / (22 / 7));
    expect(s.marginal_wall_per_directory.review).toBeCloseTo(20 / 15);
    expect(s.marginal_wall_per_directory.floor).toBeCloseTo(18 / 15);
  });
});
