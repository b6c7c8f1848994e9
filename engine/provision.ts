/**
 * Makes the Pulumi CLI (the engine) available, in this order:
 *   1. a compatible `pulumi` already on PATH;
 *   2. our cache from an earlier run (an official install or a Go build);
 *   3. the official installer through the Automation API (needs internet);
 *   4. a build from Go modules with the machine's Go toolchain (see wrapper/v<version>/go.mod);
 * and fails with a message that says what to install when none of these works.
 * The result is a directory `<root>/bin` holding `pulumi` and the dynamic-provider shim, and the
 * language hosts when they could be had (see languageHosts.ts).
 */
import { execFile } from "node:child_process";
import {
  copyFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { SemVer, satisfies } from "semver";
import { cacheHome } from "./cacheHome";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "./goBuild";
import { buildLanguageHosts, languageHostSource, NODEJS_HOST } from "./languageHosts";
import { run } from "./run";

const execFileAsync = promisify(execFile);

/**
 * The Pulumi CLI version this package is built and tested with (the lockfile's SDK and
 * engine/wrapper/v3.248.0/go.mod pin the same). A user's own SDK may be any 3.x in the package's
 * range: the CLI and the SDK talk over a stable protocol, so the engine need not match it.
 */
export const PULUMI_VERSION = "3.248.0";

/** A `pulumi` already on PATH is used when it is at least this (the SDK range's floor). */
const OLDEST_CLI_ON_PATH = "3.248.0";

/** The folder of the Go modules that build the CLI: beside this file in the sources, at the package root's engine/ in dist/. */
const WRAPPERS =
  [resolve(__dirname, "wrapper"), resolve(__dirname, "..", "..", "engine", "wrapper")].find((dir) => existsSync(dir)) ??
  resolve(__dirname, "wrapper");

/** The Go module that builds CLI `version`: `wrapper/v<version>/`, made as its go.mod's comment says. */
function wrapperDir(version: string): string {
  const dir = join(WRAPPERS, `v${version}`);
  if (existsSync(join(dir, "go.mod"))) return dir;
  const known = existsSync(WRAPPERS) ? readdirSync(WRAPPERS).join(", ") : "none";
  throw new Error(
    `Cannot build the Pulumi CLI ${version} from Go modules: there is no ${join(dir, "go.mod")} ` +
      `(wrapper modules: ${known}). Ask for one of those versions, or make the module as ` +
      "engine/wrapper/v3.248.0/go.mod's comment says.",
  );
}
const SHIM_NAME = "pulumi-resource-pulumi-nodejs";
const LANGUAGE_HOST_MODULE = "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3";

export type EngineSource = "path" | "cache" | "official-install" | "go-build";

export interface Engine {
  /** The installation root; `PulumiCommand.get({ root })` accepts it. */
  root: string;
  /** `<root>/bin` for a cached engine, or the PATH directory holding `pulumi`. */
  binDir: string;
  version: string;
  source: EngineSource;
  /** Whether `pulumi-language-nodejs` is beside the CLI (needed only by `pulumi up` on a program directory). */
  hasLanguageHost: boolean;
}

export interface ProvisionOptions {
  /** Progress lines for people waiting on a cold build. */
  log?: (line: string) => void;
  /** Cache root; default `$WEBHOOKS_ENGINE_CACHE` or `~/.cache/pulumi-webhook-subscriptions/engine`. */
  cacheDir?: string;
  /** How long the official installer may take before we fall through to the Go build. */
  installTimeoutMs?: number;
  /**
   * Exactly this CLI version (one with a wrapper module, for the Go build); a `pulumi` on PATH is
   * then used only if it is this version. @default PULUMI_VERSION, or any compatible `pulumi` on PATH
   */
  version?: string;
  /**
   * The language hosts' source folder (see languageHosts.ts), built beside a CLI we built.
   * @default `$WEBHOOKS_LANGUAGE_HOST_SOURCE`; none: no hosts unless the module proxy serves them
   */
  languageHostSource?: string;
}

/** Where the engine of a version (the pinned one by default) is cached (outside the repo). */
export function engineRoot(cacheDir = defaultCacheDir(), version = PULUMI_VERSION): string {
  return join(cacheDir, `v${version}`);
}

function defaultCacheDir(): string {
  return process.env.WEBHOOKS_ENGINE_CACHE || cacheHome("engine");
}

/** Finds or makes the engine; see the module comment for the order. */
export async function provisionEngine(options: ProvisionOptions = {}): Promise<Engine> {
  const log = options.log ?? (() => {});
  const version = options.version ?? PULUMI_VERSION;
  const root = engineRoot(options.cacheDir, version);
  const binDir = join(root, "bin");
  // Checked first, so that a wrong folder fails at once rather than after a build.
  const hostSource = languageHostSource(options.languageHostSource);

  // A CLI on PATH (an official install) comes with its language hosts.
  const onPath = await findOnPath(options.version ? version : `>=${OLDEST_CLI_ON_PATH} <4`);
  if (onPath) {
    log(`using pulumi ${onPath.version} from PATH (${onPath.binDir})`);
    return { ...onPath, hasLanguageHost: existsSync(join(onPath.binDir, NODEJS_HOST)) };
  }

  if ((await versionOf(join(binDir, "pulumi"))) === version) {
    log(`using cached pulumi ${version} (${binDir})`);
    // A Go build cached before the source was named, or before a host was added, gets the missing hosts now.
    if (hostSource) await buildLanguageHosts(hostSource, binDir, log);
    return finish("cache");
  }

  log(`no pulumi ${version} on PATH or in the cache; trying the official installer`);
  try {
    await withTimeout(
      PulumiCommand.install({ root, version: new SemVer(version) }),
      options.installTimeoutMs ?? 30_000,
      "the official installer",
    );
    return finish("official-install");
  } catch (err) {
    log(`official installer unavailable (${firstLine(err)}); building from Go modules instead`);
  }

  const env = await buildFromGoModules(version, binDir, log);
  if (hostSource) await buildLanguageHosts(hostSource, binDir, log);
  else await buildLanguageHostFromProxy(version, binDir, env, log);
  return finish("go-build");

  function finish(source: EngineSource): Engine {
    installShim(binDir);
    return { root, binDir, version, source, hasLanguageHost: existsSync(join(binDir, NODEJS_HOST)) };
  }
}

/** The first `pulumi` on PATH whose version satisfies `range` (an exact version or a semver range). */
async function findOnPath(range: string): Promise<Omit<Engine, "hasLanguageHost"> | undefined> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "pulumi");
    const version = await versionOf(candidate);
    if (version && satisfies(version, range)) return { root: dirname(dir), binDir: dir, version, source: "path" };
  }
  return undefined;
}

/**
 * `pulumi version` without the leading `v`, or undefined when there is no working CLI there.
 * Remembered per CLI file (its size, modification time and inode, in the engine cache's
 * versions.json): asking the CLI costs ~0.15 s, and every `npm start` checks its engine.
 */
export async function versionOf(cli: string): Promise<string | undefined> {
  if (!existsSync(cli)) return undefined;
  const stat = statSync(cli);
  const file = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const memoFile = join(defaultCacheDir(), "versions.json");
  const memo = readMemo(memoFile);
  if (memo[cli]?.file === file) return memo[cli].version;
  let version: string;
  try {
    const { stdout } = await execFileAsync(cli, ["version"], {
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      timeout: 30_000,
    });
    version = stdout.trim().replace(/^v/, "");
  } catch {
    return undefined;
  }
  try {
    mkdirSync(dirname(memoFile), { recursive: true });
    writeFileSync(memoFile, JSON.stringify({ ...readMemo(memoFile), [cli]: { file, version } }));
  } catch {
    // A cache that cannot be written is asked again next time.
  }
  return version;
}

/** The remembered versions: CLI path → its file's identity and version. */
function readMemo(file: string): Record<string, { file: string; version: string }> {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, { file: string; version: string }>;
  } catch {
    return {};
  }
}

/**
 * Builds CLI `version` into `binDir` and returns the Go environment it used. A cold build
 * downloads a few hundred modules and compiles for many minutes, so it reports progress.
 */
async function buildFromGoModules(
  version: string,
  binDir: string,
  log: (line: string) => void,
): Promise<NodeJS.ProcessEnv> {
  const wrapper = wrapperDir(version);
  const go = await goVersion();
  if (!go) {
    throw new Error(
      `Cannot provision the Pulumi CLI ${version}: it is not on PATH, the official installer ` +
        `could not be reached, and there is no Go toolchain to build it. Install one of: ` +
        `the Pulumi CLI ${version} (https://www.pulumi.com/docs/install/), or Go >= 1.25 ` +
        `(https://go.dev/dl/), then run \`npm run engine\` again.`,
    );
  }
  log(`building pulumi ${version} with ${go} (cold build: several minutes on 2 cores)`);
  mkdirSync(binDir, { recursive: true });
  const env = {
    ...process.env,
    ...GO_BUILD_ENV,
    // The wrapper's go.sum pins every module.
    GOFLAGS: "-mod=readonly",
  };

  log("downloading Go modules…");
  await run("go", ["mod", "download"], wrapper, env, log);

  const tmp = join(binDir, `pulumi.tmp-${process.pid}`);
  // No symbol table or DWARF (-s -w): less to link, and nothing here debugs the CLI.
  const ldflags = `-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${version}`;
  log("compiling pulumi…");
  await run(
    "go",
    ["build", "-v", ...GO_BUILD_FLAGS, "-ldflags", ldflags, "-o", tmp, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"],
    wrapper,
    env,
    log,
  );
  renameSync(tmp, join(binDir, "pulumi"));
  log(`built ${join(binDir, "pulumi")}`);
  return env;
}

/**
 * Without a source folder: the Node.js language host has no version tags, so its module is
 * required at the pseudo-version of the commit the pkg tag points to. Some module mirrors refuse
 * that pseudo-version; the host is then left out and program directories run through the
 * Automation API's in-process runtime.
 */
async function buildLanguageHostFromProxy(
  version: string,
  binDir: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
) {
  const pseudo = await languageHostPseudoVersion(version, env);
  if (!pseudo) {
    log("the module proxy does not say which commit the pkg tag points to; skipping the language host");
    return;
  }
  const scratch = join(binDir, "..", "language-host-build");
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    await run("go", ["mod", "init", "language-host-build"], scratch, env, () => {});
    // Best effort, outside the pinned wrapper: this mirror's checksum database lacks these modules.
    const getEnv = { ...env, GOFLAGS: "-mod=mod", GOSUMDB: "off" };
    await run("go", ["get", `${LANGUAGE_HOST_MODULE}@${pseudo}`], scratch, getEnv, log);
    const tmp = join(binDir, `${NODEJS_HOST}.tmp-${process.pid}`);
    await run("go", ["build", ...GO_BUILD_FLAGS, "-o", tmp, LANGUAGE_HOST_MODULE], scratch, env, log);
    renameSync(tmp, join(binDir, NODEJS_HOST));
    log(`built ${NODEJS_HOST}`);
  } catch (err) {
    log(
      `pulumi-language-nodejs ${pseudo} is not available from the module proxy (${lastLine(err)}); ` +
        "program directories will run through the Automation API's in-process language runtime",
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `v3.0.0-<commit time>-<commit>` from the pkg tag's origin, as `go get <module>@<commit>` would compute. */
async function languageHostPseudoVersion(version: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync(
      "go",
      ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@v${version}`],
      { cwd: wrapperDir(version), env, timeout: 120_000 },
    );
    const info = JSON.parse(stdout) as { Info?: string };
    if (!info.Info) return undefined;
    const meta = JSON.parse(readFileSync(info.Info, "utf8")) as { Time?: string; Origin?: { Hash?: string } };
    if (!meta.Time || !meta.Origin?.Hash) return undefined;
    const stamp = new Date(meta.Time).toISOString().replace(/[-:T]/g, "").slice(0, 14);
    return `v3.0.0-${stamp}-${meta.Origin.Hash.slice(0, 12)}`;
  } catch {
    return undefined;
  }
}

/** The dynamic-provider shim ships inside @pulumi/pulumi; the engine looks for it beside the CLI. */
function installShim(binDir: string): void {
  const source = join(dirname(require.resolve("@pulumi/pulumi/package.json")), SHIM_NAME);
  const target = join(binDir, SHIM_NAME);
  mkdirSync(binDir, { recursive: true });
  copyFileSync(source, target);
  chmodSync(target, 0o755);
}

async function goVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync("go", ["version"], { timeout: 30_000 });
    return stdout.trim().split(" ")[2];
  } catch {
    return undefined;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function lastLine(err: unknown): string {
  const lines = String(err instanceof Error ? err.message : err)
    .split("\n")
    .filter((l) => l.trim());
  return lines[lines.length - 1]?.trim() ?? "";
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split("\n")[0] ?? "";
}
