/**
 * `npm start [-- --fast]`: the main job. Runs the root program (Pulumi.yaml → infra/) on the real
 * engine with a file backend in .pulumi-state/: refresh first (what changed or vanished out of
 * band is put back by the update that follows, and said so), then `up`. The instance is the
 * embedded emulator (state in .emulator/), unless the stack config names one with webhooks:baseUrl.
 * Each failure is printed once. It ends with how to inspect the stack and how to clean up.
 */
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { Stack } from "@pulumi/pulumi/automation";
import { startEmulator, type RunningEmulator } from "../emulator";
import { redact } from "../provider/client";
import { LOCAL_PASSPHRASE, openStack } from "../engine/automation";
import { engineOutput, failureLine } from "../engine/output";
import { engineRoot, provisionEngine, type Engine } from "../engine/provision";

const ROOT = resolve(__dirname, "..");
const STACK = process.env.WEBHOOKS_STACK ?? "dev";
const BACKEND_DIR = join(ROOT, ".pulumi-state");
const EMULATOR_STATE = join(ROOT, ".emulator", "state.json");

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

async function main(): Promise<number> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { fast: { type: "boolean" } } });
  const engine = await provisionEngine({ log: (line) => say(`engine: ${line}`) });
  const stack = await openStack({
    engine,
    backendDir: BACKEND_DIR,
    stackName: STACK,
    workDir: ROOT,
    env: values.fast ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {},
  });
  await ensureSecretConfig(stack, "receiverApiKey");

  // The stack config wins over the environment, so a configured baseUrl is where the program deploys.
  const configured = (await stack.getAllConfig())["webhooks:baseUrl"]?.value;
  let emulator: RunningEmulator | undefined;
  if (configured) {
    say(`instance: ${redact(configured)} (stack config webhooks:baseUrl); the embedded emulator is not started`);
  } else {
    emulator = await startEmulator({ port: 0, statePath: EMULATOR_STATE });
    say(`instance: the embedded emulator at ${emulator.url} (state: .emulator/state.json)`);
    say("  to deploy elsewhere: `pulumi config set webhooks:baseUrl <url>` (and webhooks:token) on this stack");
    Object.assign(stack.workspace.envVars, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });
  }

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
  } finally {
    await emulator?.close();
  }
}

/** How to look at the stack afterwards, and how to remove everything this command made. */
function closingNotes(engine: Engine): void {
  const passphrase = process.env.PULUMI_CONFIG_PASSPHRASE ? '"$PULUMI_CONFIG_PASSPHRASE"' : LOCAL_PASSPHRASE;
  const lines = [
    "inspect the stack (from the repository root):",
    `  export PULUMI_BACKEND_URL=file://${BACKEND_DIR} PULUMI_CONFIG_PASSPHRASE=${passphrase}`,
    `  export PATH="${engine.binDir}:$PATH"`,
    `  pulumi stack output --stack ${STACK} --show-secrets     # also: pulumi stack --stack ${STACK} --show-urns`,
    "review drift (the emulator keeps its state in .emulator/state.json):",
    "  npm run emulator -- --port 8080 --state .emulator/state.json &",
    `  WEBHOOKS_BASE_URL=http://127.0.0.1:8080 WEBHOOKS_TOKEN=dev-builder npm run drift -- --stack ${STACK}`,
    `clean up: rm -rf .emulator/ .pulumi-state/ Pulumi.${STACK}.yaml`,
    `  and the engine cache, shared by every checkout (\`npm run engine\` makes it again): rm -rf ${engineRoot()}`,
  ];
  for (const line of lines) say(line);
}

/** Stack secrets the program requires, generated once and kept (encrypted) in the stack's config. */
async function ensureSecretConfig(stack: Stack, key: string): Promise<void> {
  const all = await stack.getAllConfig();
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
