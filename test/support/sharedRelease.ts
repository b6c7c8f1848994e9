/**
 * The test run's one release, as docs/release.md makes one: a copy of this checkout committed in
 * a fresh repository (as a clone has it), moved to RELEASE_VERSION by `npm version` (the version
 * script, the commit, the tag), then `npm run dist` there. The first test file that asks builds it
 * in the run's folder (e2e/releaseSetup.ts); the files after it reuse it, or fail with its error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";
import { run } from "./commands";
import { REPO_ROOT, requireLanguageHosts } from "./engine";
import { copyRepository } from "./repoCopy";
import { testLanguageHostSource } from "./toolchain";

/** This checkout's version. */
export const CHECKOUT_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;
/** The release's version: any version other than this checkout's, so that every file has to move. */
export const RELEASE_VERSION = CHECKOUT_VERSION === "0.9.1" ? "0.9.2" : "0.9.1";

/** A git identity for the copy's commits. */
export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

export interface SharedRelease {
  /** The copy of this checkout, at RELEASE_VERSION: its README and examples name it. */
  readonly checkout: string;
  /** Its dist/release/: every artifact. */
  readonly dir: string;
  /** What `npm version` printed. */
  readonly transcript: string;
}

/** The run's release, built by the first caller. Needs the Python and Node.js hosts (gen-sdk). */
export async function sharedRelease(): Promise<SharedRelease> {
  requireLanguageHosts(["pulumi-language-python", "pulumi-language-nodejs"]);
  const root = inject("releaseRun");
  const [done, failed] = [join(root, "release.json"), join(root, "failed.txt")];
  try {
    mkdirSync(join(root, "lock")); // only one builder, even if files ever run in parallel
  } catch {
    while (!existsSync(done) && !existsSync(failed)) await sleep(5_000);
  }
  if (existsSync(failed)) throw new Error(`the run's release failed to build: ${readFileSync(failed, "utf8")}`);
  if (existsSync(done)) return JSON.parse(readFileSync(done, "utf8")) as SharedRelease;
  try {
    const release = await build(join(root, "checkout"));
    writeFileSync(done, JSON.stringify(release));
    return release;
  } catch (err) {
    writeFileSync(failed, err instanceof Error ? err.message : String(err));
    throw err;
  }
}

async function build(checkout: string): Promise<SharedRelease> {
  const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
  await copyRepository(checkout, { build: false });
  await run("git", ["init", "-q"], checkout);
  await run("git", ["add", "-A"], checkout);
  await run("git", ["commit", "-q", "-m", `release ${CHECKOUT_VERSION}`], checkout, GIT_IDENTITY);

  const bumped = Date.now();
  const version = await run("npm", ["version", RELEASE_VERSION], checkout, {
    ...GIT_IDENTITY,
    WEBHOOKS_LANGUAGE_HOST_SOURCE: testLanguageHostSource(),
  });
  const transcript = version.stdout + version.stderr;
  console.log(`[release] npm version ${RELEASE_VERSION} (from ${CHECKOUT_VERSION}): ${seconds(bumped)}\n${transcript}`);

  const dist = Date.now();
  // Every artifact, six platforms' executables among them: minutes on a loaded 2-core machine;
  // on a new machine also rcodesign's build (scripts/release/sign.ts: 437 s of CPU, once).
  await run("npm", ["run", "dist"], checkout, {}, 0, 1_500_000);
  console.log(`[release] npm run dist: ${seconds(dist)}`);
  return { checkout, dir: join(checkout, "dist", "release"), transcript };
}
