/**
 * `npm run build` (also `prepare`, and `npm start` before it runs the program): dist/ from the
 * TypeScript sources — the package (tsconfig.json) and the generated SDK (tsconfig.native.json) —
 * redoing only what changed, always to the dist/ a clean build makes:
 *
 * - nothing changed since the last build (the projects' source files and configs hash the same,
 *   and dist/ is as that build left it): nothing to do;
 * - sources changed, dist/ untouched since: an incremental compile (`tsc --incremental`, in this
 *   process through TypeScript's API, its build info in node_modules/.cache/webhook-subscriptions-build/,
 *   where tools keep their caches: a clean-up that leaves a clone as installed keeps it),
 *   then the outputs of deleted sources removed;
 * - else (no build yet, dist/ changed by something else, or `--clean`, which `prepack` uses): dist/
 *   emptied (but dist/release, the release's artifacts) and built whole.
 *
 * dist/plugin and dist/executables (`npm run build:plugin`, `npm run dist:executables`) are not
 * this build's: an incremental build leaves them, a clean one removes them.
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type * as TS from "typescript";
import { vendorSwaggerUi } from "./vendorSwaggerUi";

/** The two projects, in build order (the SDK's sources import the package's). */
const PROJECTS = ["tsconfig.json", "tsconfig.native.json"];
/** Directories of dist/ that other builds write. */
export const NOT_OURS: ReadonlySet<string> = new Set(["release", "plugin", "executables"]);
/** Where the build keeps its stamp and TypeScript's build info, relative to the repository root. */
export const BUILD_CACHE = path.join("node_modules", ".cache", "webhook-subscriptions-build");

/** What a build did. */
export type BuildKind = "up to date" | "incremental" | "clean";

/**
 * What the last build saw: its sources' hash and the dist/ it left; the source files, and the
 * modification time of each directory holding them (a file added or removed there moves it).
 */
interface Stamp {
  readonly sources: string;
  readonly dist: string;
  readonly files: readonly string[];
  readonly dirs: Record<string, number>;
}

/**
 * TypeScript, loaded on first use: about 150 ms, which an up-to-date check (every `npm start`)
 * needs only when a source directory changed since the last build.
 */
function typescript(): typeof TS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily on purpose
  return require("typescript") as typeof TS;
}

/** A project's config as tsc reads it: its options and its files (the include, expanded). */
function readProject(root: string, config: string): TS.ParsedCommandLine {
  const ts = typescript();
  const file = path.join(root, config);
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(`build: ${config}: ${ts.flattenDiagnosticMessageText(read.error.messageText, "\n")}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, file);
}

/**
 * `tsc -p <config> --incremental` in this process (TypeScript is loaded once for both projects):
 * emits, then throws with tsc's diagnostics if there are any.
 */
function compile(root: string, config: string, buildInfo: string): void {
  const ts = typescript();
  const project = readProject(root, config);
  const options = { ...project.options, incremental: true, tsBuildInfoFile: buildInfo };
  const host = ts.createIncrementalCompilerHost(options);
  const program = ts.createIncrementalProgram({
    rootNames: project.fileNames,
    options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(project),
  });
  const emitted = program.emit();
  const diagnostics = ts.sortAndDeduplicateDiagnostics([
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSemanticDiagnostics(),
    ...emitted.diagnostics,
  ]);
  if (diagnostics.length > 0)
    throw new Error(
      `${config}:\n${ts.formatDiagnostics(diagnostics, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => root,
        getNewLine: () => "\n",
      })}`,
    );
}

/** Every source file, config and manifest the build reads, relative to `root`, sorted. */
function sourceFiles(root: string): string[] {
  const files = new Set(["package.json", "package-lock.json", "sdk/nodejs/package.json", ...PROJECTS]);
  for (const project of PROJECTS)
    for (const file of readProject(root, project).fileNames) files.add(path.relative(root, file));
  return [...files].sort();
}

/** One hash of `files`' contents (a missing one counts as such). */
function sourcesHash(root: string, files: readonly string[]): string {
  const hash = createHash("sha256");
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(`${file}\0${existsSync(full) ? readFileSync(full).toString("base64") : "-"}\0`);
  }
  return hash.digest("hex");
}

/** The modification time of each directory holding `files`, and of its parents below `root`. */
function sourceDirs(root: string, files: readonly string[]): Record<string, number> {
  const dirs: Record<string, number> = {};
  for (const file of files)
    for (let dir = path.dirname(file); dir !== "."; dir = path.dirname(dir))
      dirs[dir] ??= existsSync(path.join(root, dir)) ? statSync(path.join(root, dir)).mtimeMs : -1;
  return dirs;
}

/** This build's files in dist/, relative to it. */
function distFiles(dist: string, dir = ""): string[] {
  if (!existsSync(path.join(dist, dir))) return [];
  return readdirSync(path.join(dist, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (dir === "" && NOT_OURS.has(entry.name)) return [];
    return entry.isDirectory() ? distFiles(dist, rel) : [rel];
  });
}

/** dist/ as a build leaves it: each file's path, size and modification time. */
function distState(dist: string): string {
  const hash = createHash("sha256");
  for (const file of distFiles(dist).sort()) {
    const stat = statSync(path.join(dist, file));
    hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\0`);
  }
  return hash.digest("hex");
}

/** Removes outputs whose source is gone (`a/b.js`, `a/b.d.ts` without `a/b.ts`), then empty directories. */
function pruneOrphans(root: string, dist: string): void {
  for (const file of distFiles(dist)) {
    const source = file.replace(/(\.d\.ts|\.js)$/, ".ts");
    if (source !== file && !existsSync(path.join(root, source))) rmSync(path.join(dist, file));
  }
  const prune = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory() && !(dir === dist && NOT_OURS.has(entry.name))) prune(path.join(dir, entry.name));
    if (dir !== dist && readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  };
  prune(dist);
}

/**
 * This repository's root: the first directory up from this file with a package.json (this file
 * runs from scripts/ through tsx, and from dist/scripts/ as `npm start` runs it).
 */
export function repositoryRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`build: no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/** What the last build left and whether dist/ is up to date with the sources (a build would do nothing). */
function buildState(root: string) {
  const dist = path.join(root, "dist");
  const cache = path.join(root, BUILD_CACHE);
  const stampFile = path.join(cache, "stamp.json");
  const stamp = existsSync(stampFile) ? (JSON.parse(readFileSync(stampFile, "utf8")) as Partial<Stamp>) : undefined;
  // The last build's file list holds while no directory of it changed; else TypeScript expands the includes again.
  const sameDirs = stamp?.files !== undefined && isDeepStrictEqual(stamp.dirs, sourceDirs(root, stamp.files));
  const files = sameDirs ? stamp.files! : sourceFiles(root);
  const sources = sourcesHash(root, files);
  const distIntact = stamp !== undefined && existsSync(dist) && stamp.dist === distState(dist);
  return { dist, cache, stampFile, files, sources, distIntact, upToDate: distIntact && stamp.sources === sources };
}

/** Whether dist/ in `root` is what a build would make now: `npm start` then runs it as it is (scripts/start.cjs). */
export function isUpToDate(root = repositoryRoot()): boolean {
  return buildState(root).upToDate;
}

/**
 * Builds dist/ in `root` (this repository by default) as the header says; `log` hears one line
 * when there is work to do, saying which.
 */
export function build(options: { root?: string; clean?: boolean; log?: (line: string) => void } = {}): BuildKind {
  const root = options.root ?? repositoryRoot();
  const log = options.log ?? ((line: string) => console.log(line));
  const { dist, cache, stampFile, files, sources, distIntact, upToDate } = buildState(root);
  if (!options.clean && upToDate) return "up to date";

  const kind: BuildKind = options.clean || !distIntact ? "clean" : "incremental";
  if (kind === "clean") {
    log("building dist/ from the TypeScript sources (a clean build: ~20 s)…");
    for (const entry of existsSync(dist) ? readdirSync(dist) : [])
      if (entry !== "release") rmSync(path.join(dist, entry), { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  } else log("sources changed since the last build: rebuilding dist/ incrementally…");
  mkdirSync(cache, { recursive: true });
  for (const project of PROJECTS)
    compile(root, project, path.join(cache, `${path.basename(project, ".json")}.tsbuildinfo`));
  pruneOrphans(root, dist);
  vendorSwaggerUi(root);
  copyFileSync(path.join(root, "sdk/nodejs/package.json"), path.join(dist, "sdk/nodejs/package.json"));
  chmodSync(path.join(dist, "cli/index.js"), 0o755);
  const stamp: Stamp = { sources, dist: distState(dist), files, dirs: sourceDirs(root, files) };
  writeFileSync(stampFile, JSON.stringify(stamp));
  return kind;
}

if (require.main === module) {
  const clean = process.argv.includes("--clean");
  // `npx webhook-subscriptions` in a clone without dist/ runs this as `prepare` (directly: a nested
  // `npm run build` would no longer say so), and npm hides a prepare's output: the terminal itself
  // is told, so a 20 s wait is not a silent one.
  const viaNpx = process.env.npm_command === "exec" && process.env.npm_lifecycle_event === "prepare";
  const log = (line: string): void => {
    console.log(`[build] ${line}`);
    if (viaNpx) {
      try {
        // On a line of its own: npm redraws its spinner over the current one.
        writeFileSync("/dev/tty", `\r\x1b[0K[webhook-subscriptions] ${line}\n`);
      } catch {
        // No terminal (CI): nobody is waiting at one.
      }
    }
  };
  try {
    build({ clean, log });
  } catch (err) {
    console.error(`[build] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
