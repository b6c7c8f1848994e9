/**
 * `npm start [-- --fast]`: the main job. Runs the root program (Pulumi.yaml → infra/) on the real
 * engine with a file backend in .pulumi-state/: `up` with the refresh folded in (one engine run:
 * what changed or vanished out of band is put back by the update, and said so). The instance is the
 * embedded emulator (state in .emulator/, at a stable address), unless the stack config names one
 * with webhooks:baseUrl. Each failure is printed once. It ends with how to inspect the stack,
 * review its drift, deploy elsewhere and clean up: commands that work as printed, in a fresh shell.
 *
 * Where the embedded emulator's address goes: into the run's environment (WEBHOOKS_BASE_URL), never
 * into the stack config, so that its port can move between runs. A webhooks:baseUrl in the stack
 * config wins; when the embedded emulator still holds subscriptions then, it is started as well:
 * the old default provider of the state (recorded without a baseUrl) reads them there through
 * WEBHOOKS_BASE_URL, and the update moves them to the configured instance, unsubscribing them from
 * the emulator (docs/multi-instance.md, "A subscription records its instance").
 *
 * `npm start -- --drift`: the drift review of the same stack on the same instance (the embedded
 * emulator serving its saved state while it runs); exit 0 no drift, 2 drift, 1 error. It never
 * creates a stack: one the backend does not hold is refused, as `webhook-subscriptions drift` does.
 *
 * The program loads the package from dist/, so dist/ is brought up to date first (scripts/build.ts:
 * nothing to do when nothing changed); `--help` prints the usage before anything else.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { BUILDER_TOKEN, type RunningEmulator } from "../emulator";
import { adminTokenProblem } from "../emulator/options";
import { redact } from "../provider/client";
import { directoryProgram, engineEnv, inProcess, LOCAL_PASSPHRASE } from "../engine/automation";
import { inlineUp } from "../engine/inlineUp";
import { pulumiRun } from "../engine/pulumiRun";
import { engineOutput, failureLine } from "../engine/output";
import { engineRoot, provisionEngine, type Engine } from "../engine/provision";
import { shellWord } from "../drift/review/shellWord";
import { SWAGGER_PATH } from "../emulator/swaggerRoutes";
import { packageVersion, type CommandContext } from "../cli/command";
import { build, repositoryRoot } from "./build";
import { EMULATOR_DIR, hasState, heldSubscriptions, startEmbeddedEmulator } from "./embeddedEmulator";
import { backendStacks, configValue, ensureSecret, ensureStack, type StartStack } from "./startStack";
import { describeChanges, refreshChanges } from "./startSummary";

const ROOT = repositoryRoot();
const STACK = process.env.WEBHOOKS_STACK ?? "dev";
/** What a printed command sets before `npm start` to reach this stack again. */
const STACK_ENV = STACK === "dev" ? "" : `WEBHOOKS_STACK=${shellWord(STACK)} `;
/** The command that reviews this stack's drift again, as the closing notes and the report print it. */
const DRIFT_AGAIN = `${STACK_ENV}npm start -- --drift`;
const BACKEND_DIR = join(ROOT, ".pulumi-state");

function say(line: string): void {
  console.log(`[start] ${line}`);
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
  if (values.drift) {
    const stacks = backendStacks(stack);
    if (stacks.length === 0 && !hasState(ROOT) && !configured) {
      say("nothing to review yet: `npm start` deploys the stack first");
      return 1;
    }
    // A review never creates the stack: one the backend lacks is refused by the review itself.
    if (!stacks.includes(STACK)) return reviewDrift(stack);
  } else {
    await ensureStack(stack);
    const secret = "webhook-subscriptions:receiverApiKey";
    if (await ensureSecret(stack, secret)) say(`generated the secret ${secret} for this stack`);
  }
  const emulator = await instanceFor(stack, configured);
  try {
    return values.drift ? await reviewDrift(stack) : await deploy(engine, stack, !configured);
  } finally {
    await emulator?.close();
  }
}

/**
 * The instance the program deploys to: `configured` (the stack config's webhooks:baseUrl, which
 * wins over the environment), else the embedded emulator. The embedded emulator is started (and
 * returned) when it is the instance, or when it still holds subscriptions a move to the configured
 * instance reads and unsubscribes there.
 */
async function instanceFor(stack: StartStack, configured: string | undefined): Promise<RunningEmulator | undefined> {
  const held = configured ? await heldSubscriptions(ROOT) : 0;
  if (configured && held === 0) {
    say(`instance: ${redact(configured)} (stack config webhooks:baseUrl); the embedded emulator is not started`);
    return undefined;
  }
  if (configured) {
    // The move unsubscribes from the emulator with the stack's credentials: it accepts the token too.
    const token = (await configValue(stack, "webhooks:token")) ?? process.env.WEBHOOKS_TOKEN;
    const usable = token !== undefined && adminTokenProblem(token) === undefined;
    const emulator = await startEmbeddedEmulator(ROOT, say, usable ? { adminToken: token } : {});
    // The old default provider of the state has no baseUrl nor token: it reads these (config wins for the new one).
    Object.assign(stack.env, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: token ?? BUILDER_TOKEN });
    say(`instance: ${redact(configured)} (stack config webhooks:baseUrl)`);
    say(
      `  the embedded emulator is started too, at ${emulator.url}: it still holds ${held} subscription(s); ` +
        "those of this stack move to the configured instance (created there, then unsubscribed here)",
    );
    return emulator;
  }
  const emulator = await startEmbeddedEmulator(ROOT, say);
  // The environment, not the stack config: its port may move, and a webhooks:baseUrl set later wins.
  Object.assign(stack.env, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: BUILDER_TOKEN });
  say(`instance: the embedded emulator at ${emulator.url} (state: ${EMULATOR_DIR}/)`);
  say(`  its API description, while this runs: ${emulator.url}${SWAGGER_PATH} (Swagger UI; docs/emulator.md)`);
  return emulator;
}

/**
 * `up` with the refresh folded in (`pulumi up --refresh`: one engine run, the program in this
 * process), what the refresh found and what the update did read from its events; the closing
 * notes either way.
 */
async function deploy(engine: Engine, stack: StartStack, embedded: boolean): Promise<number> {
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
    closingNotes(engine, embedded);
    return 0;
  } catch (err) {
    // The engine's lines were streamed already: one line says what failed, not the whole output again.
    say(`failed: ${failureLine(err, output.printedErrors)}`);
    closingNotes(engine, embedded);
    return 1;
  }
}

/**
 * The drift review of this stack, on the instance it deploys to: the bin's `drift` command. Its
 * report ends with the command that runs it again: this one, since the drift command alone would
 * find no instance once the embedded emulator has stopped.
 */
async function reviewDrift(stack: StartStack): Promise<number> {
  Object.assign(process.env, stack.env);
  // Loaded only here: the drift review's modules are not the deploy's.
  const { driftCommand } = await import("../cli/drift");
  const context = { invocation: "package", version: packageVersion(), rerun: DRIFT_AGAIN } satisfies CommandContext;
  return driftCommand.run(["--stack", STACK, "--cwd", ROOT], context);
}

/**
 * How to look at the stack afterwards, review its drift, deploy it elsewhere (when it ran on the
 * embedded emulator), and remove everything this command made. Each block works as printed when
 * pasted into a fresh shell (test/e2e/frontDoor.test.ts and startMove.test.ts run them). A
 * passphrase that came from the environment is asked for, never printed: a fresh shell has no
 * `$PULUMI_CONFIG_PASSPHRASE` to expand, and the value must not reach the terminal or a log.
 */
function closingNotes(engine: Engine, embedded: boolean): void {
  const root = shellWord(ROOT);
  const backend = `PULUMI_BACKEND_URL=${shellWord(pathToFileURL(BACKEND_DIR).href)}`;
  const askPassphrase = process.env.PULUMI_CONFIG_PASSPHRASE
    ? [
        `read -rsp "the stack's passphrase (PULUMI_CONFIG_PASSPHRASE of that run): " PULUMI_CONFIG_PASSPHRASE && echo && export PULUMI_CONFIG_PASSPHRASE`,
      ]
    : [];
  const passphrase = askPassphrase.length > 0 ? "" : ` PULUMI_CONFIG_PASSPHRASE=${LOCAL_PASSPHRASE}`;
  const stack = shellWord(STACK);
  const cli = [
    `cd ${root}`,
    `export PATH=${shellWord(engine.binDir)}:"$PATH" ${backend}${passphrase}`,
    ...askPassphrase,
  ];
  const blocks: Array<[string, string[]]> = [
    [
      "inspect the stack:",
      [
        ...cli,
        `pulumi stack output --stack ${stack} --show-secrets     # also: pulumi stack --stack ${stack} --show-urns`,
      ],
    ],
    [
      "review drift (exit 0: none, 2: drift, 1: error; in a project of your own: npx webhook-subscriptions drift --stack <name>):",
      [`cd ${root}`, ...askPassphrase, DRIFT_AGAIN],
    ],
  ];
  if (embedded)
    blocks.push([
      "deploy elsewhere (the next npm start moves the subscriptions: created on <url>, then unsubscribed from the embedded emulator):",
      [
        ...cli,
        `pulumi config set webhooks:baseUrl '<url>' --stack ${stack}`,
        `pulumi config set webhooks:token --secret --stack ${stack}     # asks for the instance's token`,
        `${STACK_ENV}npm start`,
      ],
    ]);
  blocks.push(
    ["clean up:", [`cd ${root} && rm -rf ${EMULATOR_DIR}/ .pulumi-state/ Pulumi.${stack}.yaml`]],
    [
      "and the engine cache, if you like (shared by every checkout; `npm run engine` makes it again):",
      [`rm -rf ${shellWord(engineRoot())}`],
    ],
  );
  for (const [heading, commands] of blocks) {
    say(heading);
    for (const command of commands) say(`  ${command}`);
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[start] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
