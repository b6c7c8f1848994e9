/**
 * `webhook-subscriptions drift --stack <name> [--stack <other> …] [--ignore <guid|url-prefix> …]
 * [--policy <file.json>] [--terraform-state <file> …] [--state-only] [--cwd <dir>] [--format md|json]`: reviews the drift of one stack, or of several
 * stacks sharing instances, against their state and (unless --state-only) their program. The report alone goes to stdout; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (unmanaged subscriptions included), or with --policy a broken
 * mandatory rule. 1: error (a bad policy file too), or drift cannot be
 * determined (legacy API). With several stacks, the worst of them.
 */
import { resolve } from "node:path";
import {
  DriftError,
  EXIT_CODE,
  errorReport,
  formatReport,
  FORMATS,
  reviewDrift,
  type DriftReport,
  type Format,
  type ReportError,
} from "../drift";
import { toDriftError } from "../drift/errors";
import { invalidIgnoreRule } from "../drift/ignore";
import { readPolicyFile } from "../drift/policy";
import { readTerraformState, type TerraformState } from "../drift/terraformState";
import type { PolicySettings } from "../policy/settings";
import { directoryFlag, listFlag, parseFlags, stringFlag, UsageError, type Command } from "./command";

const USAGE = `usage: webhook-subscriptions drift --stack <name> [--stack <other> …] [--ignore <guid|url-prefix> …]
                                    [--policy <file.json>] [--terraform-state <file> …] [--state-only]
                                    [--cwd <program directory>] [--format md|json]

Compares the WebhookSubscriptions the instance holds with what the stack's state records and with
what its program declares (a preview with a refresh), without applying or writing anything.
Exit 0: no drift; 2: drift; 1: error or undetermined (legacy API).
  --stack   the stack to review (\`pulumi stack ls\` lists them). Repeat it for stacks sharing an
            instance: each is reviewed, and "unmanaged" means managed by none of them
  --ignore  a subscription GUID or subscriber-URL prefix (http:// or https://) managed elsewhere,
            left out of "unmanaged"; repeatable
  --policy  policy settings (JSON, as WebhookGuard takes them; docs/policy.md): every live subscription
            on the instance, managed or not, is held to the rules; a broken mandatory rule exits 2
  --terraform-state  a Terraform/OpenTofu state: a state file (format 4) or \`tofu show -json\`'s
            output. Its webhooks_subscription resources count as managed, not unmanaged; one the
            stack records too is reported as co-owned; repeatable
  --state-only  compare with the state alone, without running the program: for a machine without
            the program's toolchain. A \`pulumi refresh\` copies live values into the state, so
            this review no longer sees them; the report says which comparison it made
  --cwd     the program directory, holding Pulumi.yaml (default: the current directory)
  --format  md (default) or json (a JSON array, one report per stack, when several stacks are named)
With several stacks, the reports are printed one after the other and the exit code is the worst.
The backend and the passphrase come from the environment, as for \`pulumi\` (PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE), else from Pulumi.yaml's backend.url or the CLI's login.`;

/** What a drift command line asks for. */
export interface DriftArgs {
  readonly stackName: string;
  /** Further `--stack`s sharing the instances: each is reviewed, with the others counting as managed. */
  readonly otherStacks: readonly string[];
  /** `--ignore` rules: GUIDs or subscriber-URL prefixes. */
  readonly ignore: readonly string[];
  /** Absolute program directory. */
  readonly workDir: string;
  readonly format: Format;
  /** `--policy`: the settings file as given, and its checked settings. */
  readonly policy?: { readonly file: string; readonly settings: PolicySettings };
  /** `--state-only`: compare with the state alone, without running the program. */
  readonly stateOnly: boolean;
  /** `--terraform-state` files, read: their subscriptions count as managed. */
  readonly terraformStates: readonly TerraformState[];
}

/** Parses and checks the drift flags; "help" when help was asked for. */
export function parseDriftArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): DriftArgs | "help" {
  const values = parseFlags(
    argv,
    {
      stack: { type: "string", multiple: true },
      ignore: { type: "string", multiple: true },
      cwd: { type: "string" },
      format: { type: "string" },
      policy: { type: "string" },
      "state-only": { type: "boolean" },
      "terraform-state": { type: "string", multiple: true },
    },
    USAGE,
  );
  if (values === "help") return "help";
  const [stackName, ...otherStacks] = listFlag(values, "stack");
  if (!stackName)
    throw new UsageError(`--stack is required: name the stack to review (\`pulumi stack ls\` lists them).\n${USAGE}`);
  const repeated = otherStacks.find((name, i) => name === stackName || otherStacks.indexOf(name) !== i);
  if (repeated !== undefined)
    throw new UsageError(`--stack ${JSON.stringify(repeated)} is given twice: name each stack once.\n${USAGE}`);
  const format = stringFlag(values, "format") ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be md or json, got: ${JSON.stringify(format)}.\n${USAGE}`);
  const ignore = listFlag(values, "ignore");
  const badRule = invalidIgnoreRule(ignore);
  if (badRule) throw new UsageError(`${badRule}.\n${USAGE}`);
  const policyFile = stringFlag(values, "policy");
  let policy: DriftArgs["policy"];
  if (policyFile !== undefined) {
    try {
      policy = { file: policyFile, settings: readPolicyFile(resolve(env.INIT_CWD || cwd, policyFile), policyFile) };
    } catch (err) {
      throw new UsageError(`--policy: ${(err as Error).message}`);
    }
  }
  const terraformStates = listFlag(values, "terraform-state").map((file) => {
    try {
      return readTerraformState(resolve(env.INIT_CWD || cwd, file), file);
    } catch (err) {
      throw new UsageError(`${(err as Error).message}\n${USAGE}`);
    }
  });
  return {
    stackName,
    otherStacks,
    ignore,
    workDir: directoryFlag(values, "cwd", env, cwd),
    format: format as Format,
    ...(policy ? { policy } : {}),
    stateOnly: values["state-only"] === true,
    terraformStates,
  };
}

function say(line: string): void {
  process.stderr.write(`drift: ${line}\n`);
}

/** Reviews one of the named stacks, the others counting as managed; a failure becomes an error report. */
async function reviewOne(stackName: string, stacks: readonly string[], args: DriftArgs): Promise<DriftReport> {
  const startedAt = Date.now();
  try {
    const report = await reviewDrift({
      stackName,
      workDir: args.workDir,
      onProgress: say,
      alsoManagedBy: stacks.filter((s) => s !== stackName),
      ignore: args.ignore,
      ...(args.policy ? { policy: args.policy } : {}),
      stateOnly: args.stateOnly,
      terraformStates: args.terraformStates,
    });
    if (report.reason) say(report.reason);
    return report;
  } catch (err) {
    const error = err instanceof DriftError ? err : toDriftError(err, { stack: stackName, secrets: [] });
    say(`error: ${error.message}`);
    return failedReview(stackName, stacks, args, startedAt, error);
  }
}

/**
 * The error report of one stack's review, with the scope it was asked for (the other stacks, the
 * `--ignore` rules), so that its footer's command runs the same review again.
 */
export function failedReview(
  stackName: string,
  stacks: readonly string[],
  args: Pick<DriftArgs, "ignore" | "stateOnly"> & { readonly terraformStates?: readonly TerraformState[] },
  startedAt: number,
  error: ReportError,
): DriftReport {
  const others = stacks.filter((s) => s !== stackName);
  return errorReport(
    {
      stack: stackName,
      backend: null,
      instance: null,
      comparison: args.stateOnly ? "state" : "state-and-program",
      startedAt,
      ...(others.length > 0 ? { alsoManagedBy: others } : {}),
      ...(args.ignore.length > 0 ? { ignored: { rules: args.ignore, guids: [] } } : {}),
      ...(args.terraformStates?.length ? { terraformStates: args.terraformStates.map((t) => t.file) } : {}),
    },
    error,
  );
}

/** One report as its format prints it; several as a JSON array, or markdown sections one after the other. */
export function formatReports(reports: readonly DriftReport[], format: Format): string {
  if (reports.length === 1) return formatReport(reports[0]!, format);
  if (format === "json") return `${JSON.stringify(reports, null, 2)}\n`;
  return reports.map((r) => formatReport(r, format)).join("\n---\n\n");
}

/** The exit code of several reviews: 1 (error or undetermined) outranks 2 (drift), which outranks 0. */
export function worstExitCode(reports: readonly Pick<DriftReport, "exitCode">[]): number {
  const codes = reports.map((r) => r.exitCode);
  return codes.includes(EXIT_CODE.error) ? EXIT_CODE.error : Math.max(...codes);
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
    const stacks = [args.stackName, ...args.otherStacks];
    const reports: DriftReport[] = [];
    for (const stackName of stacks) reports.push(await reviewOne(stackName, stacks, args));
    process.stdout.write(formatReports(reports, args.format));
    return worstExitCode(reports);
  },
};
