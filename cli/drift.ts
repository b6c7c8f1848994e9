/**
 * `webhook-subscriptions drift --stack <name> [--cwd <dir>] [--format md|json]`: reviews a
 * stack's drift. The report alone goes to stdout; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (unmanaged subscriptions included). 1: error, or drift cannot be
 * determined (legacy API).
 */
import { DriftError, EXIT_CODE, errorReport, formatReport, FORMATS, reviewDrift, type Format } from "../drift";
import { toDriftError } from "../drift/errors";
import { directoryFlag, parseFlags, stringFlag, UsageError, type Command } from "./command";

const USAGE = `usage: webhook-subscriptions drift --stack <name> [--cwd <program directory>] [--format md|json]

Compares what the stack's state says about its WebhookSubscriptions with what the instance holds,
without writing anything. Exit 0: no drift; 2: drift; 1: error or undetermined (legacy API).
  --stack   the stack to review (\`pulumi stack ls\` lists them)
  --cwd     the program directory, holding Pulumi.yaml (default: the current directory)
  --format  md (default) or json
The backend and the passphrase come from the environment, as for \`pulumi\` (PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE), else from Pulumi.yaml's backend.url or the CLI's login.`;

/** What a drift command line asks for. */
export interface DriftArgs {
  readonly stackName: string;
  /** Absolute program directory. */
  readonly workDir: string;
  readonly format: Format;
}

/** Parses and checks the drift flags; "help" when help was asked for. */
export function parseDriftArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): DriftArgs | "help" {
  const values = parseFlags(
    argv,
    { stack: { type: "string" }, cwd: { type: "string" }, format: { type: "string" } },
    USAGE,
  );
  if (values === "help") return "help";
  const stackName = stringFlag(values, "stack");
  if (!stackName)
    throw new UsageError(`--stack is required: name the stack to review (\`pulumi stack ls\` lists them).\n${USAGE}`);
  const format = stringFlag(values, "format") ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be md or json, got: ${JSON.stringify(format)}.\n${USAGE}`);
  return { stackName, workDir: directoryFlag(values, "cwd", env, cwd), format: format as Format };
}

function say(line: string): void {
  process.stderr.write(`drift: ${line}\n`);
}

export const driftCommand: Command = {
  usage: USAGE,
  async run(argv) {
    let args: DriftArgs | "help";
    try {
      args = parseDriftArgs(argv);
    } catch (err) {
      process.stderr.write(`${err instanceof UsageError ? err.message : String(err)}\n`);
      return EXIT_CODE.error;
    }
    if (args === "help") {
      process.stdout.write(`${USAGE}\n`);
      return EXIT_CODE.noDrift;
    }
    const startedAt = Date.now();
    try {
      const report = await reviewDrift({ stackName: args.stackName, workDir: args.workDir, onProgress: say });
      process.stdout.write(formatReport(report, args.format));
      if (report.reason) say(report.reason);
      return report.exitCode;
    } catch (err) {
      const error = err instanceof DriftError ? err : toDriftError(err, { stack: args.stackName, secrets: [] });
      say(`error: ${error.message}`);
      const context = { stack: args.stackName, backend: null, instance: null, startedAt };
      process.stdout.write(formatReport(errorReport(context, error), args.format));
      return EXIT_CODE.error;
    }
  },
};
