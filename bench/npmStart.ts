/**
 * `npm_start_vs_pulumi_up` (`npm run bench -- --only start`): what the repository's front door
 * costs beyond the engine. In a copy of this checkout (as a clone is, node_modules linked), a
 * first `npm start` builds and deploys; then, interleaved, the second `npm start` with nothing
 * changed (the build check, the engine check, the embedded emulator, refresh, `up`) against the
 * same stack's `pulumi up` run by hand (`pulumi up --yes --skip-preview`, the emulator started
 * beside it on the same saved state). Wall and CPU time of each whole process tree
 * (bench/processTree.py); the emulator's CPU counts for `npm start` (in its process), not for the
 * hand-run `up` (in the bench's).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { engineEnv } from "../engine/automation";
import { startEmbeddedEmulator } from "../scripts/embeddedEmulator";
import { copyRepository } from "../test/support/repoCopy";
import type { BenchContext } from "./engineRuns";
import { roundOrder } from "./frontDoors";
import { compareWallCpu } from "./rounds";
import { underProcessTree, type PreviewComparison, type PreviewRun } from "./yamlPreview";

const CONTENDERS = ["npm_start", "pulumi_up"] as const;

/** `npm_start_vs_pulumi_up` over `rounds` interleaved rounds: wall as the entry, CPU beside it. */
export async function measureNpmStart(
  ctx: BenchContext,
  rounds: number,
  log: (line: string) => void,
): Promise<PreviewComparison> {
  const clone = mkdtempSync(join(ctx.dir, "npm-start-"));
  try {
    await copyRepository(clone, { build: false });
    const npmStart = async () => (await underProcessTree("npm", ["start"], clone, {})).tree;
    log("npm start, the first (build, deploy)…");
    await npmStart();
    const byHand = async () => {
      const emulator = await startEmbeddedEmulator(clone, log);
      try {
        const env = engineEnv(ctx.engine, join(clone, ".pulumi-state"), {
          WEBHOOKS_BASE_URL: emulator.url,
          WEBHOOKS_TOKEN: "dev-builder",
        });
        const pulumi = join(ctx.engine.binDir, "pulumi");
        const args = ["up", "--yes", "--skip-preview", "--stack", "dev", "--non-interactive"];
        return (await underProcessTree(pulumi, args, clone, env)).tree;
      } finally {
        await emulator.close();
      }
    };
    const runs = { npm_start: [] as PreviewRun[], pulumi_up: [] as PreviewRun[] };
    for (let round = 1; round <= rounds; round++)
      for (const contender of roundOrder(CONTENDERS, round)) {
        const run = contender === "npm_start" ? await npmStart() : await byHand();
        runs[contender].push({ wall: run.wall, cpu: run.cpu });
        log(
          `npm start round ${round}/${rounds} ${contender}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`,
        );
      }
    return compareWallCpu(runs.npm_start, runs.pulumi_up, { unit: "s", n: rounds, goal: "ratio <= 1.3" });
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}
