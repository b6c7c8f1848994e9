/**
 * `adopt_500_vs_floor` (`npm run bench -- --only adopt`, issue 65): bringing an estate made by
 * scripts under code with `adopt` and the team's `pulumi up`, against the engine's own bulk import
 * of the same subscriptions, side by side in one run.
 *
 * The estate: N varied subscriptions (`estateSpec`) made directly over HTTP on an in-process
 * emulator (loopback): six events, type- and object-scoped filters, three hosts shared by many,
 * a custom header with a value on every third, a header without one on some others.
 *
 * Each run starts from a fresh estate (the emulator reset, the N made again) and a fresh stack
 * `dev` of a YAML project that takes the native plugin by path (`npm run build:plugin`'s
 * dist/plugin/webhooks, with its version, as bench/yamlPreview.ts's projects), in a file backend
 * of its own; the provider's settings come from WEBHOOKS_BASE_URL and WEBHOOKS_TOKEN. Untimed.
 * - adopt: `node dist/cli/index.js adopt --into-stack dev` (the built CLI in plain Node.js, which
 *   is what `npx webhook-subscriptions adopt` runs, without npx's own start), then `pulumi up
 *   --yes`, which imports all N (`options.import`); its wall and CPU are the two commands' sum.
 * - the floor: `pulumi import --file import.json --yes --out <file>` of the same N (`{"resources":
 *   [{"type", "name", "id"}]}`, the names adopt would give): the engine reads and imports each and
 *   writes the program's code.
 * Wall time and CPU time (user + system) of each command's whole process tree
 * (bench/processTree.py), the contenders' order alternating by round, rounds added until the
 * ratios of the medians settle (bench/rounds.ts).
 *
 * Then, once, what adopt's time is made of (`phases`): an adopt run whose progress lines on stderr
 * are timestamped as they come, and the floor of what adopt must keep for the header values — the
 * same values set by one `pulumi config set --secret` each (the value on stdin, as adopt sets them),
 * and by one `pulumi config set-all --secret k=v …` (the values on its command line, which adopt
 * must not do), each on a fresh stack.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { dump as dumpYaml } from "js-yaml";
import { adoptionNames } from "../drift";
import { startEmulator, type RunningEmulator } from "../emulator";
import { engineEnv } from "../engine/automation";
import { WebhookSubscriptionClient } from "../provider/client";
import { NATIVE_WEBHOOK_SUBSCRIPTION_TYPE } from "../provider/model";
import { isObjectScoped, type Subscription, type SubscriptionSpec, type WebhookId } from "../provider/wire";
import type { BenchContext } from "./engineRuns";
import { roundOrder } from "./frontDoors";
import { median } from "./median";
import { PLUGIN_DIR } from "./pluginStart";
import {
  compareWallCpu,
  roundSeries,
  roundsUntilStable,
  type RoundsOptions,
  type TimedRun,
  type WallCpuComparison,
} from "./rounds";
import { underProcessTree, yamlProject } from "./yamlPreview";

const BIN = resolve(__dirname, "../dist/cli/index.js");
const TOKEN = "dev-builder";
const STACK = "dev";
/** Subscriptions made at once while the estate is set up. */
const SETUP_CONCURRENCY = 16;
const HOSTS = ["orders", "billing", "shipping"];
const PATHS = ["hooks", "v2/events", "partner/inbound"];

/** How many subscriptions, and the rounds. */
export interface AdoptImportOptions extends RoundsOptions {
  n: number;
}

/** One step of adopt's own run, from its progress lines: seconds from the previous line (or the start). */
export interface AdoptPhase {
  /** What the step ended with: its progress line (URLs as `<instance>`, paths left out), or "exit". */
  step: string;
  seconds: number;
}

/** What the header values cost apart from adopt: one process per value, or one for all. */
export interface SecretConfigFloor {
  values: number;
  per_value: TimedRun;
  set_all: TimedRun;
}

export type AdoptComparison = WallCpuComparison & {
  /** Each half of adopt's side, medians: `adopt` itself, and the importing `pulumi up`. */
  steps: { adopt: TimedRun; up: TimedRun };
  /** Header values stored as stack secrets per run. */
  secrets: number;
  phases: AdoptPhase[];
  secret_config: SecretConfigFloor;
};

/**
 * Subscription `i` of the estate: events 0–5 in turn, the object-scoped ones on one of seven
 * objects, the others on one of three object types; three hosts; a header with a value on every
 * third, `X-Trace` without one on some others.
 */
export function estateSpec(i: number, label = "estate"): SubscriptionSpec {
  const webhook = (i % 6) as WebhookId;
  const headerValue = i % 3 === 0 ? `hv-${label}-${i}-${(i * 2654435761).toString(36)}` : undefined;
  return {
    webhook,
    ...(isObjectScoped(webhook)
      ? { filterObjectType: 7, filterObjectGuid: `00000000-0000-4000-8000-${String(i % 7).padStart(12, "0")}` }
      : { filterObjectType: 2 + (i % 3) }),
    subscriberUrl: `https://${label}-${HOSTS[i % HOSTS.length]}.example.com/${PATHS[Math.floor(i / 3) % PATHS.length]}/${i}`,
    ...(headerValue
      ? { customHeader: "X-Api-Key", customHeaderValue: headerValue }
      : i % 5 === 1
        ? { customHeader: "X-Trace" }
        : {}),
  };
}

/** The engine's bulk import file of `subscriptions`, named as adopt names them. */
export function importFile(subscriptions: readonly Subscription[]): {
  resources: { type: string; name: string; id: string }[];
} {
  const names = adoptionNames(subscriptions, new Map(), []);
  return {
    resources: subscriptions.map((s) => ({
      type: NATIVE_WEBHOOK_SUBSCRIPTION_TYPE,
      name: names.get(s.guid)!.kebab,
      id: s.guid,
    })),
  };
}

/** The YAML project of every run: the plugin by path and version, no resource yet. */
function project(): Record<string, unknown> {
  const { resources: _none, ...rest } = yamlProject(PLUGIN_DIR);
  return { ...rest, name: "bench-adopt" };
}

/** The emulator, reset, holding the estate: the subscriptions as made. */
async function freshEstate(emulator: RunningEmulator, n: number): Promise<Subscription[]> {
  const reset = await fetch(`${emulator.url}/_emulator/reset`, { method: "POST" });
  if (!reset.ok) throw new Error(`emulator reset: ${reset.status}`);
  const client = new WebhookSubscriptionClient({ baseUrl: emulator.url, token: TOKEN });
  try {
    const made: Subscription[] = new Array(n);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(SETUP_CONCURRENCY, n) }, async () => {
        while (next < n) {
          const i = next++;
          made[i] = await client.subscribe(estateSpec(i));
        }
      }),
    );
    return made;
  } finally {
    await client.close();
  }
}

/** A run's folder: the project, its own backend, and the environment every command of the run gets. */
interface Workspace {
  dir: string;
  env: Record<string, string>;
}

/** A fresh project and stack in `root/name` (untimed). */
async function freshWorkspace(root: string, name: string, ctx: BenchContext, url: string): Promise<Workspace> {
  const base = join(root, name);
  rmSync(base, { recursive: true, force: true });
  const dir = join(base, "project");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "Pulumi.yaml"), dumpYaml(project()));
  const env = {
    ...engineEnv(ctx.engine, join(base, "state"), { WEBHOOKS_BASE_URL: url, WEBHOOKS_TOKEN: TOKEN }),
    // Under `npm run`, INIT_CWD names where npm was started; the CLI takes paths from it.
    INIT_CWD: dir,
  };
  await pulumi(["stack", "init", STACK], { dir, env });
  return { dir, env };
}

/** `pulumi <args> --non-interactive` in the workspace, under bench/processTree.py. */
function pulumi(args: string[], ws: Workspace): Promise<{ output: string; tree: TimedRun }> {
  return underProcessTree("pulumi", [...args, "--non-interactive"], ws.dir, ws.env);
}

const costOf = ({ tree }: { tree: TimedRun }): TimedRun => ({ wall: tree.wall, cpu: tree.cpu });

/** One adoption: `adopt`, then the team's `pulumi up`, checked to import all of them. */
async function adoptRun(ws: Workspace, n: number): Promise<{ adopt: TimedRun; up: TimedRun }> {
  const adopted = await underProcessTree(process.execPath, [BIN, "adopt", "--into-stack", STACK], ws.dir, ws.env);
  if (!adopted.output.includes(`Adopted ${n} subscriptions into `))
    throw new Error(`adopt did not adopt all ${n}:\n${adopted.output}`);
  const up = await pulumi(["up", "--yes"], ws);
  if (!up.output.includes(`${n} imported`)) throw new Error(`pulumi up did not import all ${n}:\n${up.output}`);
  return { adopt: costOf(adopted), up: costOf(up) };
}

/** The floor: `pulumi import --file` of the same subscriptions, checked to import all of them. */
async function importRun(ws: Workspace, subscriptions: readonly Subscription[]): Promise<TimedRun> {
  writeFileSync(join(ws.dir, "import.json"), JSON.stringify(importFile(subscriptions)));
  const imported = await pulumi(["import", "--file", "import.json", "--yes", "--out", "imported.yaml"], ws);
  if (!imported.output.includes(`${subscriptions.length} imported`))
    throw new Error(`pulumi import did not import all ${subscriptions.length}:\n${imported.output}`);
  return costOf(imported);
}

/** adopt's progress lines, timed as they come: each step's seconds since the one before. */
async function adoptPhases(ws: Workspace): Promise<AdoptPhase[]> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...ws.env };
  delete env.NODE_OPTIONS;
  const started = performance.now();
  const lines: { at: number; text: string }[] = [];
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [BIN, "adopt", "--into-stack", STACK], {
      cwd: ws.dir,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let pending = "";
    child.stderr.on("data", (chunk: Buffer) => {
      const at = performance.now();
      pending += chunk.toString();
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const text of parts) lines.push({ at, text });
    });
    child.once("error", fail);
    child.once("close", (code) => (code === 0 ? done() : fail(new Error(`adopt exited ${code}`))));
  });
  lines.push({ at: performance.now(), text: "exit" });
  let last = started;
  return lines.map(({ at, text }) => {
    const words = text
      .replace(/^adopt: /, "")
      .replace(/https?:\/\/\S+/g, "<instance>")
      .replace(/ \(\/[^)]*\)/g, "");
    const step = { step: words.slice(0, 100), seconds: (at - last) / 1000 };
    last = at;
    return step;
  });
}

/** The same header values set as stack secrets one process each (stdin), and all in one `set-all` (argv). */
async function secretConfigFloor(root: string, ctx: BenchContext, url: string, values: readonly string[]) {
  const keys = values.map((_, i) => `bench-header-value-${i}`);
  const one = await freshWorkspace(root, "secrets-per-value", ctx, url);
  // The values reach the script in a file of the bench's own (never a team's: adopt writes none).
  const list = join(one.dir, "..", "values.txt");
  writeFileSync(list, values.map((v, i) => `${keys[i]}\n${v}\n`).join(""));
  const perValue = await underProcessTree(
    "sh",
    [
      "-ec",
      `while IFS= read -r key && IFS= read -r value; do printf %s "$value" | pulumi config set --secret "$key" --stack ${STACK} --non-interactive; done <"$1"`,
      "sh",
      list,
    ],
    one.dir,
    one.env,
  );
  rmSync(list);
  const all = await freshWorkspace(root, "secrets-set-all", ctx, url);
  const setAll = await pulumi(["config", "set-all", ...values.flatMap((v, i) => ["--secret", `${keys[i]}=${v}`])], all);
  return { values: values.length, per_value: costOf(perValue), set_all: costOf(setAll) };
}

const medianRun = (runs: readonly TimedRun[]): TimedRun => ({
  wall: median(runs.map((r) => r.wall)),
  cpu: median(runs.map((r) => r.cpu)),
});

/** Measures the part (see the module comment). */
export async function measureAdoptImport(
  ctx: BenchContext,
  options: AdoptImportOptions,
  log: (line: string) => void,
): Promise<AdoptComparison> {
  const root = join(ctx.dir, "adopt");
  rmSync(root, { recursive: true, force: true });
  const emulator = await startEmulator({ port: 0 });
  try {
    const runs = { adopt: [] as TimedRun[], floor: [] as TimedRun[], steps: [] as { adopt: TimedRun; up: TimedRun }[] };
    let secrets = 0;
    const rounds = await roundsUntilStable(
      options,
      async (round) => {
        for (const contender of roundOrder(["adopt", "floor"] as const, round)) {
          const subscriptions = await freshEstate(emulator, options.n);
          secrets = subscriptions.filter((s) => s.customHeaderValue !== null).length;
          const ws = await freshWorkspace(root, contender, ctx, emulator.url);
          if (contender === "adopt") {
            const steps = await adoptRun(ws, options.n);
            runs.steps.push(steps);
            runs.adopt.push({ wall: steps.adopt.wall + steps.up.wall, cpu: steps.adopt.cpu + steps.up.cpu });
            log(
              `adopt round ${round}: adopt wall ${steps.adopt.wall.toFixed(2)} s cpu ${steps.adopt.cpu.toFixed(2)} s, ` +
                `up wall ${steps.up.wall.toFixed(2)} s cpu ${steps.up.cpu.toFixed(2)} s`,
            );
          } else {
            const run = await importRun(ws, subscriptions);
            runs.floor.push(run);
            log(`adopt round ${round} pulumi import: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`);
          }
        }
      },
      () => [roundSeries(runs.adopt, runs.floor, "wall"), roundSeries(runs.adopt, runs.floor, "cpu")],
    );
    log(`adopt: ${rounds} rounds; timing adopt's phases and the secret config's floor…`);
    const subscriptions = await freshEstate(emulator, options.n);
    const phases = await adoptPhases(await freshWorkspace(root, "phases", ctx, emulator.url));
    const secretConfig = await secretConfigFloor(
      root,
      ctx,
      emulator.url,
      subscriptions.flatMap((s) => (s.customHeaderValue !== null ? [s.customHeaderValue] : [])),
    );
    const goal = `ratio <= 1.2 (adopt --into-stack plus the importing pulumi up of ${options.n}, against pulumi import --file of the same ${options.n})`;
    return {
      ...compareWallCpu(runs.adopt, runs.floor, { unit: "s", n: options.n, goal, cpuGoal: goal }),
      steps: {
        adopt: medianRun(runs.steps.map((s) => s.adopt)),
        up: medianRun(runs.steps.map((s) => s.up)),
      },
      secrets,
      phases,
      secret_config: secretConfig,
    };
  } finally {
    await emulator.close();
  }
}
