/**
 * `npm run drift -- --stack <name> [--cwd <dir>] [--format md|json]`: reviews a stack's drift.
 * The report alone goes to stdout; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (unmanaged subscriptions included). 1: error, or drift cannot be
 * determined (legacy API).
 */
import { parseDriftArgs, UsageError, USAGE, type DriftArgs } from "./cliArgs";
import { DriftError, toDriftError } from "./errors";
import { formatReport } from "./format";
import { EXIT_CODE, errorReport, type DriftReport } from "./report";
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
  // Several stacks sharing instances: each is reviewed, the others' subscriptions counting as managed.
  const stacks = [args.stackName, ...args.otherStacks];
  const reports: DriftReport[] = [];
  for (const stackName of stacks) reports.push(await reviewOne(stackName, stacks, args));
  if (args.format === "json" && reports.length > 1) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else process.stdout.write(reports.map((r) => formatReport(r, args.format)).join("\n---\n\n"));
  return Math.max(...reports.map((r) => r.exitCode));
}

async function reviewOne(stackName: string, stacks: readonly string[], args: DriftArgs): Promise<DriftReport> {
  const startedAt = Date.now();
  try {
    const report = await reviewDrift({
      stackName,
      workDir: args.workDir,
      onProgress: say,
      alsoManagedBy: stacks.filter((s) => s !== stackName),
      ignore: args.ignore,
    });
    if (report.reason) say(report.reason);
    return report;
  } catch (err) {
    const error = err instanceof DriftError ? err : toDriftError(err, { stack: stackName, secrets: [] });
    say(`error: ${error.message}`);
    return errorReport({ stack: stackName, backend: null, instance: null, startedAt }, error);
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
