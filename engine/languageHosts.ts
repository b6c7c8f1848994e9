/**
 * The language hosts (`pulumi-language-nodejs`, …) built from their upstream source, for a CLI we
 * built from Go modules: the module proxy refuses the hosts' own modules, so `pulumi up` in a
 * program directory needs them built from a folder laid out like this repository's
 * `../shared/engine-src` (one folder per host and a `build.sh DIR [hosts…]`).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { GO_BUILD_ENV } from "./goBuild";
import { run } from "./run";

/** The environment variable naming the source folder. */
export const LANGUAGE_HOST_SOURCE_VARIABLE = "WEBHOOKS_LANGUAGE_HOST_SOURCE";

/**
 * The hosts we build: Node.js runs this package's programs (and the native plugin), Python builds
 * in seconds beside it, YAML runs the native plugin's example (examples/yaml) and `pulumi import`,
 * Go runs examples/go as a Go user installs it (test/e2e/install.test.ts), Java runs examples/java
 * and generates sdk/java (`npm run gen-sdk`; ~45 s wall, 18 s CPU with the CLI's Go cache warm).
 */
export const LANGUAGE_HOSTS = ["nodejs", "python", "yaml", "go", "java"] as const;

/** One of the hosts we build. */
export type LanguageHost = (typeof LANGUAGE_HOSTS)[number];

/** The binary of a host: its presence says that host is built. */
export function hostBinary(host: LanguageHost): string {
  return `pulumi-language-${host}`;
}

/** The binary whose presence says `pulumi up` can run a Node.js program. */
export const NODEJS_HOST = hostBinary("nodejs");

/** The hosts not (yet) beside the CLI in `binDir`. */
export function missingLanguageHosts(binDir: string): LanguageHost[] {
  return LANGUAGE_HOSTS.filter((host) => !existsSync(join(binDir, hostBinary(host))));
}

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
        `${missing.join(", ")}. Point it at a folder laid out like ../shared/engine-src, or unset it where ` +
        "a pulumi with its language hosts is on PATH (an official install; docs/engine.md).",
    );
  return dir;
}

/**
 * Builds the hosts missing beside the CLI in `binDir` from `source` (none: nothing to do), so a
 * host added to LANGUAGE_HOSTS is built into a cache that has the others. They are built in a
 * scratch folder and moved in when complete, so a killed build leaves no half-written binary that
 * looks usable. A cold build takes about 2 minutes per host; with the Go cache the CLI's build
 * warmed, seconds for nodejs and python, about 100 s for yaml (its own pkg/sdk pins).
 */
export async function buildLanguageHosts(source: string, binDir: string, log: (line: string) => void): Promise<void> {
  const hosts = missingLanguageHosts(binDir);
  if (hosts.length === 0) return;
  const scratch = join(binDir, "..", `language-hosts.tmp-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  log(`building the language hosts (${hosts.join(", ")}) from ${source}`);
  try {
    // build.sh passes -trimpath itself.
    const env = { ...process.env, ...GO_BUILD_ENV };
    // One build per host, side by side: each one's link is single-threaded, and yaml compiles its own pkg pins meanwhile.
    // Every build ends before the scratch folder goes: a failed one does not leave the others writing into nothing.
    const builds = await Promise.allSettled(
      hosts.map((host) => run("bash", [join(source, "build.sh"), scratch, host], source, env, log)),
    );
    const failed = builds.find((build) => build.status === "rejected");
    if (failed) throw failed.reason;
    // Each host's own binary after its helpers (pulumi-language-python-exec): its presence says the host is complete.
    const markers = new Set<string>(hosts.map(hostBinary));
    const built = readdirSync(scratch).sort((a, b) => Number(markers.has(a)) - Number(markers.has(b)));
    for (const file of built) renameSync(join(scratch, file), join(binDir, file));
    log(`built ${built.join(", ")}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
