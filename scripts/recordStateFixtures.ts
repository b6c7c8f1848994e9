/**
 * Records the state fixtures of test/fixtures/state/ (README.md there) from real runs against the
 * emulator, and holds what the recording and the test that reads the fixtures
 * (test/e2e/stateFixtures.test.ts) share: where the instance is, the stack, the passphrase, how a
 * fixture's program is laid out in a project directory.
 *
 *   npm run build:plugin                                  # dist/ and the plugin, from this checkout
 *   npx tsx scripts/recordStateFixtures.ts <name> …       # dynamic, native, terraform
 *   npx tsx scripts/recordStateFixtures.ts --out /tmp/try native   # elsewhere, the fixtures untouched
 *
 * Each fixture: the emulator on FIXTURE_BASE_URL with a fresh state file; `pulumi up` (or `tofu
 * apply`) of the fixture's program; then each Signature the emulator made is replaced by an
 * obviously fake one in the emulator's state file, and `pulumi refresh` (`tofu apply
 * -refresh-only`) records it, so no random value that looks like a secret lands in the
 * repository; then the state is exported (stack.json, terraform.tfstate) and the emulator's state
 * file kept as live.json, the subscriptions the test seeds the emulator with. The native stack's
 * `legacy-packets` is then edited to `webhook: 0` (inputs and outputs), the form state had before
 * event names, which no current code writes.
 *
 * Fixtures are recorded once per release that changes the state's shape, into a new folder, and
 * never recorded again (docs/release.md, "State written by earlier releases").
 */
import { execFile } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startEmulator } from "../emulator";
import { provisionEngine } from "../engine/provision";
import { provisionTofu } from "../engine/tofu";

const execFileAsync = promisify(execFile);

const REPO = join(__dirname, "..");
/** Where the fixtures are. */
export const STATE_FIXTURES_DIR = join(REPO, "test", "fixtures", "state");
/** The fixtures, by folder name. */
export const STATE_FIXTURES = ["dynamic", "native", "terraform"] as const;
export type StateFixture = (typeof STATE_FIXTURES)[number];

/**
 * The instance every fixture was recorded on. Each subscription's state records it (`baseUrl`,
 * `base_url`), so the test serves the emulator at the same address: a fixed loopback port below
 * Linux's ephemeral range, where `port: 0` listeners never land.
 */
export const FIXTURE_PORT = 28751;
export const FIXTURE_BASE_URL = `http://127.0.0.1:${FIXTURE_PORT}`;
/** The emulator's fixed Builder token: a test value, never a real one. */
export const FIXTURE_TOKEN = "dev-builder";
/** The Pulumi stacks' name. */
export const FIXTURE_STACK = "fixture";
/** The passphrase the Pulumi stacks' secrets are encrypted with (the passphrase secrets provider). */
export const FIXTURE_PASSPHRASE = "state-fixtures-test-passphrase";
/** The native stack's subscription recorded as `webhook: 0`. */
export const LEGACY_WEBHOOK_RESOURCE = "legacy-packets";

/**
 * Lays out `fixture`'s program in `dir`: its files, plus for the dynamic one a package.json of its
 * own (else the language host takes this repository's and runs its main), for the native one the
 * plugin by path (`pluginDir`, the folder `npm run build:plugin` writes).
 */
export function writeFixtureProgram(fixture: StateFixture, dir: string, pluginDir: string): void {
  mkdirSync(dir, { recursive: true });
  const from = join(STATE_FIXTURES_DIR, fixture);
  const files = { dynamic: ["Pulumi.yaml", "index.ts"], native: ["Pulumi.yaml"], terraform: ["main.tf"] }[fixture];
  for (const file of files) copyFileSync(join(from, file), join(dir, file));
  if (fixture === "dynamic")
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "state-fixture-dynamic", main: "index.ts" }));
  if (fixture === "native")
    appendFileSync(
      join(dir, "Pulumi.yaml"),
      `plugins:\n  providers:\n    - name: webhooks\n      path: ${pluginDir}\n`,
    );
}

/** The registry hosts a provider address may name: OpenTofu's and Terraform's. */
const REGISTRY_HOSTS = ["registry.opentofu.org", "registry.terraform.io"];

/**
 * A CLI configuration in `dir` installing the plugin in `pluginDir` as the Terraform provider
 * `webhook-subscriptions/webhooks`, from an unpacked filesystem mirror (so `init` works offline,
 * as a user's does): the executable there starts the plugin's entry with this Node.js, which opens
 * the Terraform door when Terraform's magic cookie is set. Returns the file, for TF_CLI_CONFIG_FILE.
 */
export function providerMirrorCliConfig(dir: string, pluginDir: string): string {
  const version = (JSON.parse(readFileSync(join(pluginDir, "package.json"), "utf8")) as { version: string }).version;
  const platform = `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
  const mirror = join(dir, "mirror");
  for (const host of REGISTRY_HOSTS) {
    const folder = join(mirror, host, "webhook-subscriptions", "webhooks", version, platform);
    mkdirSync(folder, { recursive: true });
    const executable = join(folder, `terraform-provider-webhooks_v${version}`);
    writeFileSync(executable, `#!/bin/sh\nexec "${process.execPath}" "${join(pluginDir, "index.js")}" "$@"\n`);
    chmodSync(executable, 0o755);
  }
  const config = join(dir, "cli.tfrc");
  writeFileSync(
    config,
    `provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`,
  );
  return config;
}

/** What the environment of `pulumi` for the fixtures' stacks sets: the engine's bin first on PATH, a home and a file backend of its own under `root`, the passphrase and the token. */
export function fixturePulumiEnv(engineBin: string, root: string): NodeJS.ProcessEnv {
  const backend = join(root, "backend");
  mkdirSync(backend, { recursive: true });
  return {
    PATH: [engineBin, process.env.PATH].join(delimiter),
    PULUMI_HOME: join(root, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_BACKEND_URL: pathToFileURL(backend).href,
    PULUMI_CONFIG_PASSPHRASE: FIXTURE_PASSPHRASE,
    WEBHOOKS_TOKEN: FIXTURE_TOKEN,
  };
}

/** The obviously fake Signature that replaces the emulator's `n`th of `fixture` (from 1). */
export function fakeSignature(fixture: StateFixture, n: number): string {
  return `fixture-signature-${fixture}-${n}-not-a-secret`;
}

/** Runs `command`, its output shown only when it fails. */
async function sh(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout ?? ""}\n${stderr ?? ""}`, {
      cause: err,
    });
  }
}

/** The emulator state file with each Signature replaced by `fakeSignature`. */
function fakeSignatures(statePath: string, fixture: StateFixture): void {
  const state = JSON.parse(readFileSync(statePath, "utf8")) as { subscriptions: { Signature: string }[] };
  state.subscriptions.forEach((s, i) => (s.Signature = fakeSignature(fixture, i + 1)));
  writeFileSync(statePath, `${JSON.stringify(state, null, 2)}\n`);
}

/** The native deployment with LEGACY_WEBHOOK_RESOURCE's event as the integer 0 (PacketCreated) in inputs and outputs. */
function legacyWebhookForm(deployment: string): string {
  const json = JSON.parse(deployment) as {
    deployment: { resources: { urn: string; inputs?: { webhook?: unknown }; outputs?: { webhook?: unknown } }[] };
  };
  const legacy = json.deployment.resources.find((r) => r.urn.endsWith(`::${LEGACY_WEBHOOK_RESOURCE}`));
  if (!legacy?.inputs || !legacy.outputs || legacy.outputs.webhook !== "PacketCreated")
    throw new Error(`the native stack has no ${LEGACY_WEBHOOK_RESOURCE} recording webhook "PacketCreated"`);
  legacy.inputs.webhook = 0;
  legacy.outputs.webhook = 0;
  return `${JSON.stringify(json, null, 4)}\n`;
}

/** Records one fixture into test/fixtures/state/<fixture>/. */
async function record(
  fixture: StateFixture,
  into: string,
  tools: { engineBin: string; tofu: string; pluginDir: string },
) {
  const root = mkdtempSync(join(REPO, ".work", `state-fixture-${fixture}-`));
  const statePath = join(root, "emulator.json");
  const dir = join(root, "program");
  writeFixtureProgram(fixture, dir, tools.pluginDir);
  const out = join(into, fixture);
  mkdirSync(out, { recursive: true });
  const serve = () => startEmulator({ port: FIXTURE_PORT, statePath });

  let emulator = await serve();
  try {
    if (fixture === "terraform") {
      const env = {
        ...process.env,
        TF_CLI_CONFIG_FILE: providerMirrorCliConfig(root, tools.pluginDir),
        TF_IN_AUTOMATION: "1",
        CHECKPOINT_DISABLE: "1",
        WEBHOOKS_BASE_URL: FIXTURE_BASE_URL,
        WEBHOOKS_TOKEN: FIXTURE_TOKEN,
      };
      const tofu = (args: string[]) => sh(tools.tofu, [...args, "-no-color"], dir, env);
      await tofu(["init", "-input=false"]);
      await tofu(["apply", "-auto-approve", "-input=false"]);
      await emulator.close();
      fakeSignatures(statePath, fixture);
      emulator = await serve();
      await tofu(["apply", "-refresh-only", "-auto-approve", "-input=false"]);
      copyFileSync(join(dir, "terraform.tfstate"), join(out, "terraform.tfstate"));
    } else {
      const env = { ...process.env, ...fixturePulumiEnv(tools.engineBin, root) };
      const pulumi = (args: string[]) => sh("pulumi", [...args, "--stack", FIXTURE_STACK], dir, env);
      await sh("pulumi", ["stack", "init", FIXTURE_STACK, "--secrets-provider", "passphrase"], dir, env);
      await pulumi(["config", "set", "webhooks:baseUrl", FIXTURE_BASE_URL]);
      await pulumi(["up", "--yes", "--skip-preview"]);
      await emulator.close();
      fakeSignatures(statePath, fixture);
      emulator = await serve();
      await pulumi(["refresh", "--yes", "--skip-preview"]);
      const deployment = await pulumi(["stack", "export"]);
      writeFileSync(join(out, "stack.json"), fixture === "native" ? legacyWebhookForm(deployment) : deployment);
    }
  } finally {
    await emulator.close();
  }
  copyFileSync(statePath, join(out, "live.json"));
  rmSync(root, { recursive: true, force: true });
  console.log(`recorded ${out}`);
}

async function main(args: string[]): Promise<void> {
  // --out <dir>: somewhere else than test/fixtures/state/, e.g. to try the recording without touching the fixtures.
  const at = args.indexOf("--out");
  const into = at >= 0 ? resolve(args[at + 1] ?? "") : STATE_FIXTURES_DIR;
  const names = at >= 0 ? args.filter((_, i) => i !== at && i !== at + 1) : args;
  const unknown = names.filter((n) => !(STATE_FIXTURES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0 || (at >= 0 && !args[at + 1]))
    throw new Error(`usage: npx tsx scripts/recordStateFixtures.ts [--out <dir>] ${STATE_FIXTURES.join("|")} …`);
  const pluginDir = join(REPO, "dist", "plugin", "webhooks");
  if (!existsSync(join(pluginDir, "index.js")))
    throw new Error("no plugin in dist/plugin/webhooks: run `npm run build:plugin` first");
  const engine = await provisionEngine({ languageHostSource: process.env.WEBHOOKS_LANGUAGE_HOST_SOURCE });
  const tofu = await provisionTofu();
  mkdirSync(join(REPO, ".work"), { recursive: true });
  for (const name of names)
    await record(name as StateFixture, into, { engineBin: engine.binDir, tofu: tofu.path, pluginDir });
}

if (require.main === module)
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
