/**
 * `npm run dist:executables [-- --target linux-amd64 …]`: one executable per platform, which is
 * the Pulumi plugin, the Terraform provider and the CLI (ruff and uv style: the same bytes in
 * every archive that ships it), in two archives:
 *
 * - `dist/release/pulumi-resource-webhooks-v<v>-<os>-<arch>.tar.gz`, the archive the engine
 *   downloads from `pluginDownloadURL` (the binary at its root, as the engine expects);
 *   terraform.ts makes the Terraform registries' zips from it;
 * - `dist/release/webhook-subscriptions-v<v>-<os>-<arch>.tar.gz` (`.zip` on windows), the CLI:
 *   the same executable named `webhook-subscriptions` (`.exe`).
 *
 * Each is a Node.js single executable application: every door (launcher/doors.ts) bundled with
 * everything it uses into one script of its own, each an asset of a SEA blob whose main script is
 * the launcher (launcher/sea.ts: it picks the door and reads that door's bundle alone), with the
 * schema, the resource's description, the version and the emulator's Swagger UI files (read only
 * when its `/swagger` page asks for one: emulator/swaggerAssets.ts) as assets too, made by the
 * same Node.js version as the runtimes (nodeRuntime.ts) and injected into each platform's `node`
 * with postject. Where this machine can run the target's runtime, the blob also carries V8's code cache
 * of each door's bundle, trained by that runtime on a launch of that door (codeCache/: every
 * function the launch calls arrives compiled). The linux runtimes are
 * stripped of their debug symbols first with Debian's llvm-strip (123 → 106 MB for linux-amd64; installed when missing): the darwin ones
 * keep their symbol table, as nothing here can run them to prove a stripped one still starts, and
 * the windows ones have none. The darwin executables are then signed ad hoc (sign.ts).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { isAscii } from "node:buffer";
import { build, type Plugin } from "esbuild";
import { bundleName, type Door, DOOR_ENTRIES, DOORS } from "../../launcher/doors";
import { SWAGGER_UI_FILES, swaggerAssetKey } from "../../emulator/swaggerAssets";
import { packageSchema, resourceDescription } from "../packageSchema";
import { ensureCommand } from "./debianPackages";
import {
  nodeRuntime,
  SEA_EXEC_ARGV,
  SEA_NODE_VERSION,
  type Target,
  TARGETS,
  targetName,
  targetsNamed,
} from "./nodeRuntime";
import {
  cliArchiveName,
  cliExecutableName,
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
import { trainCodeCache, type TrainingFiles } from "./codeCache/trainingLaunch";
import { reproducibleZip } from "./zip";

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

/**
 * What the CLI's bundle leaves out. The package's own manifest, which `--version` reads only
 * outside the executable (the executable's version is its asset `version`): its `require` stays
 * in the bundle and is never called. And TypeScript (9 MB, and its start-up), which @pulumi/pulumi
 * loads with its runtime but calls only to serialize an inline program's closures, which neither
 * `drift` nor `emulator` does: a stand-in says so if anything ever asks it for something.
 */
const CLI_EXTERNAL = ["pulumi-webhook-subscriptions/package.json"];
const NO_TYPESCRIPT: Plugin = {
  name: "no-typescript",
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: "typescript", namespace: "no-typescript" }));
    build.onLoad({ filter: /.*/, namespace: "no-typescript" }, () => ({
      loader: "js",
      contents: `module.exports = new Proxy({}, { get(_, key) {
        if (typeof key !== "string" || key === "__esModule" || key === "then") return undefined;
        throw new Error("webhook-subscriptions: this needs TypeScript (Pulumi's closure serialization), which the single executable does not carry; run it from the npm package: npx webhook-subscriptions …");
      } });`,
    }));
  },
};

/** `entry` and all it uses (but `external`), one CommonJS script (no node_modules beside it). */
async function bundle(entry: string, outfile: string, external: string[] = [], plugins: Plugin[] = []): Promise<void> {
  await build({
    plugins,
    entryPoints: [path.join(ROOT, entry)],
    outfile,
    bundle: true,
    platform: "node",
    target: `node${SEA_NODE_VERSION.split(".")[0]}`,
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
    external,
    // The Automation API's `require.resolve`s (a cached engine's shim, npm's node-gyp) are left
    // as they are: they resolve at run time or fail there, as the code around them expects.
    logOverride: { "require-resolve-not-external": "silent" },
  });
  assertAscii(outfile);
}

/**
 * A bundle must be ASCII: V8 then keeps its source one byte per character, and the launcher decodes
 * it from the blob in a quarter of the time (~1.5 ms rather than ~6 for 1.9 MB). esbuild escapes
 * non-ASCII in strings but leaves it in regular expressions: write those as `\u` escapes.
 */
function assertAscii(file: string): void {
  const source = readFileSync(file);
  if (isAscii(source)) return;
  const text = source.toString("utf8");
  let at = 0;
  while (text.charCodeAt(at) <= 0x7f) at++;
  throw new Error(
    `dist:executables: ${path.relative(ROOT, file)} is not ASCII, near ${JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))}. ` +
      "Write that character as a \\u escape in its source (esbuild leaves it as it is in a regular expression).",
  );
}

/**
 * The SEA blob for `target`: launcher/sea.ts as its main script; each door's bundle, the schema,
 * the resource's description and the version (launcher/seaFiles.ts reads them), Swagger UI's
 * files (`swagger-ui/<file>`, which the emulator reads) and each trained code cache as assets.
 * Made by this machine's runtime: a blob without SEA's own code cache or a snapshot is the same
 * for every platform of one Node.js version, and the caches it carries were made by the target's
 * runtime.
 */
function seaBlob(files: BuiltFiles, target: Target, caches: ReadonlyMap<Door, string>): string {
  const config = path.join(WORK, `sea-config-${targetName(target)}.json`);
  const blob = path.join(WORK, `sea-${targetName(target)}.blob`);
  const assets: Record<string, string> = {
    ...Object.fromEntries(DOORS.map((door) => [bundleName(door), files.doors[door]])),
    "schema.json": files.schema,
    "description.json": files.description,
    version: files.version,
    ...files.swaggerUi,
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
      execArgv: SEA_EXEC_ARGV,
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
 * Each door's code cache for `target`, trained by its own runtime (codeCache/), or none when
 * this machine cannot run that runtime (or `codeCache` is off).
 */
async function trainedCaches(files: BuiltFiles, target: Target, codeCache: boolean): Promise<Map<Door, string>> {
  const caches = new Map<Door, string>();
  if (!codeCache || !isRunnable(target)) return caches;
  ensureTargetTools(target);
  for (const door of DOORS) caches.set(door, await trainCodeCache(target, door, files, WORK));
  return caches;
}

/** `file`: a gzipped tar of `names`, files of `dir`. */
function tarGz(file: string, dir: string, names: readonly string[]): void {
  const tar = execFileSync("tar", ["-cf", "-", "-C", dir, ...names], { maxBuffer: 2 ** 30 });
  writeFileSync(file, gzipSync(tar));
}

/** The CLI's archive for `target`: the executable's same bytes as `webhook-subscriptions` (`.exe`), and the licence. */
function cliArchive(target: Target, binary: string, version: string): string {
  const dir = path.join(WORK, `${targetName(target)}-cli`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const names = [cliExecutableName(target.os), "LICENSE"];
  copyFileSync(binary, path.join(dir, names[0]!));
  copyFileSync(path.join(ROOT, "LICENSE"), path.join(dir, "LICENSE"));
  const file = path.join(releaseDir(), cliArchiveName(version, target.os, target.arch));
  if (target.os === "windows") reproducibleZip(file, dir, names, "dist:executables");
  else tarGz(file, dir, names);
  return file;
}

/**
 * The executable for `target`; with `archive`, the two archives that hold it (the plugin's, then
 * the CLI's) instead.
 */
function executable(target: Target, blob: string, version: string, archive: boolean): string[] {
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
  // The same signature in both archives: the CLI's holds these very bytes.
  if (target.os === "darwin") signAdHoc(binary, PLUGIN_BINARY);
  if (!archive) return [binary];
  copyFileSync(path.join(ROOT, "LICENSE"), path.join(dir, "LICENSE"));
  const file = path.join(releaseDir(), executableArchiveName(version, target.os, target.arch));
  tarGz(file, dir, [path.basename(binary), "LICENSE"]);
  return [file, cliArchive(target, binary, version)];
}

/** What every target's blob is made of, built once. */
interface BuiltFiles extends TrainingFiles {
  /** The SEA's main script (launcher/sea.ts). */
  readonly entry: string;
  /** Each door's bundle. */
  readonly doors: Readonly<Record<Door, string>>;
  readonly schema: string;
  readonly description: string;
  readonly version: string;
  /** Swagger UI's files from the swagger-ui-dist development dependency, by asset name. */
  readonly swaggerUi: Readonly<Record<string, string>>;
}

/**
 * The bundles (each door, the SEA entry, the trainer), the plugin folder a training launch
 * reads as a plugin directory (schema.json, description.json and package.json's version), and
 * Swagger UI's files in the swagger-ui-dist development dependency, as vendorSwaggerUi copies them.
 */
async function buildFiles(version: string): Promise<BuiltFiles> {
  const at = (name: string) => path.join(WORK, name);
  const doors = Object.fromEntries(DOORS.map((door) => [door, at(bundleName(door))])) as Record<Door, string>;
  for (const door of DOORS)
    if (door === "cli") await bundle(DOOR_ENTRIES[door], doors[door], CLI_EXTERNAL, [NO_TYPESCRIPT]);
    else await bundle(DOOR_ENTRIES[door], doors[door]);
  await bundle("launcher/sea.ts", at("entry.js"));
  await bundle("scripts/release/codeCache/train.ts", at("train.js"));
  const pluginDir = at("plugin-dir");
  mkdirSync(pluginDir, { recursive: true });
  const description = resourceDescription();
  writeFileSync(path.join(pluginDir, "schema.json"), `${JSON.stringify(packageSchema(description), null, 2)}\n`);
  writeFileSync(path.join(pluginDir, "description.json"), `${JSON.stringify(description, null, 2)}\n`);
  writeFileSync(path.join(pluginDir, "package.json"), JSON.stringify({ version }));
  writeFileSync(at("version"), version);
  const swaggerUiDist = path.dirname(require.resolve("swagger-ui-dist/package.json", { paths: [ROOT] }));
  return {
    doors,
    bundles: doors,
    entry: at("entry.js"),
    trainer: at("train.js"),
    pluginDir,
    schema: path.join(pluginDir, "schema.json"),
    description: path.join(pluginDir, "description.json"),
    version: at("version"),
    swaggerUi: Object.fromEntries(
      SWAGGER_UI_FILES.map((file) => [swaggerAssetKey(file), path.join(swaggerUiDist, file)]),
    ),
  };
}

/**
 * Builds the archives for `targets` (all by default) into dist/release/, the plugin's and the
 * CLI's of each; returns their paths.
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
    const [file, ...more] = executable(target, seaBlob(files, target, caches), version, archive);
    built.push(file!, ...more);
    console.log(
      `${describe(file!)}${caches.size > 0 ? ` (with V8's code cache of each door, trained by its own runtime)` : codeCache ? " (no code cache: its runtime cannot run here)" : " (no code cache)"}`,
    );
    for (const cli of more) console.log(`${describe(cli)} (the same executable, as the CLI)`);
  }
  return built;
}

if (require.main === module) {
  const { values } = parseArgs({ options: { target: { type: "string", multiple: true } } });
  runStep(async () => {
    await buildExecutables(targetsNamed("dist:executables", values.target));
  });
}
