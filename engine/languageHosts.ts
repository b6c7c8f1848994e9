/**
 * The language hosts (`pulumi-language-nodejs`, …) built from their upstream source, for a CLI we
 * built from Go modules: the module proxy refuses the hosts' own modules, so `pulumi up` in a
 * program directory needs them built from a folder laid out like this repository's
 * `../shared/engine-src` (one folder per host and a `build.sh DIR [hosts…]`).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { run } from "./run";

/** The environment variable naming the source folder. */
export const LANGUAGE_HOST_SOURCE_VARIABLE = "WEBHOOKS_LANGUAGE_HOST_SOURCE";

/**
 * The hosts we build: Node.js runs this package's programs; Python builds in seconds beside it.
 * (YAML takes about 100 s more and nothing here runs YAML programs yet.)
 */
export const LANGUAGE_HOSTS = ["nodejs", "python"] as const;

/** The binary whose presence says the hosts are built (and that `pulumi up` can run a Node.js program). */
export const NODEJS_HOST = "pulumi-language-nodejs";

/**
 * The source folder from the option, else `$WEBHOOKS_LANGUAGE_HOST_SOURCE` (relative to the
 * working directory), else undefined. Throws when the folder named is not laid out as expected.
 */
export function languageHostSource(option?: string): string | undefined {
  const named = option ?? process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  if (!named) return undefined;
  const dir = resolve(named);
  const missing = ["build.sh", ...LANGUAGE_HOSTS.map((host) => join(host, "go.mod"))].filter(
    (file) => !existsSync(join(dir, file)),
  );
  if (missing.length > 0)
    throw new Error(
      `${LANGUAGE_HOST_SOURCE_VARIABLE}=${named} (${dir}) is not a language-host source folder: it lacks ` +
        `${missing.join(", ")}. Point it at a folder laid out like ../shared/engine-src, or unset it ` +
        "to run program directories through `webhook-subscriptions up --cwd <dir>`.",
    );
  return dir;
}

/**
 * Builds the hosts from `source` beside the CLI in `binDir`. They are built in a scratch folder
 * and moved in when complete, so a killed build leaves no half-written binary that looks usable.
 * A cold build takes about 2 minutes per host; with the Go cache the CLI's build warmed, seconds.
 */
export async function buildLanguageHosts(source: string, binDir: string, log: (line: string) => void): Promise<void> {
  const scratch = join(binDir, "..", `language-hosts.tmp-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  log(`building the language hosts (${LANGUAGE_HOSTS.join(", ")}) from ${source}`);
  try {
    const env = { ...process.env, CGO_ENABLED: "0", GOTOOLCHAIN: "local" };
    await run("bash", [join(source, "build.sh"), scratch, ...LANGUAGE_HOSTS], source, env, log);
    // The Node.js host last: its presence is what says the set is complete.
    const built = readdirSync(scratch).sort((a, b) => Number(a === NODEJS_HOST) - Number(b === NODEJS_HOST));
    for (const file of built) renameSync(join(scratch, file), join(binDir, file));
    log(`built ${built.join(", ")}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
