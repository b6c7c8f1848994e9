/**
 * `npm run drift -- --stack <name> [--cwd <dir>] [--format md|json]`: reviews a stack's drift.
 * The report alone goes to stdout; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (unmanaged subscriptions included). 1: error, or drift cannot be
 * determined (legacy API).
 */
import { parseDriftArgs, UsageError, USAGE } from "./cliArgs";
import { DriftError, toDriftError } from "./errors";
import { formatReport } from "./format";
import { EXIT_CODE, errorReport } from "./report";
import { reviewDrift } from "./reviewDrift";

function say(line: string): void {
  process.stderr.write(`drift: ${line}\n`);
}

async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return EXIT_CODE.noDrift;
  }
  let args;
  try {
    args = parseDriftArgs(argv);
  } catch (err) {
    process.stderr.write(`${err instanceof UsageError ? err.message : String(err)}\n`);
    return EXIT_CODE.error;
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
    process.stdout.write(
      formatReport(
        errorReport({ stack: args.stackName, backend: null, instance: null, startedAt }, error),
        args.format,
      ),
    );
    return EXIT_CODE.error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    say(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = EXIT_CODE.error;
  },
);
