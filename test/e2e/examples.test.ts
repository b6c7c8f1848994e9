/**
 * examples/README.md, run as a reader runs it: its `sh` blocks (setup, one per example, clean-up;
 * the terraform example's commands are docs/terraform.md's, run by terraformDoc.test.ts), in order, in one bash session, in a fresh copy of the repository, on the real engine. Each
 * example's last `up` runs a second time and must change nothing; after the clean-up the copy
 * holds exactly the files it held before and the background processes are gone.
 *
 * Two edits to the page's text, both explicit below: the setup's ports line gets free ports (8080,
 * 8081 and 3000 may be taken on a shared machine), and its `npm ci` line is left out because the
 * copy is installed and built already (see test/support/repoCopy.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyRepository } from "../support/repoCopy";
import { freePort } from "../support/freePort";
import { requireEngine } from "../support/engine";
import { shellSections, type ShellSection } from "../support/shellBlocks";
import { ShellSession, terminalEnv } from "../support/shellSession";

const EXAMPLES = [
  "basic",
  "legacy",
  "adopt",
  "receiver",
  "multi-instance",
  "yaml",
  "python",
  "typescript-native",
  "go",
  "java",
  "policy-pack",
  "terraform",
  "pipelines",
];
/** Examples the page compiles and does not run: test/e2e/install.test.ts runs Go and Java as users install them. */
const COMPILED_ONLY = ["go", "java"];
/** A policy pack, run over another example's stack. */
const POLICY_PACKS = ["policy-pack"];
/**
 * No block here: HCL, whose commands are docs/terraform.md's (run by e2e/terraformDoc.test.ts), and
 * the CI pipelines, which run under act and gitlab-ci-local (e2e/action.test.ts, gitlabTemplate.test.ts).
 */
const TERRAFORM = ["terraform", "pipelines"];
/** The examples with a stack. */
const STACKS = EXAMPLES.filter(
  (example) => !COMPILED_ONLY.includes(example) && !POLICY_PACKS.includes(example) && !TERRAFORM.includes(example),
);
const SETUP = "Setup";
const CLEAN_UP = "Clean up";

/** The setup's one line of ports: the only values this test changes. */
const PORTS_LINE = /^export EMULATOR_PORT=\d+ PRODUCTION_PORT=\d+ RECEIVER_PORT=\d+(?=\s)/m;
/** The setup's `npm ci`: already done for the copy. */
const NPM_CI_LINE = /^npm ci(\s.*)?\n/m;
/** An example's `up`, as the page writes it. */
const UP_LINE = /^(npx webhook-subscriptions up --cwd \S+|pulumi -C \S+ up --yes) --stack \S+(\s+#.*)?$/;

/** Whether something accepts connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The GUIDs of the subscriptions an emulator holds (the page's emulators answer the dev token). */
async function guidsOn(port: number): Promise<string[]> {
  const response = await fetch(
    `http://127.0.0.1:${port}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`,
    { headers: { authorization: "Bearer dev-builder" } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { GUID: string }[]).map((subscription) => subscription.GUID);
}

/** The lines of the engine's last "Resources:" summary in `output`, e.g. ["+ 5 created"]. */
function lastSummary(output: string): string[] {
  const at = output.lastIndexOf("\nResources:\n");
  if (at < 0) return [];
  const lines = output.slice(at + "\nResources:\n".length).split("\n");
  return lines
    .slice(
      0,
      lines.findIndex((line) => line.trim() === ""),
    )
    .map((line) => line.trim());
}

/** Every file and directory under `dir`, relative, except git's and the installed packages. */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !/^(\.git|node_modules)(\/|$)/.test(path))
    .sort();
}

/**
 * The stack outputs `packetCreatedGuid` and `objectCreatedGuid` (as `stack output` prints them)
 * are live.
 */
async function expectOutputGuidsLive(output: string): Promise<void> {
  const guids = ["packetCreatedGuid", "objectCreatedGuid"].map(
    (name) => new RegExp(`^\\s*${name}\\s+([0-9a-f-]{36})\\s*$`, "m").exec(output)?.[1],
  );
  expect(guids, output).toEqual([expect.any(String), expect.any(String)]);
  const live = await guidsOn(ports.emulator);
  for (const guid of guids) expect(live).toContain(guid);
}

let root: string;
let repo: string;
let shell: ShellSession;
let sections: Map<string, ShellSection>;
let ports: { emulator: number; production: number; receiver: number };
let before: string[];

/** Runs a section of the page; then, for an example, its last `up` again, which must change nothing. */
async function runSection(heading: string): Promise<string> {
  const section = sections.get(heading);
  expect(section, `examples/README.md has a "## ${heading}" section with an sh block`).toBeDefined();
  const output = await shell.run(section!.script);
  if (!STACKS.includes(heading)) return output;
  const up = section!.script.split("\n").filter((line) => UP_LINE.test(line.trim()));
  expect(up.length, `the "${heading}" block runs the example with npx webhook-subscriptions up`).toBeGreaterThan(0);
  const again = await shell.run(up.at(-1)!.trim());
  const summary = lastSummary(again);
  expect(summary, `a second up of "${heading}" changes nothing:\n${again}`).toHaveLength(1);
  expect(summary[0], `a second up of "${heading}" changes nothing:\n${again}`).toMatch(/^\d+ unchanged$/);
  return output;
}

beforeAll(async () => {
  requireEngine();
  root = mkdtempSync(join(tmpdir(), "examples-e2e-"));
  repo = join(root, "repo");
  await copyRepository(repo);
  before = listing(repo);

  const page = readFileSync(join(repo, "examples", "README.md"), "utf8");
  sections = new Map(shellSections(page).map((section) => [section.heading, section]));
  ports = { emulator: await freePort(), production: await freePort(), receiver: await freePort() };
  const setup = sections.get(SETUP);
  if (!setup) throw new Error('examples/README.md has no "## Setup" section with an sh block');
  for (const line of [PORTS_LINE, NPM_CI_LINE]) {
    const count = setup.script.match(new RegExp(line.source, "gm"))?.length ?? 0;
    if (count !== 1) throw new Error(`the setup block must have exactly one line matching ${line}; found ${count}`);
  }
  const script = setup.script
    .replace(NPM_CI_LINE, "")
    .replace(
      PORTS_LINE,
      `export EMULATOR_PORT=${ports.emulator} PRODUCTION_PORT=${ports.production} RECEIVER_PORT=${ports.receiver}`,
    );
  sections.set(SETUP, { heading: SETUP, script });

  // Pulumi's bookkeeping (each project's selected stack) and npx's entry for the copy (`npx` of a
  // package's own bin installs the package into npm's cache) stay with the copy, not in ~/.pulumi, ~/.npm.
  const pulumiHome = join(root, "pulumi-home");
  mkdirSync(pulumiHome);
  shell = ShellSession.start(
    repo,
    terminalEnv({
      PULUMI_HOME: pulumiHome,
      npm_config_cache: join(root, "npm-cache"),
    }),
  );
}, 600_000);

afterAll(async () => {
  await shell?.closeKeepingTranscript("examples-transcript.txt");
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("examples/README.md", () => {
  it("has a section for every example, between the setup and the clean-up", () => {
    const examples = readdirSync(join(repo, "examples"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...examples].sort()).toEqual([...EXAMPLES].sort());
    expect([...sections.keys()]).toEqual([SETUP, ...EXAMPLES.filter((e) => !TERRAFORM.includes(e)), CLEAN_UP]);
  });

  it("setup: the emulator listens", async () => {
    await runSection(SETUP);
    expect(await listening(ports.emulator)).toBe(true);
  });

  it("basic: five resources created, the secret output shown when asked for", async () => {
    const output = await runSection("basic");
    expect(output).toContain("+ 5 created");
    expect(output).toMatch(/createdSignature\s+[0-9a-f-]{36}/);
  });

  it("legacy: the changed path replaces the subscription, and the old one is unsubscribed", async () => {
    const output = await runSection("legacy");
    expect(lastSummary(output)).toEqual(["+-1 replaced", "1 unchanged"]);
    const [, previous, next] = /~ guid\s*: "([0-9a-f-]{36})" => "([0-9a-f-]{36})"/.exec(output) ?? [];
    const live = await guidsOn(ports.emulator);
    expect(live).toContain(next);
    expect(live).not.toContain(previous);
  });

  it("adopt: the existing subscription's GUID is kept", async () => {
    const output = await runSection("adopt");
    const guid = (await shell.run('printf "%s\\n" "$GUID"')).trim();
    expect(guid).toMatch(/^[0-9a-f-]{36}$/);
    expect(output).toMatch(new RegExp(`guid\\s*: "${guid}"`));
  });

  it("receiver: the genuine message is accepted, the forged one refused", async () => {
    const output = await runSection("receiver");
    expect(output).toContain("accepted /hooks:");
    expect(output).toContain('"status":204');
    expect(output).toContain("HTTP/1.1 401 Unauthorized");
  });

  it("multi-instance: two subscriptions on each instance", async () => {
    const output = await runSection("multi-instance");
    expect(output).toContain("+ 6 created");
    for (const port of [ports.emulator, ports.production])
      expect(output.match(new RegExp(`instance: "http://127\\.0\\.0\\.1:${port}"`, "g"))).toHaveLength(2);
    expect(await guidsOn(ports.production)).toHaveLength(2);
  });

  it("yaml: the native plugin creates the program's two subscriptions", async () => {
    const before = (await guidsOn(ports.emulator)).length;
    const output = await runSection("yaml");
    expect(output).toMatch(/\+ 3 created/);
    expect((await guidsOn(ports.emulator)).length).toBe(before + 2);
  });

  it("python: the generated SDK, as a wheel in a fresh virtualenv, creates the program's two subscriptions", async () => {
    const output = await runSection("python");
    expect(output).toMatch(/Successfully installed .*pulumi-3\.\d+\.\d+ .*pulumi[-_]webhooks-\d/);
    expect(output).toMatch(/\+ 3 created/);
    await expectOutputGuidsLive(output);
  });

  it("typescript-native: …/native creates the program's two subscriptions", async () => {
    const output = await runSection("typescript-native");
    expect(output).toMatch(/\+ 3 created/);
    await expectOutputGuidsLive(output);
  });

  it("go: the program and the Go SDK compile and pass go vet", async () => {
    // set -e: a failing `go vet` or `go build` ends the session and fails this step.
    await runSection("go");
  });

  it("java: the Java SDK installs into the local Maven repository and the program packages as one jar", async () => {
    // set -e: a failing `mvn` ends the session and fails this step.
    await runSection("java");
    expect(statSync(join(repo, "examples", "java", "target", "webhooks-java.jar")).size).toBeGreaterThan(1_000_000);
  });

  it("policy-pack: the yaml example's preview passes every policy of WebhookGuard", async () => {
    const output = await runSection("policy-pack");
    expect(output).toMatch(/webhook-guard@v1\.0\.0/);
    expect(output).not.toMatch(/\[(mandatory|advisory)\]/);
  });

  it("terraform: no commands of its own, but docs/terraform.md's, which run this configuration", () => {
    expect(sections.has("terraform"), "the terraform section has no sh block").toBe(false);
    const page = readFileSync(join(repo, "examples", "README.md"), "utf8");
    const section = page.slice(page.indexOf("\n## terraform\n"), page.indexOf("\n## Clean up\n"));
    expect(section).toContain("](../docs/terraform.md)");
    // docs/terraform.md's blocks copy and run this folder's configuration (e2e/terraformDoc.test.ts runs them).
    expect(readFileSync(join(repo, "docs", "terraform.md"), "utf8")).toContain("cp examples/terraform/*.tf");
  });

  it("clean-up: every stack removed, the processes stopped, the copy as it was", async () => {
    const output = await runSection(CLEAN_UP);
    for (const port of Object.values(ports)) expect(await listening(port), `port ${port} is closed`).toBe(false);
    expect(listing(repo)).toEqual(before);
    for (const example of STACKS) expect(output).toContain(`Stack '${example}' has been removed!`);
  });
});
