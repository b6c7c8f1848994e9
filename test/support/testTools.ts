/**
 * Tools the API-description tests drive that npm does not bring: schemathesis (PyPI, pinned,
 * in a venv cached outside the repository) and Debian's `chromium` (apt-get, when missing).
 * Both install on first use, so `npm test` works on a new machine with nothing installed by
 * hand; an install that fails throws with what to do, never skips.
 *
 * `npx tsx test/support/testTools.ts` installs both ahead of time.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "../../engine/cacheHome";
import { aptInstall } from "../../scripts/release/debianPackages";

const execFileAsync = promisify(execFile);

/** The schemathesis release the property-based API test runs (its checks' names are of this version). */
export const SCHEMATHESIS_VERSION = "4.32.5";

/** Where Debian's package puts the browser. */
export const CHROMIUM = "/usr/bin/chromium";

/** `~/.cache/pulumi-webhook-subscriptions/tools` (or under `$XDG_CACHE_HOME`). */
export function toolsDir(): string {
  return cacheHome("tools");
}

async function run(command: string, args: readonly string[], what: string, env?: NodeJS.ProcessEnv): Promise<void> {
  try {
    await execFileAsync(command, args, { timeout: 900_000, maxBuffer: 64 * 1024 * 1024, env: env ?? process.env });
  } catch (error) {
    const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message: string };
    const tail = `${stdout ?? ""}${stderr ?? ""}`.trim().split("\n").slice(-15).join("\n");
    throw new Error(`${what} failed (${command} ${args.join(" ")}): ${message}\n${tail}`, { cause: error });
  }
}

/** The `st` executable of schemathesis `SCHEMATHESIS_VERSION`, installed into its own venv once. */
export async function ensureSchemathesis(log: (line: string) => void = () => {}): Promise<string> {
  const venv = join(toolsDir(), `schemathesis-${SCHEMATHESIS_VERSION}`);
  const st = join(venv, "bin", "st");
  // Written last: an interrupted install never looks finished (a venv cannot be moved into place).
  const done = join(venv, "installed");
  if (existsSync(done)) return st;
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI into ${venv}`);
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(toolsDir(), { recursive: true });
  await ensurePythonVenv(log);
  await run("python3", ["-m", "venv", venv], "Creating a Python venv for schemathesis");
  await run(
    join(venv, "bin", "python"),
    ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `schemathesis==${SCHEMATHESIS_VERSION}`],
    `Installing schemathesis ${SCHEMATHESIS_VERSION} from PyPI`,
  );
  if (!existsSync(st)) throw new Error(`schemathesis ${SCHEMATHESIS_VERSION} installed but ${st} is missing`);
  writeFileSync(done, `${SCHEMATHESIS_VERSION}\n`);
  return st;
}

/** A python3 that can make venvs (Debian's python3 needs python3-venv for that). */
async function ensurePythonVenv(log: (line: string) => void): Promise<void> {
  try {
    await run("python3", ["-c", "import venv, ensurepip"], "Checking python3's venv");
  } catch {
    log("python3 cannot make venvs");
    aptInstall(["python3", "python3-venv"], "python3's venv, for schemathesis");
  }
}

/** Debian's Chromium, installed with apt-get when missing. */
export async function ensureChromium(log: (line: string) => void = () => {}): Promise<string> {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  log(`no ${CHROMIUM}`);
  aptInstall(["chromium", "fonts-liberation"], "Chromium, for the API description's page");
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

if (require.main === module) {
  const log = (line: string) => console.log(`[test tools] ${line}`);
  Promise.all([ensureSchemathesis(log), ensureChromium(log)]).then(
    (paths) => log(`ready: ${paths.join(", ")}`),
    (error: unknown) => {
      console.error(`[test tools] ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
