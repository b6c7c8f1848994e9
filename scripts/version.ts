/**
 * The `version` lifecycle script: `npm version <x.y.z>` has written the new version into
 * package.json and package-lock.json and runs this before its commit. It moves everything else
 * that carries the version, so that the npm package, the plugin, the schema and the SDKs always
 * say the same one:
 *
 * - the files that name the version on purpose (`VERSIONED_FILES`: printed install commands,
 *   the Go example's `require`), the old version replaced by the new one;
 * - CHANGELOG.md: the Unreleased section becomes `## [x.y.z] - <date>`, a fresh Unreleased above it;
 * - `sdk/` regenerated (`npm run gen-sdk`: the schema takes its version from package.json);
 *
 * then stages them, so npm's version commit holds them all. The plugin (`npm run build:plugin`)
 * and every release artifact read package.json when they are built. test/e2e/version.test.ts runs
 * `npm version` in a scratch clone and finds no file still naming the old version.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { valid } from "semver";
import { generateSdks } from "./genSdk";
import { packageJson } from "./packageSchema";

const ROOT = path.resolve(__dirname, "..");

/** Files that name the package's version (and nothing else by that number): it moves with `npm version`. */
export const VERSIONED_FILES = [
  "README.md",
  "docs/native-provider.md",
  "docs/installation-configuration.md",
  "examples/README.md",
  "examples/go/go.mod",
  "examples/java/pom.xml",
  "examples/policy-pack/package.json",
  "examples/pipelines/github/pulumi.yml",
  "examples/pipelines/github/opentofu.yml",
  "examples/pipelines/github/fleet.yml",
  "examples/pipelines/gitlab/.gitlab-ci.yml",
  "templates/drift.gitlab-ci.yml",
  "docs/pipelines.md",
] as const;

export const CHANGELOG = "CHANGELOG.md";
const UNRELEASED = "## [Unreleased]";

/** The version as a whole number (1.2.3 in `v1.2.3.tgz`, `-1.2.3-py3`; not in 11.2.3 or 1.2.3.4): dots literal. */
function versionPattern(version: string): RegExp {
  return new RegExp(`(?<![\\d.])${version.replaceAll(".", "\\.")}(?!\\d|\\.\\d)`, "g");
}

/** `text` with every mention of `from` replaced by `to`. */
export function moveVersion(text: string, from: string, to: string): string {
  return text.replace(versionPattern(from), to);
}

/**
 * CHANGELOG.md's Unreleased section released as `to` on `date`, an empty Unreleased above it,
 * and the compare links at the bottom moved along (`[Unreleased]: …/compare/v<to>...HEAD`).
 */
export function releaseChangelog(text: string, from: string, to: string, date: string): string {
  if (!text.includes(`${UNRELEASED}\n`))
    throw new Error(`${CHANGELOG} has no "${UNRELEASED}" heading: the release's changes have nowhere to come from.`);
  if (text.includes(`## [${to}]`)) throw new Error(`${CHANGELOG} already has a "## [${to}]" section.`);
  const released = text.replace(`${UNRELEASED}\n`, `${UNRELEASED}\n\n## [${to}] - ${date}\n`);
  return released.replace(
    /^\[Unreleased\]: (.*)\/compare\/v(\S+)\.\.\.HEAD$/m,
    (_line, base: string, previous: string) =>
      `[Unreleased]: ${base}/compare/v${to}...HEAD\n[${to}]: ${base}/compare/v${previous}...v${to}`,
  );
}

async function main(): Promise<void> {
  const from = process.env.npm_old_version;
  const to = process.env.npm_new_version ?? packageJson().version;
  if (!from || !valid(from) || !valid(to) || from === to)
    throw new Error(
      `scripts/version.ts is npm's \`version\` lifecycle script: run \`npm version <x.y.z>\` ` +
        `(npm_old_version=${from ?? "unset"}, npm_new_version=${to}).`,
    );

  const changed: string[] = [...VERSIONED_FILES, CHANGELOG];
  for (const file of VERSIONED_FILES) {
    const full = path.join(ROOT, file);
    writeFileSync(full, moveVersion(readFileSync(full, "utf8"), from, to));
  }
  const changelog = path.join(ROOT, CHANGELOG);
  const today = new Date().toISOString().slice(0, 10);
  writeFileSync(changelog, releaseChangelog(readFileSync(changelog, "utf8"), from, to, today));
  console.log(`${changed.join(", ")}: ${from} → ${to}`);

  await generateSdks(path.join(ROOT, "sdk"), (line) => console.log(line));
  changed.push("sdk");

  // npm commits what is staged (with --no-git-tag-version it commits nothing; staging is harmless).
  if (isGitWorkTree()) execFileSync("git", ["add", "--", ...changed], { cwd: ROOT, stdio: "inherit" });
}

function isGitWorkTree(): boolean {
  try {
    return (
      execFileSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: ROOT, stdio: "pipe" }).toString().trim() ===
      "true"
    );
  } catch {
    return false;
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
