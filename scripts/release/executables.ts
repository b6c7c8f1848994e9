/**
 * `npm run dist:executables [-- --target linux-amd64 …]`: the plugin as one executable per
 * platform, `dist/release/pulumi-resource-webhooks-v<v>-<os>-<arch>.tar.gz`, the archive the
 * engine downloads from `pluginDownloadURL` (the binary at its root, as the engine expects).
 *
 * Each is a Node.js single executable application: the native front door (provider/native/main.ts)
 * bundled with everything it uses into one script, carried as an asset of a SEA blob whose main
 * script is provider/native/seaEntry.ts (with the schema and the version as assets too), made by
 * the same Node.js version as the runtimes (nodeRuntime.ts) and injected into each platform's
 * `node` with postject. Where this machine can run the target's runtime, the blob also carries
 * V8's code cache of the bundle for each front door, trained by that runtime on a launch of that
 * door (codeCache/: every function the launch calls arrives compiled). The linux runtimes are
 * stripped of their debug symbols first with Debian's llvm-strip (123 → 106 MB for linux-amd64; installed when missing): the darwin ones
 * keep their symbol table, as nothing here can run them to prove a stripped one still starts, and
 * the windows ones have none. The darwin executables are then signed ad hoc (sign.ts).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { packageSchema, resourceDescription } from "../packageSchema";
import { ensureCommand } from "./debianPackages";
import { nodeRuntime, SEA_NODE_VERSION, type Target, TARGETS, targetName, targetsNamed } from "./nodeRuntime";
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
import { DOORS, type Door, trainCodeCache, type TrainingFiles } from "./codeCache/trainingLaunch";

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

/** `entry` and all it uses, one CommonJS script (no node_modules beside it). */
async function bundle(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [path.join(ROOT, entry)],
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
 * The SEA blob for `target`: seaEntry.ts as its main script, the bundle, the schema, the resource's
 * description and the version (provider/native/main.ts reads them) and each trained code cache as
 * assets. Made by this
 * machine's runtime: a blob without SEA's own code cache or a snapshot is the same for every
 * platform of one Node.js version, and the caches it carries were made by the target's runtime.
 */
function seaBlob(files: BuiltFiles, target: Target, caches: ReadonlyMap<Door, string>): string {
  const config = path.join(WORK, `sea-config-${targetName(target)}.json`);
  const blob = path.join(WORK, `sea-${targetName(target)}.blob`);
  const assets: Record<string, string> = {
    "plugin.js": files.bundle,
    "schema.json": files.schema,
    "description.json": files.description,
    version: files.version,
  };
  for (const [door, cache] of caches) assets[`${door}.codecache`] = cache;
  writeFileSync(
    config,
    JSON.stringify({
      main: files.entry,
      output: blob,
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets,
    }),
  );
  const maker = hostTarget();
  const how = runOnTarget(maker, nodeRuntime(maker), ["--experimental-sea-config", config]);
  const output = path.join(WORK, `sea-config-${targetName(target)}.log`);
  const fd = openSync(output, "w");
  try {
    execFileSync(how.command, how.args, { env: how.env, stdio: ["ignore", fd, fd] });
  } catch (err) {
    throw new Error(`dist:executables: node --experimental-sea-config failed: ${readFileSync(output, "utf8")}`, {
      cause: err,
    });
  } finally {
    closeSync(fd);
  }
  return blob;
}

/**
 * Each front door's code cache for `target`, trained by its own runtime (codeCache/), or none
 * when this machine cannot run that runtime (or `codeCache` is off).
 */
async function trainedCaches(files: BuiltFiles, target: Target, codeCache: boolean): Promise<Map<Door, string>> {
  const caches = new Map<Door, string>();
  if (!codeCache || !isRunnable(target)) return caches;
  ensureTargetTools(target);
  for (const door of DOORS) caches.set(door, await trainCodeCache(target, door, files, WORK));
  return caches;
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

/** What every target's blob is made of, built once. */
interface BuiltFiles extends TrainingFiles {
  /** The SEA's main script (provider/native/seaEntry.ts). */
  readonly entry: string;
  readonly schema: string;
  readonly description: string;
  readonly version: string;
}

/**
 * The bundles (the plugin, the SEA entry, the trainer) and the plugin folder a training launch
 * reads as a plugin directory: schema.json, description.json and package.json's version.
 */
async function buildFiles(version: string): Promise<BuiltFiles> {
  const at = (name: string) => path.join(WORK, name);
  await bundle("provider/native/main.ts", at("plugin.js"));
  await bundle("provider/native/seaEntry.ts", at("entry.js"));
  await bundle("scripts/release/codeCache/train.ts", at("train.js"));
  const pluginDir = at("plugin-dir");
  mkdirSync(pluginDir, { recursive: true });
  const description = resourceDescription();
  writeFileSync(path.join(pluginDir, "schema.json"), `${JSON.stringify(packageSchema(description), null, 2)}\n`);
  writeFileSync(path.join(pluginDir, "description.json"), `${JSON.stringify(description, null, 2)}\n`);
  writeFileSync(path.join(pluginDir, "package.json"), JSON.stringify({ version }));
  writeFileSync(at("version"), version);
  return {
    bundle: at("plugin.js"),
    entry: at("entry.js"),
    trainer: at("train.js"),
    pluginDir,
    schema: path.join(pluginDir, "schema.json"),
    description: path.join(pluginDir, "description.json"),
    version: at("version"),
  };
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
  const files = await buildFiles(version);
  const built: string[] = [];
  for (const target of targets) {
    const caches = await trainedCaches(files, target, codeCache);
    const file = executable(target, seaBlob(files, target, caches), version, archive);
    built.push(file);
    console.log(
      `${describe(file)}${caches.size > 0 ? ` (with V8's code cache of each front door, trained by its own runtime)` : codeCache ? " (no code cache: its runtime cannot run here)" : " (no code cache)"}`,
    );
  }
  return built;
}

if (require.main === module) {
  const { values } = parseArgs({ options: { target: { type: "string", multiple: true } } });
  runStep(async () => {
    await buildExecutables(targetsNamed("dist:executables", values.target));
  });
}
