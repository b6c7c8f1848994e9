/**
 * actionlint, the GitHub Actions workflow checker, for the test of .github/workflows/: a Go
 * module, installed with the machine's Go (`go install …@<version>`) once into a cache outside
 * the repository, `~/.cache/pulumi-webhook-subscriptions/actionlint/<version>/`.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "../../engine/cacheHome";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "../../engine/goBuild";

const execFileAsync = promisify(execFile);

/** The version the workflows are checked with. */
export const ACTIONLINT_VERSION = "v1.7.12";
const MODULE = "github.com/rhysd/actionlint/cmd/actionlint";

/** The actionlint binary, installed first if the cache lacks it; throws saying what failed and what to do. */
export async function actionlint(): Promise<string> {
  const dir = cacheHome("actionlint", ACTIONLINT_VERSION);
  const binary = join(dir, "actionlint");
  if (existsSync(binary)) return binary;
  try {
    await execFileAsync("go", ["install", ...GO_BUILD_FLAGS, `${MODULE}@${ACTIONLINT_VERSION}`], {
      env: { ...process.env, ...GO_BUILD_ENV, GOBIN: dir, GOFLAGS: "-mod=mod" },
      timeout: 600_000,
    });
  } catch (err) {
    const detail = err instanceof Error ? ((err as { stderr?: string }).stderr ?? "") || err.message : String(err);
    throw new Error(
      `could not install actionlint (go install ${MODULE}@${ACTIONLINT_VERSION}): ${detail.trim()}\n` +
        "It needs Go on PATH and the Go module proxy; or put the binary at " +
        binary,
      { cause: err },
    );
  }
  return binary;
}
