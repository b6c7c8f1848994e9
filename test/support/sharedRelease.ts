/**
 * The test run's one release, as docs/release.md makes one: a copy of this checkout committed in
 * a fresh repository (as a clone has it), moved to RELEASE_VERSION by `npm version` (the version
 * script, the commit, the tag), then `npm run dist` there with a signing key the test made, handed
 * over in the environment as release.yml hands over its secret one; built once per run
 * (support/oncePerRun.ts).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { run } from "./commands";
import { SIGNING_KEY_VARIABLE, SIGNING_PASSPHRASE_VARIABLE } from "../../scripts/release/gpgSign";
import { REPO_ROOT, requireLanguageHosts } from "./engine";
import { makeSigningKey, type TestSigningKey } from "./gpgKey";
import { oncePerRun } from "./oncePerRun";
import { copyRepository } from "./repoCopy";
import { languageHostSourceEnv } from "./toolchain";

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
  /** The key that signed the Terraform artifacts' SHA256SUMS. */
  readonly signingKey: TestSigningKey;
}

/** The run's release, built by the first caller. Needs the Python and Node.js hosts (gen-sdk). */
export async function sharedRelease(): Promise<SharedRelease> {
  requireLanguageHosts(["pulumi-language-python", "pulumi-language-nodejs"]);
  return oncePerRun("release", (dir) => build(join(dir, "checkout")));
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
    ...languageHostSourceEnv(),
  });
  const transcript = version.stdout + version.stderr;
  console.log(`[release] npm version ${RELEASE_VERSION} (from ${CHECKOUT_VERSION}): ${seconds(bumped)}\n${transcript}`);

  const signingKey = makeSigningKey("webhook-subscriptions test release", "release passphrase", dirname(checkout));
  const dist = Date.now();
  // Every artifact, six platforms' executables among them: minutes on a loaded 2-core machine;
  // on a new machine also rcodesign's build (scripts/release/sign.ts: 437 s of CPU, once).
  await run(
    "npm",
    ["run", "dist"],
    checkout,
    {
      [SIGNING_KEY_VARIABLE]: signingKey.armoredPrivate,
      [SIGNING_PASSPHRASE_VARIABLE]: signingKey.passphrase,
    },
    0,
    1_500_000,
  );
  console.log(`[release] npm run dist: ${seconds(dist)}`);
  return { checkout, dir: join(checkout, "dist", "release"), transcript, signingKey };
}
