/**
 * Running the team's CLI in a working directory. A failed run becomes a DriftError that quotes the
 * CLI's own errors and says what to do, with the provider's credentials removed: a diagnostic may
 * quote them, and the message goes to CI logs.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { redactAndCut } from "../../../provider/client/redact";
import { FULL_MESSAGE_ELSEWHERE } from "../../../provider/client";
import { DriftError, DriftErrorCode } from "../../errors";
import { chdirCommand, type TerraformCli } from "./cli";

const execFileAsync = promisify(execFile);

/** The values that must never appear in a message: the provider's credentials in the CLI's environment. */
export function credentialsIn(env: NodeJS.ProcessEnv): string[] {
  return [env.WEBHOOKS_TOKEN, env.WEBHOOKS_CLIENT_SECRET].filter((s): s is string => !!s);
}

/** How many of a failed run's errors a message quotes. */
const ERRORS_QUOTED = 3;

/**
 * The errors a failed CLI printed, each on one line, the same one once: without the boxes drawn
 * around them, nor the configuration's source lines and the values of its expressions, which a
 * diagnostic quotes (a literal secret may stand there).
 */
function errorLines(output: string): string {
  const lines = output
    .split("\n")
    // │ ╷ ╵ and ├ └, escaped to keep the executable's bundle ASCII (scripts/release/executables.ts).
    .map((line) => line.replace(/^[\u2502\u2577\u2575]\s?/, ""))
    .filter((line) => !/^\s*(\d+:\s|[\u2502\u251c\u2514])/.test(line))
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const errors: string[] = [];
  for (const line of lines)
    if (line.startsWith("Error:") || errors.length === 0) errors.push(line);
    else errors[errors.length - 1] += ` ${line}`;
  // The refusal's own message first: the operations not attempted after it only point at it, and
  // the CLI prints them in whatever order the responses came.
  const distinct = [...new Set(errors)].sort(
    (a, b) => Number(a.includes(FULL_MESSAGE_ELSEWHERE)) - Number(b.includes(FULL_MESSAGE_ELSEWHERE)),
  );
  const more = distinct.length - ERRORS_QUOTED;
  return distinct.slice(0, ERRORS_QUOTED).join(" ") + (more > 0 ? ` (and ${more} more errors)` : "");
}

/** Where and how the CLI runs. */
export interface CliRun {
  readonly cli: TerraformCli;
  /** The directory as given on the command line: messages name it so. */
  readonly dir: string;
  readonly absDir: string;
  /** The CLI's environment: the provider's `WEBHOOKS_*` variables, TF_CLI_CONFIG_FILE, TF_VAR_*, … */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Runs `<cli> <args>` in the directory and returns what it printed; a failure throws a DriftError
 * (`TERRAFORM_PLAN_FAILED`) that says why and what to do (`init` when that is what is missing).
 */
export async function runCli(run: CliRun, args: readonly string[]): Promise<string> {
  const { cli, dir } = run;
  const env = { CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", ...run.env };
  try {
    const { stdout } = await execFileAsync(cli.path, args, {
      cwd: run.absDir,
      env,
      maxBuffer: 1 << 30,
      windowsHide: true,
    });
    return stdout;
  } catch (err) {
    const failed = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    const said =
      failed.code === "ENOENT" || failed.code === "EACCES"
        ? `${cli.path} cannot be run (${failed.code})`
        : errorLines(failed.stderr || failed.stdout || failed.message) || `exit code ${String(failed.code)}`;
    const init =
      /\binit\b|not installed|dependency lock file|Backend initialization required|Module not installed/i.test(said);
    const advice = init
      ? `Run ${chdirCommand(cli.name, dir, "init")}, then review again.`
      : `Fix what it says (${chdirCommand(cli.name, dir, "plan")} shows it whole), then review again.`;
    throw new DriftError(
      DriftErrorCode.TerraformPlanFailed,
      redactAndCut(
        `--terraform ${dir}: \`${cli.name} ${args[0]}\` failed: ${said} ${advice}`,
        4000,
        credentialsIn(env),
      ),
      { cause: err },
    );
  }
}
