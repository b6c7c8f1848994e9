/**
 * Builds a command from a Go module's own source, as its release build does: the module is
 * downloaded from the Go module proxy at an exact version, copied out of the read-only module
 * cache and built inside itself, so its go.mod's `replace` directives apply (`go install
 * module@version` refuses a module that has any).
 */
import { execFile } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "./goBuild";
import { run } from "./run";

const execFileAsync = promisify(execFile);

/** One command of one module version. */
export interface GoModuleCommand {
  /** Module path, e.g. `github.com/opentofu/opentofu`. */
  module: string;
  /** Exact version with its `v`. */
  version: string;
  /** The main package inside the module, e.g. `./cmd/tofu`. */
  packageDir: string;
  /** `-ldflags` for `go build`, e.g. version stamps. */
  ldflags: string;
}

/**
 * Builds `command` into the file `out` (written under a temporary name and moved into place, so an
 * interrupted build never looks finished). `scratchRoot` holds the module's copy while it builds.
 */
export async function buildGoModuleCommand(
  command: GoModuleCommand,
  out: string,
  scratchRoot: string,
  log: (line: string) => void,
): Promise<void> {
  const env = {
    ...process.env,
    ...GO_BUILD_ENV,
    // The module's go.sum pins every dependency.
    GOFLAGS: "-mod=readonly",
  };
  const id = `${command.module}@${command.version}`;
  const scratch = join(scratchRoot, `build-${process.pid}`);
  try {
    log(`downloading ${id} from the Go module proxy`);
    const source = await moduleDir(id, env);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratchRoot, { recursive: true });
    cpSync(source, scratch, { recursive: true });
    makeWritable(scratch); // the module cache's copy is read-only, and so would the copy be, even to rmSync
    log(`downloading ${id}'s dependencies`);
    await run("go", ["mod", "download"], scratch, env, log);
    log(`compiling ${command.packageDir} (cold: minutes on 2 cores)`);
    const tmp = `${out}.tmp-${process.pid}`;
    mkdirSync(join(out, ".."), { recursive: true });
    await run(
      "go",
      ["build", "-v", ...GO_BUILD_FLAGS, "-ldflags", command.ldflags, "-o", tmp, command.packageDir],
      scratch,
      env,
      log,
    );
    renameSync(tmp, out);
    log(`built ${out}`);
  } catch (err) {
    throw new Error(
      `Cannot build ${id} (${command.packageDir}) from the Go module proxy: ${(err as Error).message}\n` +
        "It needs Go at least as new as the module's go.mod asks (`go version`), and the Go module proxy " +
        "(GOPROXY); install those and run again.",
      { cause: err },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `go mod download -json module@version`'s `Dir`: the module's source in the module cache. */
async function moduleDir(id: string, env: NodeJS.ProcessEnv): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await execFileAsync("go", ["mod", "download", "-json", id], {
      env: { ...env, GOFLAGS: "-mod=mod" },
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    }));
  } catch (err) {
    // `go mod download -json` reports a failure in its JSON's Error, on stdout.
    const { stdout: out, stderr, message } = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`go mod download -json ${id} failed: ${(out || stderr || message).trim()}`, { cause: err });
  }
  const { Dir, Error: error } = JSON.parse(stdout) as { Dir?: string; Error?: string };
  if (!Dir) throw new Error(`go mod download -json ${id} gave no directory: ${error ?? stdout.trim()}`);
  return Dir;
}

function makeWritable(dir: string): void {
  chmodSync(dir, statSync(dir).mode | 0o200);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else if (entry.isFile()) chmodSync(path, statSync(path).mode | 0o200);
  }
}
