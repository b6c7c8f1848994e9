/**
 * `yaml_preview_vs_engine_floor` (`npm run bench -- --only plugin`): `pulumi preview` of a YAML
 * program declaring one WebhookSubscription, with the plugin in each packaging of
 * bench/pluginStart.ts, against the engine floor — the same YAML program with no provider and no
 * resource, so the difference is what the plugin costs a run (start, schema, Configure, Check).
 * Interleaved rounds, the order rotating (bench/frontDoors.ts's `roundOrder`), medians. Wall time,
 * and CPU time (user + system) of the whole `pulumi` process tree, measured by bench/processTree.py
 * (a child subreaper, so a process the engine leaves running is counted too, not lost to init).
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { dump as dumpYaml } from "js-yaml";
import { engineEnv } from "../engine/automation";
import type { BenchContext } from "./engineRuns";
import { roundOrder } from "./frontDoors";
import {
  compareWallCpu,
  roundSeries,
  roundsUntilStable,
  type RoundsOptions,
  type TimedRun,
  type WallCpuComparison,
} from "./rounds";
import { command, ensurePackagings, EXECUTABLE, PACKAGINGS, PLUGIN_DIR, type Packaging } from "./pluginStart";

export const CONTENDERS = ["floor", ...PACKAGINGS] as const;
export type Contender = (typeof CONTENDERS)[number];

/** One preview: wall seconds and CPU seconds of the process tree. */
export type PreviewRun = TimedRun;

/** What bench/processTree.py reports: also how many processes were still running when pulumi exited. */
export interface TreeRun extends PreviewRun {
  leftover: number;
}

const PROCESS_TREE = join(__dirname, "processTree.py");

/** One packaging against the floor: wall time as the entry, CPU time beside it, each with its rounds' spread. */
export type PreviewComparison = WallCpuComparison;

/** Issue 51's goals: wall time within 1.25 times the floor's, CPU time within 1.15 times. */
const GOAL = { wall: "ratio <= 1.25", cpu: "ratio <= 1.15" };

/**
 * The plugin's version, named beside its path: the engine caches a plugin's schema
 * (~/.pulumi/schemas/<name>-<version>.json, until the plugin's folder changes) only when it knows the
 * version; for a plugin by path without one, every run starts the plugin once for the schema (the
 * YAML host binding the program) and once more for the deployment (docs/benchmarks.md).
 */
const PLUGIN_VERSION = (JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as { version: string })
  .version;

/** The YAML project: the floor declares nothing; a packaging adds its plugin by path (and version) and one subscription. */
export function yamlProject(plugin?: string): Record<string, unknown> {
  const project = { name: "bench-yaml", runtime: "yaml" };
  if (plugin === undefined) return project;
  return {
    ...project,
    plugins: { providers: [{ name: "webhooks", path: plugin, version: PLUGIN_VERSION }] },
    resources: {
      sub: {
        type: "webhooks:index:WebhookSubscription",
        properties: {
          webhook: "BusinessObjectCreated",
          filterObjectType: 7,
          subscriberUrl: "https://hooks.example.com/bench/0",
          customHeader: "X-Bench",
          customHeaderValue: { "fn::secret": "value-0" },
        },
      },
    },
  };
}

/** Each packaging against the floor, medians of the rounds. */
export function comparePreviews(runs: Record<Contender, PreviewRun[]>): Record<Packaging, PreviewComparison> {
  return Object.fromEntries(
    PACKAGINGS.map((packaging) => [
      packaging,
      compareWallCpu(runs[packaging], runs.floor, { unit: "s", goal: GOAL.wall, cpuGoal: GOAL.cpu }),
    ]),
  ) as Record<Packaging, PreviewComparison>;
}

/**
 * The directory the project's `path:` names: the executable's own; the `runtime: nodejs` plugin
 * directory (the engine starts it through the Node.js language host); for the bundle, a directory
 * holding a `pulumi-resource-webhooks` script that execs plugin_start's bundle command.
 */
function pluginPath(packaging: Packaging, dir: string): string {
  if (packaging === "executable") return dirname(EXECUTABLE);
  if (packaging === "runtime_nodejs") return PLUGIN_DIR;
  const [file, args] = command("bundle");
  mkdirSync(dir, { recursive: true });
  const script = join(dir, "pulumi-resource-webhooks");
  writeFileSync(script, `#!/bin/sh\nexec ${[file, ...args].map((a) => `'${a}'`).join(" ")} "$@"\n`);
  chmodSync(script, 0o755);
  return dir;
}

/** Runs `pulumi <args>` in `cwd` under bench/processTree.py; fails loudly on a non-zero exit, with its output. */
function pulumi(ctx: BenchContext, cwd: string, args: string[]): Promise<{ output: string; tree: TreeRun }> {
  const env = engineEnv(ctx.engine, join(ctx.dir, "state"), {
    WEBHOOKS_BASE_URL: ctx.emulatorUrl,
    WEBHOOKS_TOKEN: "dev-builder",
  });
  return underProcessTree(join(ctx.engine.binDir, "pulumi"), [...args, "--non-interactive"], cwd, env);
}

/**
 * Runs `file <args>` in `cwd` with `env` over this process's environment, under
 * bench/processTree.py: its output, and the wall and CPU time of its whole process tree. Fails
 * loudly on a non-zero exit, with the output.
 */
export function underProcessTree(
  file: string,
  args: string[],
  cwd: string,
  extraEnv: Record<string, string>,
): Promise<{ output: string; tree: TreeRun }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  // Whatever runs the bench (tsx) must not load into the plugins' Node.js processes.
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn("python3", [PROCESS_TREE, file, ...args], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe", "pipe"],
    });
    let output = "";
    let tree = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
    (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => (tree += chunk));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve({ output, tree: JSON.parse(tree) as TreeRun })
        : reject(new Error(`${file} ${args.join(" ")} in ${cwd}: exit ${code}\n${output}`)),
    );
  });
}

async function previewOnce(ctx: BenchContext, contender: Contender, cwd: string): Promise<TreeRun> {
  const { output, tree } = await pulumi(ctx, cwd, ["preview", "--stack", `yaml-${contender}`]);
  const expected = contender === "floor" ? /\+ 1 to create/ : /\+ 2 to create/;
  if (!expected.test(output)) throw new Error(`preview ${contender} did not plan what it declares:\n${output}`);
  return tree;
}

/**
 * `yaml_preview_vs_engine_floor` per packaging over interleaved rounds, added (bench/rounds.ts)
 * until the executable's ratios, wall and CPU, settle: the release's packaging is the one held to
 * the goal closely; the others are far from it.
 */
export async function measureYamlPreview(
  ctx: BenchContext,
  rounds: RoundsOptions,
  log: (line: string) => void,
): Promise<Record<Packaging, PreviewComparison>> {
  await ensurePackagings(log);
  const dirs = {} as Record<Contender, string>;
  for (const contender of CONTENDERS) {
    const dir = (dirs[contender] = join(ctx.dir, "yaml", contender));
    mkdirSync(dir, { recursive: true });
    const plugin = contender === "floor" ? undefined : pluginPath(contender, join(ctx.dir, "yaml", "bundle-plugin"));
    writeFileSync(join(dir, "Pulumi.yaml"), dumpYaml(yamlProject(plugin)));
    await pulumi(ctx, dir, ["stack", "init", `yaml-${contender}`]);
  }
  const runs = Object.fromEntries(CONTENDERS.map((c) => [c, [] as PreviewRun[]])) as Record<Contender, PreviewRun[]>;
  const done = await roundsUntilStable(
    rounds,
    async (round) => {
      for (const contender of roundOrder(CONTENDERS, round)) {
        const run = await previewOnce(ctx, contender, dirs[contender]);
        runs[contender].push({ wall: run.wall, cpu: run.cpu });
        log(
          `yaml preview round ${round} ${contender}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s` +
            (run.leftover > 0
              ? ` (${run.leftover} processes still running when pulumi exited, killed and counted)`
              : ""),
        );
      }
    },
    () => [roundSeries(runs.executable, runs.floor, "wall"), roundSeries(runs.executable, runs.floor, "cpu")],
  );
  log(`yaml preview: ${done} rounds`);
  return comparePreviews(runs);
}
