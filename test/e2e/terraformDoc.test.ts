/**
 * docs/terraform.md, run as a reader runs it: its `sh` blocks, in order, in one bash session, in a
 * copy of the repository, with the pinned tofu: install from a filesystem mirror, the example
 * configuration applied, a no-change plan, the write-only value absent from state, import, drift
 * found by `plan -refresh-only -detailed-exitcode`, clean-up. One edit, explicit below: the port
 * line gets a free port. HOME is a scratch folder (the page installs into ~/.terraform.d); the
 * caches stay where they are (XDG_CACHE_HOME).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cacheHome } from "../../engine/cacheHome";
import { freePort } from "../support/freePort";
import { copyRepository } from "../support/repoCopy";
import { shellBlocks, type ShellSection } from "../support/shellBlocks";
import { ShellSession, terminalEnv } from "../support/shellSession";
import { requireTofu } from "../support/terraformClis";

const PORT_LINE = /^export EMULATOR_PORT=\d+(?=\s)/m;

let root: string;
let repo: string;
let home: string;
let shell: ShellSession;
let blocks: ShellSection[];
let port: number;

beforeAll(async () => {
  requireTofu();
  root = mkdtempSync(join(tmpdir(), "terraform-doc-"));
  home = join(root, "home");
  mkdirSync(home);
  repo = join(root, "repo");
  await copyRepository(repo);
  port = await freePort();
  blocks = shellBlocks(readFileSync(join(repo, "docs", "terraform.md"), "utf8"));
  const setup = blocks[0]!;
  expect(setup.script.match(new RegExp(PORT_LINE.source, "gm")), "one port line in the setup").toHaveLength(1);
  blocks[0] = { ...setup, script: setup.script.replace(PORT_LINE, `export EMULATOR_PORT=${port}`) };
  shell = ShellSession.start(
    repo,
    terminalEnv({
      HOME: home,
      XDG_CACHE_HOME: dirname(cacheHome()),
      npm_config_cache: join(root, "npm-cache"),
      CHECKPOINT_DISABLE: "1",
    }),
  );
}, 600_000);

afterAll(async () => {
  await shell?.closeKeepingTranscript("terraform-doc-transcript.txt");
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The output of the page's block(s) under `heading`. */
async function section(heading: string): Promise<string> {
  const scripts = blocks.filter((block) => block.heading === heading);
  expect(scripts.length, `docs/terraform.md has an sh block under "## ${heading}"`).toBeGreaterThan(0);
  let output = "";
  // The CLIs colour their output in a terminal: the text without the colours.
  for (const block of scripts) output += stripVTControlCharacters(await shell.run(block.script));
  return output;
}

it("has its sh blocks in the sections a reader goes through, in order", () => {
  expect(blocks.map((block) => block.heading)).toEqual([
    "Setup",
    "The resource and the data sources",
    "Write-only header values",
    "Import",
    "Drift in a pipeline",
    "Drift in a pipeline",
    "Clean up",
  ]);
});

it("setup: tofu on PATH, the provider in the implicit mirror, the emulator listening", async () => {
  await section("Setup");
  const mirrored = readdirSync(join(home, ".terraform.d", "plugins"), { recursive: true }).map(String);
  expect(mirrored.filter((file) => /terraform-provider-webhooks_v[\d.]+$/.test(file))).toHaveLength(2);
}, 600_000);

it("init from the mirror, apply the example, then a plan with nothing to change", async () => {
  const output = await section("The resource and the data sources");
  expect(output).toContain("Installed webhook-subscriptions/webhooks");
  expect(output).toContain("Apply complete! Resources: 2 added, 0 changed, 0 destroyed.");
  expect(output).toContain("No changes.");
}, 600_000);

it("the write-only header value is not in the state", async () => {
  await section("Write-only header values");
  const state = readFileSync(join(home, "webhooks-hcl", "terraform.tfstate"), "utf8");
  expect(state).toContain('"custom_header_value_wo": null');
  expect(state).not.toContain("change-me");
}, 120_000);

it("import by GUID on the command line, as the registry page prints it (import.sh), then nothing to change", async () => {
  // The registry page's import example (examples/terraform/import.sh) is run here, as this page's line.
  const command = readFileSync(join(repo, "examples", "terraform", "import.sh"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const block = blocks.find((b) => b.heading === "Import")!.script.split("\n");
  for (const line of command) expect(block, "docs/terraform.md's Import block runs import.sh's line").toContain(line);
  const output = await section("Import");
  expect(output).toContain("Import successful!");
  expect(output).toContain("No changes.");
}, 300_000);

it("drift: an out-of-band edit makes plan -refresh-only -detailed-exitcode exit 2, naming the new URL", async () => {
  const output = await section("Drift in a pipeline");
  expect(output).toMatch(
    /subscriber_url\s+= "https:\/\/hooks\.example\.com\/terraform\/objects" -> "https:\/\/hooks\.example\.com\/edited"/,
  );
}, 300_000);

it("clean up: the drift undone, everything destroyed, the emulator stopped", async () => {
  const output = await section("Clean up");
  expect(output).toContain("Destroy complete! Resources: 2 destroyed.");
}, 300_000);
