/**
 * `npm start`: the main job on the embedded default. Starts the emulator (state kept in
 * .emulator/), runs the root program (Pulumi.yaml) on the real engine with a file backend in
 * .pulumi-state/, prints the plan and the result. A second run reports no changes.
 */
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { startEmulator } from "../emulator";
import { openStack } from "../engine/automation";
import { provisionEngine } from "../engine/provision";

const ROOT = resolve(__dirname, "..");
const STACK = process.env.WEBHOOKS_STACK ?? "dev";

function say(line: string): void {
  console.log(`[start] ${line}`);
}

async function main(): Promise<void> {
  const engine = await provisionEngine({ log: (line) => say(`engine: ${line}`) });
  const emulator = await startEmulator({ port: 0, statePath: join(ROOT, ".emulator", "state.json") });
  say(`webhook emulator listening on ${emulator.url} (state: .emulator/state.json)`);
  try {
    const stack = await openStack({
      engine,
      backendDir: join(ROOT, ".pulumi-state"),
      stackName: STACK,
      workDir: ROOT,
      env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" },
    });
    await ensureSecretConfig(stack, "receiverApiKey");
    const color = process.stdout.isTTY ? "always" : "never";
    const print = (text: string) => process.stdout.write(text);

    say(`plan for stack "${STACK}":`);
    const preview = await stack.preview({ color, onOutput: print });
    const planned = Object.entries(preview.changeSummary).filter(([op, n]) => op !== "same" && n > 0);
    if (planned.length === 0) {
      say("no changes: the stack already matches the program");
      return;
    }
    say(`applying: ${planned.map(([op, n]) => `${n} to ${op}`).join(", ")}`);
    const up = await stack.up({ color, onOutput: print });
    const changes = Object.entries(up.summary.resourceChanges ?? {}).filter(([op]) => op !== "same");
    say(
      `${up.summary.result}: ${changes.map(([op, n]) => `${n} ${op}d`.replace("eed", "ed")).join(", ") || "no changes"}`,
    );
    say("run `npm start` again: it reports no changes");
  } finally {
    await emulator.close();
  }
}

/** Stack secrets the program requires, generated once and kept (encrypted) in the stack's config. */
async function ensureSecretConfig(stack: Awaited<ReturnType<typeof openStack>>, key: string): Promise<void> {
  const all = await stack.getAllConfig();
  const fullKey = `webhook-subscriptions:${key}`;
  if (all[fullKey]) return;
  await stack.setConfig(fullKey, { value: randomBytes(16).toString("hex"), secret: true });
  say(`generated the secret ${fullKey} for this stack`);
}

main().catch((err: unknown) => {
  console.error(`[start] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
