/**
 * `drift_review_program_comparison` (`npm run bench -- --only drift`): what comparing with the
 * program adds to the drift review. One stack of BENCH_DRIFT_N dynamic WebhookSubscriptions,
 * declared by a program directory (as a user's is), no drift; then, interleaved, the review as a
 * pipeline runs it (`webhook-subscriptions drift`, the built bin in plain Node.js) with its default
 * comparison (the state and the program: a second engine run, the program's preview with a
 * refresh) against `--state-only`. Wall and CPU time of each whole process tree (bench/processTree.py).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { engineEnv, openStack } from "../engine/automation";
import type { BenchContext } from "./engineRuns";
import { roundOrder } from "./frontDoors";
import { compareWallCpu } from "./rounds";
import { underProcessTree, type PreviewComparison, type PreviewRun } from "./yamlPreview";

const CONTENDERS = ["state_and_program", "state_only"] as const;
const BIN = resolve(__dirname, "../dist/cli/index.js");

/** A program directory declaring `n` subscriptions, as a user's JavaScript program would. */
function programDirectory(dir: string, n: number): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), "name: bench-drift\nruntime: nodejs\n");
  // Its own package.json, as a program has: without one, the Node.js language host (which the
  // review runs the program through) takes this repository's, whose main declares nothing.
  writeFileSync(join(dir, "package.json"), '{ "name": "bench-drift-program", "private": true, "main": "index.js" }\n');
  writeFileSync(
    join(dir, "index.js"),
    [
      'const { WebhookSubscription } = require("pulumi-webhook-subscriptions");',
      `for (let i = 0; i < ${n}; i++)`,
      "  new WebhookSubscription(`sub-${i}`, {",
      "    webhook: 3,",
      "    filterObjectType: 7,",
      "    subscriberUrl: `https://hooks.example.com/bench-drift/${i}`,",
      "  });",
      "",
    ].join("\n"),
  );
  return dir;
}

/** The review with and without the program's preview over `rounds` interleaved rounds: wall as the entry, CPU beside it. */
export async function measureDriftReview(
  ctx: BenchContext,
  n: number,
  rounds: number,
  log: (line: string) => void,
): Promise<PreviewComparison> {
  const dir = programDirectory(join(ctx.dir, "drift"), n);
  const backendDir = join(ctx.dir, "drift-state");
  const settings = { WEBHOOKS_BASE_URL: ctx.emulatorUrl, WEBHOOKS_TOKEN: "dev-builder" };
  const stack = await openStack({ engine: ctx.engine, backendDir, stackName: "drift", workDir: dir, env: settings });
  log(`drift review: up of ${n} subscriptions…`);
  await stack.up();
  const env = { ...engineEnv(ctx.engine, backendDir, settings), PULUMI_BACKEND_URL: pathToFileURL(backendDir).href };
  const review = async (extra: string[]) =>
    (await underProcessTree(process.execPath, [BIN, "drift", "--stack", "drift", "--cwd", dir, ...extra], dir, env))
      .tree;

  const runs = { state_and_program: [] as PreviewRun[], state_only: [] as PreviewRun[] };
  for (let round = 1; round <= rounds; round++)
    for (const contender of roundOrder(CONTENDERS, round)) {
      const run = await review(contender === "state_only" ? ["--state-only"] : []);
      runs[contender].push({ wall: run.wall, cpu: run.cpu });
      log(
        `drift review round ${round}/${rounds} ${contender}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`,
      );
    }
  await stack.destroy();
  const goal = "diagnostic: what the preview of the program adds to the review (state-only = baseline)";
  return compareWallCpu(runs.state_and_program, runs.state_only, { unit: "s", n, goal, cpuGoal: goal });
}
