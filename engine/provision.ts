/**
 * Makes the Pulumi CLI (the engine) available, in this order:
 *   1. a compatible `pulumi` already on PATH;
 *   2. our cache from an earlier run (an official install or a Go build);
 *   3. the official installer through the Automation API (needs internet);
 *   4. a build from Go modules with the machine's Go toolchain (see wrapper/go.mod);
 * and fails with a message that says what to install when none of these works.
 * The result is a directory `<root>/bin` holding `pulumi` and the dynamic-provider shim.
 */
import { execFile, spawn } from "node:child_process";
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { PulumiCommand } from "@pulumi/pulumi/automation";
import { SemVer, satisfies } from "semver";

const execFileAsync = promisify(execFile);

/**
 * The Pulumi CLI version this package is built and tested with (the lockfile's SDK and
 * engine/wrapper/go.mod pin the same). A user's own SDK may be any 3.x in the package's range:
 * the CLI and the SDK talk over a stable protocol, so the engine need not match it.
 */
export const PULUMI_VERSION = "3.248.0";

/** A `pulumi` already on PATH is used when it is at least this (the SDK range's floor). */
const OLDEST_CLI_ON_PATH = "3.216.0";

/** The Go module that builds the CLI; beside this file in the sources, at the package root's engine/ in dist/. */
const WRAPPER_DIR =
  [resolve(__dirname, "wrapper"), resolve(__dirname, "..", "..", "engine", "wrapper")].find((dir) =>
    existsSync(join(dir, "go.mod")),
  ) ?? resolve(__dirname, "wrapper");
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
}

/** Where the engine of the pinned version is cached (outside the repo). */
export function engineRoot(cacheDir = defaultCacheDir()): string {
  return join(cacheDir, `v${PULUMI_VERSION}`);
}

function defaultCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return process.env.WEBHOOKS_ENGINE_CACHE || join(base, "pulumi-webhook-subscriptions", "engine");
}

/** Finds or makes the engine; see the module comment for the order. */
export async function provisionEngine(options: ProvisionOptions = {}): Promise<Engine> {
  const log = options.log ?? (() => {});
  const root = engineRoot(options.cacheDir);
  const binDir = join(root, "bin");

  const onPath = await findOnPath();
  if (onPath) {
    log(`using pulumi ${onPath.version} from PATH (${onPath.binDir})`);
    return { ...onPath, hasLanguageHost: existsSync(join(onPath.binDir, "pulumi-language-nodejs")) };
  }

  if ((await versionOf(join(binDir, "pulumi"))) === PULUMI_VERSION) {
    log(`using cached pulumi ${PULUMI_VERSION} (${binDir})`);
    return finish(root, "cache");
  }

  log(`no pulumi ${PULUMI_VERSION} on PATH or in the cache; trying the official installer`);
  try {
    await withTimeout(
      PulumiCommand.install({ root, version: new SemVer(PULUMI_VERSION) }),
      options.installTimeoutMs ?? 30_000,
      "the official installer",
    );
    return finish(root, "official-install");
  } catch (err) {
    log(`official installer unavailable (${firstLine(err)}); building from Go modules instead`);
  }

  await buildFromGoModules(binDir, log);
  return finish(root, "go-build");

  function finish(engineRootDir: string, source: EngineSource): Engine {
    installShim(binDir);
    return {
      root: engineRootDir,
      binDir,
      version: PULUMI_VERSION,
      source,
      hasLanguageHost: existsSync(join(binDir, "pulumi-language-nodejs")),
    };
  }
}

/** A 3.x `pulumi` on PATH, no older than the SDK range's floor. */
async function findOnPath(): Promise<Omit<Engine, "hasLanguageHost"> | undefined> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, "pulumi");
    const version = await versionOf(candidate);
    if (version && satisfies(version, `>=${OLDEST_CLI_ON_PATH} <4`))
      return { root: dirname(dir), binDir: dir, version, source: "path" };
  }
  return undefined;
}

/** `pulumi version` without the leading `v`, or undefined when there is no working CLI there. */
export async function versionOf(cli: string): Promise<string | undefined> {
  if (!existsSync(cli)) return undefined;
  try {
    const { stdout } = await execFileAsync(cli, ["version"], {
      env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
      timeout: 30_000,
    });
    return stdout.trim().replace(/^v/, "");
  } catch {
    return undefined;
  }
}

/**
 * Builds the CLI (and, where the module proxy has it, the Node.js language host) into `binDir`.
 * A cold build downloads a few hundred modules and compiles for many minutes, so it reports progress.
 */
async function buildFromGoModules(binDir: string, log: (line: string) => void): Promise<void> {
  const go = await goVersion();
  if (!go) {
    throw new Error(
      `Cannot provision the Pulumi CLI ${PULUMI_VERSION}: it is not on PATH, the official installer ` +
        `could not be reached, and there is no Go toolchain to build it. Install one of: ` +
        `the Pulumi CLI ${PULUMI_VERSION} (https://www.pulumi.com/docs/install/), or Go >= 1.25 ` +
        `(https://go.dev/dl/), then run \`npx webhook-subscriptions engine\` again.`,
    );
  }
  log(`building pulumi ${PULUMI_VERSION} with ${go} (cold build: several minutes on 2 cores)`);
  mkdirSync(binDir, { recursive: true });
  const env = {
    ...process.env,
    CGO_ENABLED: "0",
    // The wrapper's go.sum pins every module; never switch toolchains behind the user's back.
    GOTOOLCHAIN: "local",
    GOFLAGS: "-mod=readonly",
  };

  log("downloading Go modules…");
  await run("go", ["mod", "download"], WRAPPER_DIR, env, log);

  const tmp = join(binDir, `pulumi.tmp-${process.pid}`);
  const ldflags = `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${PULUMI_VERSION}`;
  log("compiling pulumi…");
  await run(
    "go",
    ["build", "-v", "-trimpath", "-ldflags", ldflags, "-o", tmp, "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"],
    WRAPPER_DIR,
    env,
    log,
  );
  renameSync(tmp, join(binDir, "pulumi"));
  log(`built ${join(binDir, "pulumi")}`);

  await buildLanguageHost(binDir, env, log);
}

/**
 * The Node.js language host has no version tags: its module is required at the pseudo-version of
 * the commit the pkg tag points to. Some module mirrors refuse that pseudo-version; the host is
 * then left out and program directories run through the Automation API's in-process runtime.
 */
async function buildLanguageHost(binDir: string, env: NodeJS.ProcessEnv, log: (line: string) => void) {
  const pseudo = await languageHostPseudoVersion(env);
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
    const tmp = join(binDir, `pulumi-language-nodejs.tmp-${process.pid}`);
    await run("go", ["build", "-trimpath", "-o", tmp, LANGUAGE_HOST_MODULE], scratch, env, log);
    renameSync(tmp, join(binDir, "pulumi-language-nodejs"));
    log("built pulumi-language-nodejs");
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
async function languageHostPseudoVersion(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const { stdout } = await execFileAsync(
      "go",
      ["mod", "download", "-json", `github.com/pulumi/pulumi/pkg/v3@v${PULUMI_VERSION}`],
      { cwd: WRAPPER_DIR, env, timeout: 120_000 },
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

/**
 * Runs a command, turning `go build -v` package lines into a compact progress count and
 * keeping the tail of the output for the error message.
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    let packages = 0;
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 20) tail.shift();
        if (/^[\w.-]+(\/[\w.~-]+)+$/.test(line.trim())) {
          packages += 1;
          if (packages % 100 === 0) log(`  compiled ${packages} packages…`);
        } else if (line.startsWith("go: downloading")) {
          packages += 1;
          if (packages % 50 === 0) log(`  downloaded ${packages} modules…`);
        }
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${tail.join("\n")}`));
    });
  });
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
