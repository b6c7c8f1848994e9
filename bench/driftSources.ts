/**
 * `npm run bench -- --only drift-sources` (issue 50, "Targets"): the review of many sources in one
 * report against the floor of the tools' own runs, side by side in one run.
 *
 * The review: ONE `webhook-subscriptions drift --terraform d01 … --terraform d20 --stack stack1
 * --stack stack2 --cwd program --format json` process (the built CLI, dist/cli/index.js, in plain
 * Node.js), with tofu and pulumi from PATH as a team's are. Each Terraform directory holds 25
 * subscriptions (`count`), installed by `tofu init` from a filesystem mirror holding the release's
 * single executable; each stack is a JavaScript program of a few dynamic WebhookSubscriptions (as
 * bench/driftReview.ts's). All of a review's sources are on one emulator instance (loopback), and
 * nothing drifted: the review must say in-sync.
 *
 * The floor (one `sh` process tree, `floorScript`): what the tools themselves run for the same
 * sources, in the review's order and at its concurrency (drift/review/reviewSources.ts: one pool
 * of `REVIEW_CONCURRENCY` lanes, the stacks first, then the Terraform directories):
 * - each directory's `tofu plan -input=false -no-color -lock=false -out=<file>` then
 *   `tofu show -json -no-color <file>` (the review's exact two commands), their output to files;
 * - each stack's `pulumi preview --refresh --non-interactive` (the preview that compares the live
 *   subscriptions with the program, refreshing them first as `tofu plan` does);
 * - one GetAllWebhookSubscriptions request per instance (curl).
 * So the ratio is what the review adds on top of the tools: its own Node.js process, the Automation
 * API's extra `pulumi` runs per stack (the state, the config, a refresh preview besides the
 * program's preview), its reading and classifying.
 *
 * Wall time and CPU time (user + system) of each whole process tree (bench/processTree.py), the
 * contenders interleaved and their order rotating by round, medians. Rounds are added (from
 * `minRounds` up to `maxRounds`) until the ratios of the medians at the largest size move by less
 * than `tolerance` when the last round is added. Each size (`sizes`: directories per review, plus
 * the stacks) has its own emulator and its own copies of the directories and stacks, so a smaller
 * review sees no other size's subscriptions as unmanaged: `drift_sources_scaling` is the review's
 * wall time against the number of sources.
 */
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { engineEnv, openStack } from "../engine/automation";
import { provisionTofu, type Tofu } from "../engine/tofu";
import { CONFIGURATION_PATH } from "../provider/wire";
import { admin } from "./emulatorAdmin";
import type { BenchContext } from "./engineRuns";
import type { Entry } from "./entry";
import {
  compareWallCpu,
  roundSeries,
  roundsUntilStable,
  spread,
  type RoundsOptions,
  type Spread,
  type WallCpuComparison,
} from "./rounds";
import { roundOrder } from "./frontDoors";
import { terraformConfig } from "./terraform";
import { median } from "./median";
import { ensurePackagings, EXECUTABLE } from "./pluginStart";
import { underProcessTree, type PreviewRun } from "./yamlPreview";

const BIN = resolve(__dirname, "../dist/cli/index.js");
const VERSION = (JSON.parse(readFileSync(join(__dirname, "../package.json"), "utf8")) as { version: string }).version;
const PROVIDER_SOURCE = "webhook-subscriptions/webhooks";
/** How many sources of one kind the review runs at once: reviewSources' default, which the CLI uses. */
export const REVIEW_CONCURRENCY = 4;
const TOKEN = "dev-builder";
/** The review's JSON report, in the size's root (its markdown goes to stdout, as by default). */
const REVIEW_REPORT = "review.json";

/** The sizes, and the rounds at the largest (bench/rounds.ts). */
export interface DriftSourcesOptions extends RoundsOptions {
  /** Terraform directories per review, one review (and floor) per size; the largest is held to the target. */
  sizes: number[];
  /** Subscriptions per directory. */
  perDirectory: number;
  /** Pulumi stacks per review, and subscriptions per stack. */
  stacks: number;
  perStack: number;
}

/** The review against its floor at one size: wall as the entry, CPU beside it, each with its spread. */
export type SourcesComparison = WallCpuComparison & {
  directories: number;
  subscriptions: number;
  /** API requests of one run, by operation (the first round's). */
  api_calls: { review: Record<string, number>; floor: Record<string, number> };
};

/** One size of the scaling curve. */
export interface ScalingPoint {
  directories: number;
  sources: number;
  wall: number;
  wall_spread: Spread;
  wall_per_source: number;
  cpu: number;
  floor_wall: number;
  floor_cpu: number;
}

/** Wall time against the number of sources: growth from the smallest size to the largest, against linear. */
export type Scaling = Entry & {
  points: ScalingPoint[];
  /** Wall seconds each directory beyond the smallest size adds, review and floor. */
  marginal_wall_per_directory: { review: number; floor: number };
};

export interface DriftSourcesResults {
  drift_sources_vs_floor: SourcesComparison;
  drift_sources_scaling: Scaling;
}

/** The directory names of a review of `n` directories: d01, d02, … */
export function directoryNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `d${String(i + 1).padStart(2, "0")}`);
}

/** The stack names of a review of `n` stacks. */
export function stackNames(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `stack${i + 1}`);
}

/** main.tf of directory `name`: `n` subscriptions of one resource block, each to a URL of its own. */
export function directoryConfig(name: string, n: number): string {
  return terraformConfig(n, `https://hooks.example.com/drift-sources/${name}`);
}

/** The CLI configuration installing the provider from an unpacked filesystem mirror, as `tofu init` takes it. */
export function mirrorConfig(mirror: string): string {
  return `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`;
}

/**
 * The floor as one POSIX shell script, run in the size's root (see the module comment): one pool
 * of `concurrency` lanes (xargs -P, as the review's lanes take the next source when one is done),
 * handed the stacks' previews first, then the directories' plan and show; then the one list. Outputs go to
 * `$FLOOR_TMP`; `sh -e` and xargs fail the script when any command fails.
 */
export function floorScript(dirs: readonly string[], stacks: readonly string[], concurrency: number): string {
  const words = [...stacks.map((n) => `'stack:${n}'`), ...dirs.map((n) => `'dir:${n}'`)].join(" ");
  return `set -e
# Every source in one pool, the stacks first: a stack's preview of its program, with a refresh;
# a Terraform directory's plan, then show -json.
printf '%s\\n' ${words} | xargs -P ${concurrency} -n 1 sh -ec '
  case "$1" in
    stack:*) pulumi preview --refresh --non-interactive --cwd program --stack "\${1#stack:}" >"$FLOOR_TMP/\${1#stack:}.preview.txt" ;;
    dir:*) d="\${1#dir:}"; cd "$d"
      tofu plan -input=false -no-color -lock=false -out="$FLOOR_TMP/$d.tfplan" >"$FLOOR_TMP/$d.plan.txt"
      tofu show -json -no-color "$FLOOR_TMP/$d.tfplan" >"$FLOOR_TMP/$d.json" ;;
  esac' sh
# One list per instance.
curl -sSf -o "$FLOOR_TMP/list.json" -H "authorization: Bearer $WEBHOOKS_TOKEN" \\
  "$WEBHOOKS_BASE_URL${CONFIGURATION_PATH}/GetAllWebhookSubscriptions?api-version=3"
`;
}

/** The JavaScript program of every stack: `n` dynamic WebhookSubscriptions, their URLs the stack's own. */
export function programSource(n: number): string {
  return [
    'const pulumi = require("@pulumi/pulumi");',
    'const { WebhookSubscription } = require("pulumi-webhook-subscriptions");',
    `for (let i = 0; i < ${n}; i++)`,
    "  new WebhookSubscription(`sub-${i}`, {",
    "    webhook: 3,",
    "    filterObjectType: 7,",
    "    subscriberUrl: `https://hooks.example.com/drift-sources/${pulumi.getStack()}/${i}`,",
    "  });",
    "",
  ].join("\n");
}

/** The program's package.json: its dependencies resolve from this repository's node_modules, above it. */
const PROGRAM_PACKAGE = { name: "bench-drift-sources-program", private: true, main: "index.js" };

/** The review of `directories` against its floor: medians, spreads, per-round ratios' spread. */
export function compareSources(
  review: readonly PreviewRun[],
  floor: readonly PreviewRun[],
  shape: { directories: number; stacks: number; subscriptions: number },
  goal: string,
): Omit<SourcesComparison, "api_calls"> {
  return {
    ...compareWallCpu(review, floor, { unit: "s", n: shape.directories + shape.stacks, goal, cpuGoal: goal }),
    directories: shape.directories,
    subscriptions: shape.subscriptions,
  };
}

/** Wall time against sources, from the medians of each size's review and floor. */
export function scaling(
  points: readonly { directories: number; review: readonly PreviewRun[]; floor: readonly PreviewRun[] }[],
  stacks: number,
): Scaling {
  const sorted = [...points].sort((a, b) => a.directories - b.directories);
  const measured = sorted.map((p): ScalingPoint => {
    const walls = p.review.map((r) => r.wall);
    const sources = p.directories + stacks;
    return {
      directories: p.directories,
      sources,
      wall: median(walls),
      wall_spread: spread(walls),
      wall_per_source: median(walls) / sources,
      cpu: median(p.review.map((r) => r.cpu)),
      floor_wall: median(p.floor.map((r) => r.wall)),
      floor_cpu: median(p.floor.map((r) => r.cpu)),
    };
  });
  const first = measured[0]!;
  const last = measured.at(-1)!;
  const growth = last.wall / first.wall;
  const linear = last.sources / first.sources;
  const added = last.directories - first.directories;
  return {
    value: growth,
    unit: "x",
    baseline: linear,
    ratio: growth / linear,
    n: last.sources,
    goal: `ratio < 1: wall time from ${first.sources} to ${last.sources} sources grows less than linearly (baseline: linear growth)`,
    points: measured,
    marginal_wall_per_directory: {
      review: added > 0 ? (last.wall - first.wall) / added : 0,
      floor: added > 0 ? (last.floor_wall - first.floor_wall) / added : 0,
    },
  };
}

/** The requests by operation the emulator at `url` has answered. */
async function requests(url: string): Promise<Record<string, number>> {
  return ((await admin(url, "GET", "/stats")) as { requests: Record<string, number> }).requests;
}

/** `after - before`, per operation, without the zeros. */
function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([op, n]) => [op, n - (before[op] ?? 0)] as const)
      .filter(([, n]) => n > 0),
  );
}

/** One size: its emulator, directories, stacks, and the environment the review and the floor share. */
export interface Size {
  directories: number;
  root: string;
  dirs: string[];
  stacks: string[];
  emulator: RunningEmulator;
  env: Record<string, string>;
  floorTmp: string;
}

/** Runs `work` over `items`, `limit` at a time. */
async function bounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** Makes a size in its own folder: its emulator, its directories (init, apply) and its stacks (up). */
export async function setUpSize(
  ctx: BenchContext,
  tofu: Tofu,
  cliConfig: string,
  directories: number,
  options: DriftSourcesOptions,
  log: (line: string) => void,
): Promise<Size> {
  const root = join(ctx.dir, "drift-sources", `n${directories}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const emulator = await startEmulator({ port: 0 });
  try {
    const backendDir = join(root, "state");
    mkdirSync(backendDir, { recursive: true });
    const floorTmp = join(tmpdir(), `bench-drift-sources-floor-n${directories}-${process.pid}`);
    mkdirSync(floorTmp, { recursive: true });
    const settings = { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: TOKEN };
    // The team's pulumi and tofu on PATH, the stacks' backend, the provider's settings.
    const stackEnv = engineEnv(ctx.engine, backendDir, settings);
    const env: Record<string, string> = {
      ...stackEnv,
      PATH: [ctx.engine.binDir, tofu.binDir, process.env.PATH ?? ""].join(delimiter),
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: "1",
      CHECKPOINT_DISABLE: "1",
      // Under `npm run`, INIT_CWD names where npm was started; the CLI resolves paths against it.
      INIT_CWD: root,
      FLOOR_TMP: floorTmp,
    };
    const dirs = directoryNames(directories);
    log(`drift sources n=${directories}: init and apply of ${directories} directories of ${options.perDirectory}…`);
    await bounded(dirs, REVIEW_CONCURRENCY, async (name) => {
      const dir = join(root, name);
      mkdirSync(dir);
      writeFileSync(join(dir, "main.tf"), directoryConfig(name, options.perDirectory));
      await underProcessTree(tofu.path, ["init", "-input=false", "-no-color"], dir, env);
      const { output } = await underProcessTree(tofu.path, ["apply", "-auto-approve", "-no-color"], dir, env);
      if (!output.includes(`${options.perDirectory} added`)) throw new Error(`tofu apply in ${dir}:\n${output}`);
    });
    const program = join(root, "program");
    mkdirSync(program);
    writeFileSync(join(program, "Pulumi.yaml"), "name: bench-drift-sources\nruntime: nodejs\n");
    // Its own package.json, as a program has: else the Node.js language host would take this repository's.
    writeFileSync(join(program, "package.json"), `${JSON.stringify(PROGRAM_PACKAGE, null, 2)}\n`);
    writeFileSync(join(program, "index.js"), programSource(options.perStack));
    const stacks = stackNames(options.stacks);
    for (const name of stacks) {
      log(`drift sources n=${directories}: up of stack ${name} (${options.perStack} subscriptions)…`);
      const stack = await openStack({
        engine: ctx.engine,
        backendDir,
        stackName: name,
        workDir: program,
        env: settings,
      });
      await stack.up();
    }
    writeFileSync(join(root, "floor.sh"), floorScript(dirs, stacks, REVIEW_CONCURRENCY));
    return { directories, root, dirs, stacks, emulator, env, floorTmp };
  } catch (err) {
    await emulator.close();
    throw err;
  }
}

/**
 * tofu, and the CLI configuration that installs our provider as the release ships it (the single
 * executable) from an unpacked filesystem mirror, as `tofu init` installs a provider from one.
 */
export async function installProvider(
  ctx: BenchContext,
  log: (line: string) => void,
): Promise<{ tofu: Tofu; cliConfig: string }> {
  await ensurePackagings(log);
  const tofu = await provisionTofu({ log: (line) => log(`tofu: ${line}`) });
  const base = join(ctx.dir, "drift-sources");
  const mirror = join(base, "mirror");
  const platformDir = join(mirror, "registry.opentofu.org", PROVIDER_SOURCE, VERSION, "linux_amd64");
  rmSync(mirror, { recursive: true, force: true });
  mkdirSync(platformDir, { recursive: true });
  symlinkSync(EXECUTABLE, join(platformDir, `terraform-provider-webhooks_v${VERSION}`));
  const cliConfig = join(base, "cli.tfrc");
  writeFileSync(cliConfig, mirrorConfig(mirror));
  return { tofu, cliConfig };
}

/** The review's command line (after node). */
export function reviewArgs(dirs: readonly string[], stacks: readonly string[]): string[] {
  return [
    BIN,
    "drift",
    ...dirs.flatMap((d) => ["--terraform", d]),
    ...stacks.flatMap((s) => ["--stack", s]),
    "--cwd",
    "program",
    "--report",
    REVIEW_REPORT,
  ];
}

/** One review of `size`, checked: every source reviewed, in sync. */
async function review(size: Size): Promise<PreviewRun> {
  const { output, tree } = await underProcessTree(
    process.execPath,
    reviewArgs(size.dirs, size.stacks),
    size.root,
    size.env,
  );
  const json = JSON.parse(readFileSync(join(size.root, REVIEW_REPORT), "utf8")) as {
    status: string;
    sources: { status: string }[];
    findings: unknown[];
  };
  const sources = size.dirs.length + size.stacks.length;
  if (
    json.status !== "in-sync" ||
    json.sources.length !== sources ||
    json.sources.some((s) => s.status !== "reviewed") ||
    json.findings.length > 0
  )
    throw new Error(`the review of ${sources} sources is not in sync with every source reviewed:\n${output}`);
  return { wall: tree.wall, cpu: tree.cpu };
}

/** One floor run of `size`, checked: every plan and preview without changes. */
async function floor(size: Size): Promise<PreviewRun> {
  rmSync(size.floorTmp, { recursive: true, force: true });
  mkdirSync(size.floorTmp, { recursive: true });
  const { tree } = await underProcessTree("sh", [join(size.root, "floor.sh")], size.root, size.env);
  for (const d of size.dirs) {
    const plan = readFileSync(join(size.floorTmp, `${d}.plan.txt`), "utf8");
    if (!plan.includes("No changes.")) throw new Error(`floor: tofu plan in ${d} found changes:\n${plan}`);
  }
  for (const s of size.stacks) {
    const preview = readFileSync(join(size.floorTmp, `${s}.preview.txt`), "utf8");
    if (/to (create|update|delete|replace)/.test(preview) || !/unchanged/.test(preview))
      throw new Error(`floor: pulumi preview of ${s} found changes:\n${preview}`);
  }
  return { wall: tree.wall, cpu: tree.cpu };
}

/** Measures the part (see the module comment). */
export async function measureDriftSources(
  ctx: BenchContext,
  options: DriftSourcesOptions,
  log: (line: string) => void,
): Promise<DriftSourcesResults> {
  const { tofu, cliConfig } = await installProvider(ctx, log);
  const sizes: Size[] = [];
  try {
    for (const n of [...new Set(options.sizes)].sort((a, b) => a - b))
      sizes.push(await setUpSize(ctx, tofu, cliConfig, n, options, log));
    const largest = sizes.at(-1)!;

    type Contender = { size: Size; kind: "review" | "floor" };
    const contenders: Contender[] = sizes.flatMap((size) => [
      { size, kind: "review" as const },
      { size, kind: "floor" as const },
    ]);
    const runs = new Map(sizes.map((s) => [s, { review: [] as PreviewRun[], floor: [] as PreviewRun[] }]));
    const calls = { review: {} as Record<string, number>, floor: {} as Record<string, number> };
    const series = (key: keyof PreviewRun) => roundSeries(runs.get(largest)!.review, runs.get(largest)!.floor, key);
    const rounds = await roundsUntilStable(
      options,
      async (round) => {
        for (const { size, kind } of roundOrder(contenders, round)) {
          const before = await requests(size.emulator.url);
          const run = kind === "review" ? await review(size) : await floor(size);
          if (round === 1 && size === largest) calls[kind] = difference(await requests(size.emulator.url), before);
          runs.get(size)![kind].push(run);
          log(
            `drift sources round ${round} n=${size.directories} ${kind}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`,
          );
        }
        const ratio = (key: keyof PreviewRun) => median(series(key).ours) / median(series(key).floor);
        log(
          `drift sources after round ${round}: n=${largest.directories} review/floor wall ${ratio("wall").toFixed(3)}, cpu ${ratio("cpu").toFixed(3)}`,
        );
      },
      () => [series("wall"), series("cpu")],
    );
    log(`drift sources: ${rounds} rounds`);

    const { review: r, floor: f } = runs.get(largest)!;
    const subscriptions = largest.directories * options.perDirectory + options.stacks * options.perStack;
    const comparison = compareSources(
      r,
      f,
      { directories: largest.directories, stacks: options.stacks, subscriptions },
      `ratio <= 1.2 (${largest.directories} Terraform directories of ${options.perDirectory} and ${options.stacks} stacks in one review; ` +
        `floor: each directory's tofu plan and show -json, each stack's pulumi preview --refresh, ${REVIEW_CONCURRENCY} at a time, and one list)`,
    );
    return {
      drift_sources_vs_floor: { ...comparison, api_calls: calls },
      drift_sources_scaling: scaling(
        sizes.map((s) => ({ directories: s.directories, ...runs.get(s)! })),
        options.stacks,
      ),
    };
  } finally {
    for (const size of sizes) {
      await size.emulator.close();
      rmSync(size.floorTmp, { recursive: true, force: true });
    }
  }
}
