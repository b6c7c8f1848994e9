/**
 * `npm start [-- --fast]`: the main job. Runs the root program (Pulumi.yaml → infra/) on the real
 * engine with a file backend in .pulumi-state/: `up` with the refresh folded in (one engine run:
 * what changed or vanished out of band is put back by the update, and said so). The instance is the
 * embedded emulator (state in .emulator/, at a stable address), unless the stack config names one
 * with webhooks:baseUrl. Each failure is printed once. It ends with how to inspect the stack,
 * review its drift and clean up: commands that work as printed, in a fresh shell.
 *
 * `npm start -- --drift`: the drift review of the same stack on the same instance (the embedded
 * emulator serving its saved state while it runs); exit 0 no drift, 2 drift, 1 error.
 *
 * The program loads the package from dist/, so dist/ is brought up to date first (scripts/build.ts:
 * nothing to do when nothing changed); `--help` prints the usage before anything else.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { RunningEmulator } from "../emulator";
import { redact } from "../provider/client";
import { directoryProgram, engineEnv, inProcess, LOCAL_PASSPHRASE } from "../engine/automation";
import { inlineUp } from "../engine/inlineUp";
import { pulumiRun } from "../engine/pulumiRun";
import { engineOutput, failureLine } from "../engine/output";
import { engineRoot, provisionEngine, type Engine } from "../engine/provision";
import { shellWord } from "../drift/shellWord";
import { SWAGGER_PATH } from "../emulator/swaggerRoutes";
import { build, repositoryRoot } from "./build";
import { EMULATOR_DIR, hasState, startEmbeddedEmulator } from "./embeddedEmulator";
import { configValue, ensureSecret, ensureStack, type StartStack } from "./startStack";

const ROOT = repositoryRoot();
const STACK = process.env.WEBHOOKS_STACK ?? "dev";
const BACKEND_DIR = join(ROOT, ".pulumi-state");

function say(line: string): void {
  console.log(`[start] ${line}`);
}

/** Counts of an operation's resource changes other than "same", as "2 updated, 1 deleted". */
function describeChanges(changes: Record<string, number> | undefined, verbs: Record<string, string>): string {
  return Object.entries(changes ?? {})
    .filter(([op, n]) => op !== "same" && n > 0)
    .map(([op, n]) => `${n} ${verbs[op] ?? op}`)
    .join(", ");
}

const USAGE = [
  "usage: npm start [-- --fast | --drift | --help]",
  "  (no flag)  `pulumi up --refresh` of the root program's stack (Pulumi.yaml → infra/): refreshed from the instance, then updated",
  "  --fast     the same without intermediate checkpoints (PULUMI_SKIP_CHECKPOINTS)",
  "  --drift    review the stack's drift on the same instance (exit 0 none, 2 drift, 1 error)",
  "  --help     this text",
  "The instance: webhooks:baseUrl in the stack's config, else the embedded emulator (state in .emulator/).",
  "WEBHOOKS_STACK names another stack than dev.",
].join("\n");

async function main(): Promise<number> {
  let values: { fast?: boolean; drift?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: { fast: { type: "boolean" }, drift: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (err) {
    console.error(`[start] ${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  build({ log: (line) => say(line) });
  const engine = await provisionEngine({ log: (line) => say(`engine: ${line}`) });
  const stack: StartStack = {
    run: pulumiRun(engine),
    workDir: ROOT,
    backendDir: BACKEND_DIR,
    stackName: STACK,
    env: engineEnv(engine, BACKEND_DIR, values.fast ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {}),
  };
  const configured = await configValue(stack, "webhooks:baseUrl");
  if (values.drift && !hasState(ROOT) && !configured) {
    say("nothing to review yet: `npm start` deploys the stack first");
    return 1;
  }
  await ensureStack(stack);
  const secret = "webhook-subscriptions:receiverApiKey";
  if (await ensureSecret(stack, secret)) say(`generated the secret ${secret} for this stack`);
  const emulator = await instanceFor(stack, configured);
  try {
    return values.drift ? await reviewDrift(stack) : await deploy(engine, stack);
  } finally {
    await emulator?.close();
  }
}

/**
 * The instance the program deploys to: `configured` (the stack config's webhooks:baseUrl, which
 * wins over the environment), else the embedded emulator (started, and returned).
 */
async function instanceFor(stack: StartStack, configured: string | undefined): Promise<RunningEmulator | undefined> {
  if (configured) {
    say(`instance: ${redact(configured)} (stack config webhooks:baseUrl); the embedded emulator is not started`);
    return undefined;
  }
  const emulator = await startEmbeddedEmulator(ROOT, say);
  say(`instance: the embedded emulator at ${emulator.url} (state: ${EMULATOR_DIR}/)`);
  say(`  its API description, while this runs: ${emulator.url}${SWAGGER_PATH} (Swagger UI; docs/emulator.md)`);
  say("  to deploy elsewhere: `pulumi config set webhooks:baseUrl <url>` (and webhooks:token) on this stack");
  Object.assign(stack.env, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });
  return emulator;
}

/**
 * `up` with the refresh folded in (`pulumi up --refresh`: one engine run, the program in this
 * process), what the refresh found and what the update did read from its events; the closing
 * notes either way.
 */
async function deploy(engine: Engine, stack: StartStack): Promise<number> {
  const output = engineOutput(process.stdout, process.stderr);
  try {
    say(`updating stack "${STACK}", refreshed from the instance first:`);
    const events = await inlineUp({
      ...stack,
      program: inProcess(directoryProgram(ROOT)),
      args: ["--refresh", "--color", process.stdout.isTTY ? "always" : "never"],
      ...output.callbacks,
    });
    const drift = describeChanges(refreshChanges(events), { update: "changed", delete: "gone" });
    say(drift ? `out of band: ${drift}; the update put them back` : "the instance matches the state");
    const summary = events.find((e) => e.summaryEvent)?.summaryEvent;
    const applied = describeChanges(summary?.resourceChanges, {
      create: "created",
      update: "updated",
      delete: "deleted",
      replace: "replaced",
    });
    say(applied ? `succeeded: ${applied}` : "no changes: the instance matches the program");
    closingNotes(engine);
    return 0;
  } catch (err) {
    // The engine's lines were streamed already: one line says what failed, not the whole output again.
    say(`failed: ${failureLine(err, output.printedErrors)}`);
    closingNotes(engine);
    return 1;
  }
}

/**
 * What the refresh of `pulumi up --refresh` found, counted as a separate `pulumi refresh` counts
 * it: "update" for a resource whose outputs changed out of band, "delete" for one that is gone.
 * The events carry no diff of a refresh: its states before and after are compared here.
 */
function refreshChanges(events: readonly EngineEvent[]): Record<string, number> {
  const counts: Record<string, number> = { update: 0, delete: 0 };
  for (const event of events) {
    const step = event.resOutputsEvent?.metadata;
    if (step?.op !== "refresh" || step.type.startsWith("pulumi:")) continue;
    const kind = !step.new ? "delete" : isDeepStrictEqual(step.old?.outputs, step.new.outputs) ? "same" : "update";
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** The drift review of this stack, on the instance it deploys to: the bin's `drift` command. */
async function reviewDrift(stack: StartStack): Promise<number> {
  Object.assign(process.env, stack.env);
  // Loaded only here: the drift review's modules are not the deploy's.
  const { driftCommand } = await import("../cli/drift");
  return driftCommand.run(["--stack", STACK, "--cwd", ROOT]);
}

/**
 * How to look at the stack afterwards, review its drift, and remove everything this command made.
 * Each block works as printed when pasted into a fresh shell (test/e2e/frontDoor.test.ts runs them).
 */
function closingNotes(engine: Engine): void {
  const root = shellWord(ROOT);
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE
    ? '"$PULUMI_CONFIG_PASSPHRASE"  # the passphrase you set for this run'
    : LOCAL_PASSPHRASE;
  const stackEnv = STACK === "dev" ? "" : `WEBHOOKS_STACK=${shellWord(STACK)} `;
  const lines = [
    "inspect the stack:",
    `  cd ${root}`,
    `  export PATH=${shellWord(engine.binDir)}:"$PATH"`,
    `  export PULUMI_BACKEND_URL=${shellWord(pathToFileURL(BACKEND_DIR).href)} PULUMI_CONFIG_PASSPHRASE=${passphrase}`,
    `  pulumi stack output --stack ${shellWord(STACK)} --show-secrets     # also: pulumi stack --stack ${shellWord(STACK)} --show-urns`,
    "review drift (exit 0: none, 2: drift, 1: error; in a project of your own: npx webhook-subscriptions drift --stack <name>):",
    `  cd ${root} && ${stackEnv}npm start -- --drift`,
    "clean up:",
    `  cd ${root} && rm -rf ${EMULATOR_DIR}/ .pulumi-state/ Pulumi.${shellWord(STACK)}.yaml`,
    "and the engine cache, if you like (shared by every checkout; `npm run engine` makes it again):",
    `  rm -rf ${shellWord(engineRoot())}`,
  ];
  for (const line of lines) say(line);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[start] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
