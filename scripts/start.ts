/**
 * `npm start [-- --fast]`: the main job. Runs the root program (Pulumi.yaml → infra/) on the real
 * engine with a file backend in .pulumi-state/: refresh first (what changed or vanished out of
 * band is put back by the update that follows, and said so), then `up`. The instance is the
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
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { driftCommand } from "../cli/drift";
import type { RunningEmulator } from "../emulator";
import { redact } from "../provider/client";
import { engineEnv, LOCAL_PASSPHRASE, openStack } from "../engine/automation";
import { engineOutput, failureLine } from "../engine/output";
import { engineRoot, provisionEngine, type Engine } from "../engine/provision";
import { shellWord } from "../drift/shellWord";
import { SWAGGER_PATH } from "../emulator/swaggerRoutes";
import { build } from "./build";
import { EMULATOR_DIR, hasState, startEmbeddedEmulator } from "./embeddedEmulator";

const ROOT = resolve(__dirname, "..");
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
  "  (no flag)  refresh the root program's stack (Pulumi.yaml → infra/) from the instance, then `pulumi up`",
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
  const stack = await openStack({
    engine,
    backendDir: BACKEND_DIR,
    stackName: STACK,
    workDir: ROOT,
    env: values.fast ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
  });
  // Read once: each read is a `pulumi config` process (~0.3 s of CPU).
  const config = await stack.getAllConfig();
  const configured = config["webhooks:baseUrl"]?.value;
  if (values.drift && !hasState(ROOT) && !configured) {
    say("nothing to review yet: `npm start` deploys the stack first");
    return 1;
  }
  await ensureSecretConfig(stack, config, "receiverApiKey");
  const emulator = await instanceFor(stack, configured);
  try {
    return values.drift ? await reviewDrift(engine, stack) : await deploy(engine, stack);
  } finally {
    await emulator?.close();
  }
}

/**
 * The instance the program deploys to: `configured` (the stack config's webhooks:baseUrl, which
 * wins over the environment), else the embedded emulator (started, and returned).
 */
async function instanceFor(stack: Stack, configured: string | undefined): Promise<RunningEmulator | undefined> {
  if (configured) {
    say(`instance: ${redact(configured)} (stack config webhooks:baseUrl); the embedded emulator is not started`);
    return undefined;
  }
  const emulator = await startEmbeddedEmulator(ROOT, say);
  say(`instance: the embedded emulator at ${emulator.url} (state: ${EMULATOR_DIR}/)`);
  say(`  its API description, while this runs: ${emulator.url}${SWAGGER_PATH} (Swagger UI; docs/emulator.md)`);
  say("  to deploy elsewhere: `pulumi config set webhooks:baseUrl <url>` (and webhooks:token) on this stack");
  Object.assign(stack.workspace.envVars, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });
  return emulator;
}

/** Refresh, then up; the closing notes either way. */
async function deploy(engine: Engine, stack: Stack): Promise<number> {
  const output = engineOutput(process.stdout, process.stderr);
  const options = { color: process.stdout.isTTY ? ("always" as const) : ("never" as const), ...output.callbacks };
  try {
    say(`refreshing stack "${STACK}" from the instance:`);
    const refresh = await stack.refresh(options);
    const drift = describeChanges(refresh.summary.resourceChanges, { update: "changed", delete: "gone" });
    say(drift ? `out of band: ${drift}; the update below puts them back` : "the instance matches the state");

    say(`updating stack "${STACK}":`);
    const up = await stack.up(options);
    const applied = describeChanges(up.summary.resourceChanges, {
      create: "created",
      update: "updated",
      delete: "deleted",
      replace: "replaced",
    });
    say(applied ? `${up.summary.result}: ${applied}` : "no changes: the instance matches the program");
    closingNotes(engine);
    return 0;
  } catch (err) {
    // The engine's lines were streamed already: one line says what failed, not the whole output again.
    say(`failed: ${failureLine(err, output.printedErrors)}`);
    closingNotes(engine);
    return 1;
  }
}

/** The drift review of this stack, on the instance it deploys to: the bin's `drift` command. */
async function reviewDrift(engine: Engine, stack: Stack): Promise<number> {
  Object.assign(process.env, engineEnv(engine, BACKEND_DIR), stack.workspace.envVars);
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

/** Stack secrets the program requires, generated once and kept (encrypted) in the stack's config. */
async function ensureSecretConfig(stack: Stack, all: ConfigMap, key: string): Promise<void> {
  const fullKey = `webhook-subscriptions:${key}`;
  if (all[fullKey]) return;
  await stack.setConfig(fullKey, { value: randomBytes(16).toString("hex"), secret: true });
  say(`generated the secret ${fullKey} for this stack`);
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[start] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
