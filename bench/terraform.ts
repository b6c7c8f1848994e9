/**
 * `npm run bench -- --only terraform`: the Terraform front door against its floor, with OpenTofu
 * (engine/tofu.ts). Our provider is the single executable, as the release ships it
 * (`terraform-provider-webhooks_v<v>` is the same bytes as `pulumi-resource-webhooks`); the floor
 * is the Go anchor (bench/goAnchor.ts): the same schema on terraform-plugin-go, doing no I/O.
 * Both are installed the same way, by a `dev_overrides` CLI configuration.
 *
 * - `tofu_plan_one_vs_go_anchor`: `tofu plan` of one subscription, ours against the anchor.
 * - `tofu_handshake_vs_go_anchor`: spawn to the go-plugin handshake line, started as tofu starts a
 *   provider (the magic cookie, protocol 6, a client certificate for AutoMTLS).
 * - `tofu_500_vs_floor`: `tofu apply`, `plan` (its refresh) and `destroy` (its refresh, then the
 *   deletes) of 500 subscriptions against the emulator, each against the anchor's same command
 *   plus the raw round trips that command costs the service (bench/rawRoundTrips.ts): a Subscribe,
 *   a Get, a Get and an Unsubscribe per subscription.
 *
 * Interleaved rounds, the order rotating, medians; wall time, and CPU time of the whole `tofu`
 * process tree beside it (bench/processTree.py). The raw round trips run in a process of their
 * own, so the floor's CPU is the anchor's run plus the round trips' client, not the emulator's.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { provisionTofu, type Tofu } from "../engine/tofu";
import { serverCertificate } from "../provider/terraform/goPlugin/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../provider/terraform/goPlugin/handshake";
import type { BenchContext } from "./engineRuns";
import { roundOrder } from "./frontDoors";
import { ANCHOR_SCHEMA_ENV, ensureGoAnchor } from "./goAnchor";
import { compareWallCpu, roundSeries, roundsUntilStable, type RoundsOptions, type WallCpuComparison } from "./rounds";
import { ensurePackagings, EXECUTABLE, startToFirstLine, type Start } from "./pluginStart";
import { rawRoundTripCost, type RawCost, type RawOperation } from "./rawRoundTrips";
import type { PreviewRun } from "./yamlPreview";
import { underProcessTree } from "./yamlPreview";

/** Ours (the release's single executable) and the floor. */
export const TF_CONTENDERS = ["go_anchor", "executable"] as const;
export type TfContender = (typeof TF_CONTENDERS)[number];

/** The commands of the 500-subscription run, in the order each round makes them. */
export const TF_COMMANDS = ["apply", "plan", "destroy"] as const;
export type TfCommand = (typeof TF_COMMANDS)[number];

/**
 * The raw round trips a command costs the service, each once per subscription. A destroy refreshes
 * first, as a plan does: any provider that sees drift reads each subscription before deleting it.
 */
export const FLOOR_OPERATIONS: Record<TfCommand, readonly RawOperation[]> = {
  apply: ["SubscribeToWebhook"],
  plan: ["GetWebhookSubscription"],
  destroy: ["GetWebhookSubscription", "Unsubscribe"],
};

/** The goal of each large-run entry, wall and CPU alike (issue 51). */
const FLOOR_GOAL = "ratio <= 1.3";

/** A wall-time entry with the CPU-time entry beside it, each with its rounds' spread. */
export type TfComparison = WallCpuComparison;

/** main.tf: `n` subscriptions of one resource block (`count`), each to its own URL under `urlBase`. */
export function terraformConfig(n: number, urlBase = "https://hooks.example.com/bench"): string {
  return `terraform {
  required_providers {
    webhooks = { source = "webhook-subscriptions/webhooks" }
  }
}

provider "webhooks" {}

resource "webhooks_subscription" "bench" {
  count              = ${n}
  webhook            = "PacketCreated"
  filter_object_type = 2
  filter_object_guid = "6f1c2a3b-0000-4000-8000-000000000001"
  custom_header      = "X-Bench"
  subscriber_url     = "${urlBase}/\${count.index}"
}
`;
}

/** The CLI configuration installing the provider in the folder `bin` for `webhook-subscriptions/webhooks`. */
export function devOverridesConfig(bin: string): string {
  return `provider_installation {\n  dev_overrides {\n    "webhook-subscriptions/webhooks" = "${bin}"\n  }\n  direct {}\n}\n`;
}

/** `ours` against `floor` round by round: medians of wall time, CPU time beside it, each with its spread. */
export function compareRuns(ours: PreviewRun[], floor: PreviewRun[], goal: string, cpuGoal?: string): TfComparison {
  return compareWallCpu(ours, floor, { unit: "s", goal, ...(cpuGoal ? { cpuGoal } : {}) });
}

/** The two handshake timings (ms) as a comparison: wall, CPU beside it. */
export function compareStarts(ours: Start[], floor: Start[]): TfComparison {
  const runs = (starts: Start[]) => starts.map((s) => ({ wall: s.wallMs, cpu: s.cpuMs }));
  return compareWallCpu(runs(ours), runs(floor), { unit: "ms", goal: "diagnostic: spawn to the handshake line" });
}

/** One contender's CLI configuration, project folders and environment. */
interface Setup {
  env: Record<string, string>;
  dir: string;
}

/** Installs each contender by dev_overrides in `root`, and writes the schema the anchor serves (ours, from tofu). */
async function setUp(ctx: BenchContext, tofu: Tofu, root: string, anchor: string): Promise<Record<TfContender, Setup>> {
  rmSync(root, { recursive: true, force: true });
  const schemaFile = join(root, "providers-schema.json");
  const setups = {} as Record<TfContender, Setup>;
  for (const contender of TF_CONTENDERS) {
    const dir = join(root, contender);
    const bin = join(dir, "bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(contender === "executable" ? EXECUTABLE : anchor, join(bin, "terraform-provider-webhooks"));
    writeFileSync(join(dir, "cli.tfrc"), devOverridesConfig(bin));
    setups[contender] = {
      dir,
      env: {
        TF_CLI_CONFIG_FILE: join(dir, "cli.tfrc"),
        TF_IN_AUTOMATION: "1",
        CHECKPOINT_DISABLE: "1",
        WEBHOOKS_BASE_URL: ctx.emulatorUrl,
        WEBHOOKS_TOKEN: "dev-builder",
        [ANCHOR_SCHEMA_ENV]: schemaFile,
      },
    };
  }
  // The anchor's schema is ours, as tofu reads it from our provider: written once, in the model.
  const ours = project(setups.executable, "schema", 1);
  const { output } = await underProcessTree(tofu.path, ["providers", "schema", "-json"], ours, setups.executable.env);
  const schemas = JSON.parse(output.slice(output.indexOf("{"))) as { provider_schemas: Record<string, unknown> };
  const [entryOfOurs] = Object.values(schemas.provider_schemas);
  if (!entryOfOurs) throw new Error(`tofu providers schema -json named no provider:\n${output}`);
  writeFileSync(schemaFile, JSON.stringify(entryOfOurs));
  return setups;
}

/** A project folder of `setup` holding `n` subscriptions. */
function project(setup: Setup, name: string, n: number): string {
  const dir = join(setup.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.tf"), terraformConfig(n));
  return dir;
}

/** `tofu <args>` in `cwd`, its output checked against `expected`. */
async function tofuRun(tofu: Tofu, setup: Setup, cwd: string, args: string[], expected: RegExp): Promise<PreviewRun> {
  const { output, tree } = await underProcessTree(tofu.path, [...args, "-no-color"], cwd, setup.env);
  if (!expected.test(output)) throw new Error(`tofu ${args.join(" ")} in ${cwd} did not say ${expected}:\n${output}`);
  return { wall: tree.wall, cpu: tree.cpu };
}

/** Spawn to handshake line of each contender, as tofu starts a provider, over `rounds` interleaved rounds. */
async function measureHandshakes(
  setups: Record<TfContender, Setup>,
  anchor: string,
  rounds: number,
): Promise<TfComparison> {
  const { certificatePem } = await serverCertificate();
  const starts: Record<TfContender, Start[]> = { go_anchor: [], executable: [] };
  for (let round = 1; round <= rounds; round++)
    for (const contender of roundOrder(TF_CONTENDERS, round))
      starts[contender].push(
        await startToFirstLine(contender === "executable" ? EXECUTABLE : anchor, [], {
          ...setups[contender].env,
          [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
          PLUGIN_PROTOCOL_VERSIONS: "5,6",
          PLUGIN_MIN_PORT: "10000",
          PLUGIN_MAX_PORT: "25000",
          PLUGIN_CLIENT_CERT: certificatePem,
        }),
      );
  return compareStarts(starts.executable, starts.go_anchor);
}

/** The settings of the Terraform part. */
export interface TerraformBenchOptions {
  /** Rounds of the one-subscription plan (at least `minRounds`: bench/rounds.ts) and of the handshake (`minRounds`). */
  rounds: RoundsOptions;
  /** Subscriptions of the large run, and its rounds. */
  n: number;
  scaleRounds: RoundsOptions;
}

/** The Terraform part's results.json entries. */
export interface TerraformResults {
  tofu_plan_one_vs_go_anchor: TfComparison;
  tofu_handshake_vs_go_anchor: TfComparison;
  tofu_500_vs_floor: Record<TfCommand, TfComparison>;
}

/** Measures the Terraform part (see the module comment). */
export async function measureTerraform(
  ctx: BenchContext,
  options: TerraformBenchOptions,
  log: (line: string) => void,
): Promise<TerraformResults> {
  await ensurePackagings(log);
  const tofu = await provisionTofu({ log: (line) => log(`tofu: ${line}`) });
  const anchor = await ensureGoAnchor(log);
  const setups = await setUp(ctx, tofu, join(ctx.dir, "terraform"), anchor);

  log("spawn to handshake line, ours and the Go anchor's…");
  const handshake = await measureHandshakes(setups, anchor, options.rounds.minRounds);

  const plans: Record<TfContender, PreviewRun[]> = { go_anchor: [], executable: [] };
  const one = Object.fromEntries(TF_CONTENDERS.map((c) => [c, project(setups[c], "one", 1)])) as Record<
    TfContender,
    string
  >;
  const planRounds = await roundsUntilStable(
    options.rounds,
    async (round) => {
      for (const contender of roundOrder(TF_CONTENDERS, round)) {
        const run = await tofuRun(tofu, setups[contender], one[contender], ["plan"], /1 to add, 0 to change/);
        plans[contender].push(run);
        log(
          `one-subscription plan round ${round} ${contender}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`,
        );
      }
    },
    () => [
      roundSeries(plans.executable, plans.go_anchor, "wall"),
      roundSeries(plans.executable, plans.go_anchor, "cpu"),
    ],
  );
  log(`one-subscription plan: ${planRounds} rounds`);

  const large = Object.fromEntries(TF_CONTENDERS.map((c) => [c, project(setups[c], "large", options.n)])) as Record<
    TfContender,
    string
  >;
  const expected: Record<TfCommand, RegExp> = {
    apply: new RegExp(`${options.n} added, 0 changed, 0 destroyed`),
    plan: /No changes/,
    destroy: new RegExp(`${options.n} destroyed`),
  };
  const args: Record<TfCommand, string[]> = {
    apply: ["apply", "-auto-approve"],
    plan: ["plan"],
    destroy: ["destroy", "-auto-approve"],
  };
  const runs = Object.fromEntries(
    TF_COMMANDS.map((c) => [
      c,
      { go_anchor: [] as PreviewRun[], executable: [] as PreviewRun[], raw: [] as RawCost[] },
    ]),
  ) as Record<TfCommand, Record<TfContender, PreviewRun[]> & { raw: RawCost[] }>;
  // Settled when no command's ratio, wall or CPU, moved: each round's floor is the anchor's run plus its raw round trips.
  const largeSeries = () =>
    TF_COMMANDS.flatMap((command) =>
      (["wall", "cpu"] as const).map((key) => roundSeries(runs[command].executable, floorRuns(runs[command]), key)),
    );
  const largeRounds = await roundsUntilStable(
    options.scaleRounds,
    async (round) => {
      for (const contender of roundOrder(TF_CONTENDERS, round))
        for (const command of TF_COMMANDS) {
          const run = await tofuRun(tofu, setups[contender], large[contender], args[command], expected[command]);
          runs[command][contender].push(run);
          log(
            `${options.n} ${command} round ${round} ${contender}: wall ${run.wall.toFixed(2)} s, cpu ${run.cpu.toFixed(2)} s`,
          );
        }
      for (const command of TF_COMMANDS) {
        const raw = await rawRoundTripCost(ctx.emulatorUrl, options.n, FLOOR_OPERATIONS[command]);
        runs[command].raw.push(raw);
        log(
          `${options.n} raw ${FLOOR_OPERATIONS[command].join(" + ")} round ${round}: wall ${raw.wall.toFixed(2)} s, cpu ${raw.cpu.toFixed(2)} s`,
        );
      }
    },
    largeSeries,
  );
  log(`${options.n} subscriptions: ${largeRounds} rounds`);
  return {
    tofu_plan_one_vs_go_anchor: compareRuns(
      plans.executable,
      plans.go_anchor,
      "ratio <= 2.5 (the single executable the release ships, against the Go anchor)",
      "ratio <= 2.5",
    ),
    tofu_handshake_vs_go_anchor: handshake,
    tofu_500_vs_floor: floorComparisons(runs, options.n),
  };
}

/** A command's floor, round by round: the anchor's run plus that round's raw round trips. */
function floorRuns({ go_anchor, raw }: { go_anchor: PreviewRun[]; raw: RawCost[] }): PreviewRun[] {
  return go_anchor.map((run, i) => ({ wall: run.wall + (raw[i]?.wall ?? 0), cpu: run.cpu + (raw[i]?.cpu ?? 0) }));
}

/**
 * Each command of the large run against its floor, per round: the anchor's same command plus the
 * raw round trips, in wall time and in CPU (the round trips' client's).
 */
export function floorComparisons(
  runs: Record<TfCommand, Record<TfContender, PreviewRun[]> & { raw: RawCost[] }>,
  n: number,
): Record<TfCommand, TfComparison> {
  return Object.fromEntries(
    TF_COMMANDS.map((command) => {
      const { executable } = runs[command];
      const floor = floorRuns(runs[command]);
      const roundTrips = FLOOR_OPERATIONS[command].join(" and ");
      const comparison = compareWallCpu(executable, floor, {
        unit: "s",
        n,
        goal: `${FLOOR_GOAL} (the Go anchor's ${command} plus ${n} raw ${roundTrips} round trips)`,
        cpuGoal: `${FLOOR_GOAL} (the Go anchor's ${command} plus the CPU of the round trips' client, in a process of its own)`,
      });
      return [command, comparison];
    }),
  ) as Record<TfCommand, TfComparison>;
}
