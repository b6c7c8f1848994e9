/**
 * `npm run dist:executables [-- --target linux-amd64 …]`: the plugin as one executable per
 * platform, `dist/release/pulumi-resource-webhooks-v<v>-<os>-<arch>.tar.gz`, the archive the
 * engine downloads from `pluginDownloadURL` (the binary at its root, as the engine expects).
 *
 * Each is a Node.js single executable application: the native front door (provider/native/main.ts)
 * bundled with everything it uses into one script, made into a SEA blob (with the schema as an
 * asset) by the same Node.js version as the runtimes (nodeRuntime.ts) — with V8's code cache by the
 * target's own runtime where this machine can run it (seaBlob) — injected into each platform's
 * `node` with postject. The linux runtimes are stripped of their debug symbols first
 * with Debian's llvm-strip (123 → 106 MB for linux-amd64; installed when missing): the darwin ones
 * keep their symbol table, as nothing here can run them to prove a stripped one still starts, and
 * the windows ones have none. The darwin executables are then signed ad hoc (sign.ts).
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { packageSchema } from "../packageSchema";
import { ensureCommand } from "./debianPackages";
import { nodeRuntime, SEA_NODE_VERSION, type Target, TARGETS, targetName } from "./nodeRuntime";
import {
  describe,
  executableArchiveName,
  executableName,
  PLUGIN_BINARY,
  releaseDir,
  releaseVersion,
  ROOT,
  runStep,
} from "./release";
import { signAdHoc } from "./sign";
import { ensureTargetTools, isRunnable, runOnTarget } from "./targets";

const WORK = path.join(ROOT, "dist/executables");
/** The fuse Node.js looks for to know a blob was injected (docs: Single executable applications). */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

/** The platform this build runs on, whose runtime makes the blob. */
function hostTarget(): Target {
  const os = ({ linux: "linux", darwin: "darwin", win32: "windows" } as const)[process.platform as string];
  const arch = ({ x64: "amd64", arm64: "arm64" } as const)[process.arch as string];
  if (!os || !arch)
    throw new Error(`dist:executables: no Node.js runtime for this machine (${process.platform}-${process.arch})`);
  return { os, arch };
}

/** The native front door and all it uses, one CommonJS script (no node_modules beside it). */
async function bundle(outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, "provider/native/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: `node${SEA_NODE_VERSION.split(".")[0]}`,
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
}

/**
 * The SEA blob for `script` on `target`, with the schema and the version (a file holding it) as the
 * assets provider/native/main.ts reads.
 * V8's code cache (`useCodeCache`: the script compiled ahead, 150 → 110 ms CPU at every start on
 * linux-amd64) is accepted only by the runtime whose built-in V8 snapshot made it: its header
 * holds that snapshot's read-only checksum, and the six runtimes' differ (docs/release.md). So
 * each target this machine can run (targets.ts: natively, under qemu or under wine) makes its own
 * blob with its own `node`; the others (darwin, windows-arm64) get one without a cache, made here
 * (a blob without a cache or a snapshot is the same for every platform of one Node.js version).
 * No start-up snapshot (`useSnapshot`): it needs the entry rewritten around
 * `v8.startupSnapshot`, and Node.js cannot snapshot the gRPC server's modules (http2, net).
 */
function seaBlob(
  script: string,
  schema: string,
  version: string,
  target: Target,
  wantCodeCache: boolean,
): { blob: string; codeCache: boolean } {
  const codeCache = wantCodeCache && isRunnable(target);
  const config = path.join(WORK, `sea-config-${targetName(target)}.json`);
  const blob = path.join(WORK, `sea-${targetName(target)}.blob`);
  writeFileSync(
    config,
    JSON.stringify({
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: codeCache,
      assets: { "schema.json": schema, version },
    }),
  );
  const maker = codeCache ? target : hostTarget();
  ensureTargetTools(maker);
  const how = runOnTarget(maker, nodeRuntime(maker), ["--experimental-sea-config", config]);
  // Its output to a file: Node.js under wine cannot write to a pipe (targets.ts).
  const output = path.join(WORK, `sea-config-${targetName(target)}.log`);
  const fd = openSync(output, "w");
  try {
    execFileSync(how.command, how.args, { env: how.env, stdio: ["ignore", fd, fd] });
  } catch (err) {
    throw new Error(
      `dist:executables: ${targetName(maker)}'s node --experimental-sea-config failed: ${readFileSync(output, "utf8")}`,
      { cause: err },
    );
  } finally {
    closeSync(fd);
  }
  return { blob, codeCache };
}

/** The executable for `target` inside its archive. */
function executable(target: Target, blob: string, version: string, archive: boolean): string {
  const node = nodeRuntime(target);
  const dir = path.join(WORK, targetName(target));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const binary = path.join(dir, executableName(target.os));
  copyFileSync(node, binary);
  chmodSync(binary, 0o755);
  if (target.os === "linux") execFileSync(ensureCommand("llvm-strip", ["llvm"], "dist:executables"), [binary]);
  const postject = require.resolve("postject/dist/cli.js");
  const macho = target.os === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [];
  // Piped: its ELF parser warns about Node.js's many note sections; a failure throws with its stderr.
  execFileSync(process.execPath, [postject, binary, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE, ...macho], {
    stdio: "pipe",
  });
  if (target.os === "darwin") signAdHoc(binary, PLUGIN_BINARY);
  if (!archive) return binary;
  copyFileSync(path.join(ROOT, "LICENSE"), path.join(dir, "LICENSE"));
  const file = path.join(releaseDir(), executableArchiveName(version, target.os, target.arch));
  const tar = execFileSync("tar", ["-cf", "-", "-C", dir, path.basename(binary), "LICENSE"], { maxBuffer: 2 ** 30 });
  writeFileSync(file, gzipSync(tar));
  return file;
}

/**
 * Builds the archives for `targets` (all by default) into dist/release/; returns their paths.
 * `codeCache: false` leaves V8's code cache out of every blob (bench/codeCacheStart.ts compares);
 * `archive: false` leaves dist/release/ alone (and its SHA256SUMS true) and returns the executables
 * in dist/executables/ (the benches start them).
 */
export async function buildExecutables(
  targets: readonly Target[] = TARGETS,
  { codeCache = true, archive = true }: { codeCache?: boolean; archive?: boolean } = {},
): Promise<string[]> {
  const version = releaseVersion();
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const script = path.join(WORK, "plugin.js");
  await bundle(script);
  const schema = path.join(WORK, "schema.json");
  writeFileSync(schema, `${JSON.stringify(packageSchema(), null, 2)}\n`);
  const versionFile = path.join(WORK, "version");
  writeFileSync(versionFile, version);
  const built: string[] = [];
  for (const target of targets) {
    const sea = seaBlob(script, schema, versionFile, target, codeCache);
    const file = executable(target, sea.blob, version, archive);
    built.push(file);
    console.log(
      `${describe(file)}${sea.codeCache ? " (with V8's code cache, made by its own runtime)" : codeCache ? " (no code cache: its runtime cannot run here)" : " (no code cache)"}`,
    );
  }
  return built;
}

if (require.main === module) {
  const { values } = parseArgs({ options: { target: { type: "string", multiple: true } } });
  const wanted = values.target ?? TARGETS.map(targetName);
  const unknown = wanted.filter((name) => !TARGETS.some((target) => targetName(target) === name));
  if (unknown.length > 0 || !existsSync(ROOT)) {
    console.error(
      `dist:executables: unknown --target ${unknown.join(", ")}; one of ${TARGETS.map(targetName).join(", ")}`,
    );
    process.exit(2);
  }
  runStep(async () => {
    await buildExecutables(TARGETS.filter((target) => wanted.includes(targetName(target))));
  });
}
