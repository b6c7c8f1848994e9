/**
 * A fresh copy of this repository, as a user has it after `git clone` and `npm ci`, for tests
 * that run what the docs tell a user to type. `npm ci` itself is not run: on this 2-core machine
 * it takes about two minutes and needs the registry or a warm cache. Instead the copy's
 * node_modules links to this checkout's install of the same lockfile, entry by entry, so that
 * the one package that must be the copy's own, the `file:` self-link, is. And the build `npm ci`
 * runs (`prepare`) starts from this checkout's: its dist/ and the stamp scripts/build.ts keeps,
 * copied with their timestamps, so that the copy's `npm run build` compiles only what differs
 * (nothing, when the checkout is built: `npm test` builds first) instead of 38 s of CPU for a
 * clean build in every copy.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { BUILD_CACHE, NOT_OURS } from "../../scripts/build";

const execFileAsync = promisify(execFile);

/** This checkout (not support/engine.ts's: that module loads vitest, and the benchmarks copy it too). */
const REPO_ROOT = join(__dirname, "../..");
/** This package's name: node_modules holds it as a `file:` link to the repository root. */
const SELF = "pulumi-webhook-subscriptions";

/**
 * Copies into `dir` (which must be empty or missing) the files git knows, as they are in the
 * working tree (tracked ones, and new ones that are not ignored): what a clone of the current
 * work holds. Then links node_modules, copies this checkout's build, and builds dist/, the build
 * `npm ci` runs (`prepare`), unless `build` is false (the test runs a script that builds it anyway).
 */
export async function copyRepository(dir: string, { build = true }: { build?: boolean } = {}): Promise<void> {
  const { stdout } = await execFileAsync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  mkdirSync(dir, { recursive: true });
  for (const file of stdout.split("\0")) {
    // A file deleted in the working tree but not yet in git's index is not part of the work.
    if (file !== "" && existsSync(join(REPO_ROOT, file)))
      cpSync(join(REPO_ROOT, file), join(dir, file), { verbatimSymlinks: true });
  }
  linkNodeModules(dir);
  await copyBuild(dir);
  if (build) await execFileAsync("npm", ["run", "build", "--silent"], { cwd: dir });
}

/**
 * This checkout's build in the copy `dir`: dist/ but the other builds' folders (the plugin, the
 * executables, the release), and the build's stamp and TypeScript's build info. `cp -a` keeps
 * each file's modification time to the nanosecond, which the stamp holds (scripts/build.ts).
 */
async function copyBuild(dir: string): Promise<void> {
  const dist = join(REPO_ROOT, "dist");
  const cache = join(REPO_ROOT, BUILD_CACHE);
  if (!existsSync(dist) || !existsSync(cache)) return;
  const ours = readdirSync(dist).filter((entry) => !NOT_OURS.has(entry));
  mkdirSync(join(dir, "dist"), { recursive: true });
  mkdirSync(dirname(join(dir, BUILD_CACHE)), { recursive: true });
  if (ours.length > 0) await execFileAsync("cp", ["-a", ...ours.map((entry) => join(dist, entry)), join(dir, "dist")]);
  await execFileAsync("cp", ["-a", cache, dirname(join(dir, BUILD_CACHE))]);
}

/**
 * node_modules of the copy: a real directory whose entries link to this checkout's packages,
 * except the self-link, which points at the copy (`..`, as npm made it), `.bin`, whose
 * relative links are recreated so that `webhook-subscriptions` runs the copy's bin, and `.cache`,
 * which each copy has of its own.
 */
function linkNodeModules(dir: string): void {
  const from = join(REPO_ROOT, "node_modules");
  if (realpathSync(join(from, SELF)) !== realpathSync(REPO_ROOT))
    throw new Error(`${join(from, SELF)} is not the \`file:\` link to ${REPO_ROOT}: run \`npm ci\` here first.`);
  const to = join(dir, "node_modules");
  mkdirSync(join(to, ".bin"), { recursive: true });
  for (const entry of readdirSync(from)) {
    // `.cache` too: tools keep per-checkout state there (the build's, scripts/build.ts).
    if (entry === ".bin" || entry === ".cache") continue;
    symlinkSync(entry === SELF ? ".." : join(from, entry), join(to, entry));
  }
  for (const bin of readdirSync(join(from, ".bin")))
    symlinkSync(readlinkSync(join(from, ".bin", bin)), join(to, ".bin", bin));
}
