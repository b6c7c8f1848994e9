/**
 * One version, moved by one command (docs/release.md): `npm version <x.y.z>` in a scratch copy of
 * this checkout, made a git repository as a clone is, moves package.json, the lockfile, the schema,
 * the generated SDKs, the documented commands and CHANGELOG's heading, and commits and tags them all:
 * afterwards no file names the old version except the changelog's history and third-party pins.
 */
import { readFileSync, rmSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { run } from "../support/commands";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { copyRepository } from "../support/repoCopy";
import { testLanguageHostSource } from "../support/toolchain";

const OLD = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The release the test makes: any version other than this checkout's. */
const NEXT = OLD === "0.9.1" ? "0.9.2" : "0.9.1";
/** Files that may still name the old version: the changelog's history, and third-party modules' versions. */
const MAY_NAME_OLD = (file: string) =>
  file === "CHANGELOG.md" || file === "package-lock.json" || file.endsWith("go.sum");

const git = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};
let root: string;
let clone: string;
let transcript: string;
const started = Date.now();

const read = (file: string) => readFileSync(join(clone, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;

beforeAll(async () => {
  requireLanguageHosts(["pulumi-language-python", "pulumi-language-nodejs"]); // gen-sdk runs both
  root = mkdtempSync(join(tmpdir(), "version-e2e-"));
  clone = join(root, "clone");
  // The checkout as it is now (committed or not), committed in a fresh repository, as a clone has it.
  await copyRepository(clone, { build: false });
  await run("git", ["init", "-q"], clone);
  await run("git", ["add", "-A"], clone);
  await run("git", ["commit", "-q", "-m", `release ${OLD}`], clone, git);

  const bumped = Date.now();
  const result = await run("npm", ["version", NEXT], clone, {
    ...git,
    WEBHOOKS_LANGUAGE_HOST_SOURCE: testLanguageHostSource(),
  });
  transcript = result.stdout + result.stderr;
  console.log(
    `[version] npm version ${NEXT} (from ${OLD}): ${((Date.now() - bumped) / 1000).toFixed(1)} s\n${transcript}`,
  );
}, 900_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  console.log(`[version] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it("npm commits and tags everything the version script moved: the tree is clean", async () => {
  expect((await run("git", ["status", "--porcelain"], clone)).stdout).toBe("");
  expect((await run("git", ["tag", "--points-at", "HEAD"], clone)).stdout.trim()).toBe(`v${NEXT}`);
  const moved = (await run("git", ["show", "--name-only", "--format=", "HEAD"], clone)).stdout;
  console.log(`[version] the v${NEXT} commit:\n${moved}`);
  for (const file of ["package.json", "package-lock.json", "CHANGELOG.md", "README.md", "sdk/python/pyproject.toml"])
    expect(moved.split("\n")).toContain(file);
});

it("package, lockfile, schema, SDK manifests and plugin metadata say the new version", async () => {
  expect(json("package.json").version).toBe(NEXT);
  const lock = json("package-lock.json") as { version: string; packages: Record<string, { version: string }> };
  expect([lock.version, lock.packages[""]!.version]).toEqual([NEXT, NEXT]);
  const schema = await run(
    "npx",
    ["tsx", "-e", 'console.log(require("./scripts/packageSchema").packageSchema().version)'],
    clone,
  );
  expect(schema.stdout.trim()).toBe(NEXT);
  expect(read("sdk/python/pyproject.toml")).toContain(`version = "${NEXT}"`);
  expect(json("sdk/nodejs/package.json")).toMatchObject({ version: NEXT, pulumi: { version: NEXT } });
  for (const plugin of ["sdk/python/pulumi_webhooks/pulumi-plugin.json", "sdk/go/webhooks/pulumi-plugin.json"])
    expect(json(plugin), plugin).toMatchObject({ name: "webhooks", version: NEXT });
});

it("CHANGELOG: the Unreleased section is the new version's, a fresh Unreleased above it", () => {
  const today = new Date().toISOString().slice(0, 10);
  const changelog = read("CHANGELOG.md");
  expect(changelog).toContain(`## [Unreleased]\n\n## [${NEXT}] - ${today}\n`);
  expect(changelog).toContain(`## [${OLD}]`);
  expect(changelog).toMatch(new RegExp(`^\\[Unreleased\\]: .*/compare/v${NEXT}\\.\\.\\.HEAD$`, "m"));
  expect(changelog).toMatch(new RegExp(`^\\[${NEXT}\\]: .*/compare/v${OLD}\\.\\.\\.v${NEXT}$`, "m"));
});

it("no tracked file names the old version any more (but the changelog's history and third-party pins)", async () => {
  const files = (await run("git", ["ls-files"], clone)).stdout.split("\n").filter((f) => f && !MAY_NAME_OLD(f));
  const old = new RegExp(`(?<![\\d.])${OLD.replaceAll(".", "\\.")}(?![\\d]|\\.\\d)`);
  const naming = files.flatMap((file) =>
    read(file)
      .split("\n")
      .map((line, i) => `${file}:${i + 1}: ${line.trim()}`)
      .filter((line) => old.test(line.slice(line.indexOf(": ") + 2))),
  );
  expect(
    naming,
    `files that still name ${OLD}: add them to VERSIONED_FILES (scripts/version.ts) or stop naming a version`,
  ).toEqual([]);
  // The documented install command moved with it.
  expect(read("README.md")).toContain(`pulumi-resource-webhooks-v${NEXT}.tgz`);
});

// DIST HOOK (issue 31): once `npm run dist` exists, run it here in the clone and check that every
// artifact of dist/release/ carries NEXT — file names and manifests (archives, npm tarball, wheel,
// sdist, goproxy/, schema.json, SHA256SUMS).
