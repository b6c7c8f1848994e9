/**
 * `webhook-subscriptions drift`: reviews any mix of sources in one report — Pulumi stacks
 * (`--stack`), Terraform/OpenTofu working directories (`--terraform`) and state files
 * (`--terraform-state`) — against the live instances, without applying or writing anything
 * (drift/review/). The report goes to stdout in `--format`, and to each `--report` file in the
 * format its extension names; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (with `--baseline`: a new finding), or a broken mandatory `--policy`
 * rule. 1: error, or drift cannot be determined (legacy API). Bad input exits 1 before anything
 * is read from an instance.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { EXIT_CODE, reviewDrift, StackStates, type DriftReport } from "../drift";
import { DriftError, toDriftError } from "../drift/errors";
import { invalidIgnoreRule } from "../drift/ignore";
import { reviewEngine } from "../drift/openReviewStack";
import { readPolicyFile } from "../drift/policy";
import { errorReport } from "../drift/report";
import { EXTENSIONS, FORMATS, render, type Format } from "../drift/render";
import { readBaseline } from "../drift/review/baseline";
import { readIgnoreFile } from "../drift/review/ignoreFile";
import type { IgnoreEntry } from "../drift/review/model";
import { reviewSources, type StackReader, type TerraformReader } from "../drift/review/reviewSources";
import { stackRef, stackSource } from "../drift/sources/pulumiStack";
import type { SourceResult } from "../drift/sources/source";
import {
  checkTerraformDirectory,
  findTerraformCli,
  reviewTerraformDirectory,
  type TerraformCli,
} from "../drift/sources/terraformDirectory";
import { reviewTerraformStateFile } from "../drift/sources/terraformStateFile";
import { terraformScope, type TerraformState } from "../drift/terraformState";
import type { Engine } from "../engine/provision";
import type { PolicySettings } from "../policy/settings";
import { directoryFlag, listFlag, parseFlags, stringFlag, UsageError, type Command, type FlagValues } from "./command";

const USAGE = `usage: webhook-subscriptions drift [--stack <name> …] [--terraform <dir> …] [--terraform-state <file> …]
                                    [--cwd <program directory>] [--state-only] [--terraform-cli <path>]
                                    [--format md|json|sarif|junit|html] [--report <file> …]
                                    [--baseline <previous.json>] [--ignore-file <file.json>] [--ignore <guid|url-prefix> …]
                                    [--policy <file.json>]

Reviews any mix of sources in one report: what the instances hold against what each source's state
records and what its program or configuration declares, without applying or writing anything.
Name at least one source. Exit 0: no drift; 2: drift; 1: error or undetermined (legacy API).
Sources (each repeatable):
  --stack   a Pulumi stack of the project in --cwd (\`pulumi stack ls\` lists them): its state, a
            refresh preview, and a preview of its program through the team's \`pulumi\`
  --terraform  an initialised Terraform/OpenTofu working directory: its state and configuration,
            through one plan that is never applied and writes no state (tofu on PATH, else terraform)
  --terraform-state  a state file (format 4) or \`tofu show -json\`'s output: state only
Findings: differs from the state, differs from the program/configuration, deleted out of band,
unmanaged (claimed by no source), co-owned (claimed twice), pending create, policy.
  --cwd     the Pulumi program directory, holding Pulumi.yaml (default: the current directory)
  --state-only  compare with the state alone: no program runs, a Terraform plan is -refresh-only
  --terraform-cli  the tofu or terraform executable to plan with (default: tofu, else terraform, on PATH)
  --format  md (default), json, sarif, junit or html, on stdout
  --report  also write the report to a file, in the format of its extension: .md .json .sarif
            .xml (JUnit) .html; repeatable
  --baseline  an earlier --format json report: each finding is new or known; exit 2 only for a new one
  --ignore-file  exceptions: [{"match": "<guid|url-prefix>", "reason": "…", "owner": "…", "expires": "YYYY-MM-DD"}];
            an expired entry suppresses nothing, and expired and stale entries are reported
  --ignore  a GUID or subscriber-URL prefix (http:// or https://) to leave out, for one-off use; repeatable
  --policy  policy settings (JSON, as WebhookGuard takes them; docs/policy.md): every live subscription
            the stacks reach is held to the rules; a broken mandatory rule exits 2
Stacks: the backend and passphrase come from the environment, as for \`pulumi\` (PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE), else Pulumi.yaml's backend.url or the CLI's login; the instance from the
stack's config. Terraform sources: the instance and credentials from the provider's own variables
(WEBHOOKS_BASE_URL, WEBHOOKS_TOKEN, …) or the provider block.`;

/** A `--report` file: as given, absolute, and its format. */
export interface ReportFile {
  readonly file: string;
  readonly path: string;
  readonly format: Format;
}

/** What a drift command line asks for, checked: every file read, every directory checked. */
export interface DriftArgs {
  readonly stacks: readonly string[];
  /** Absolute program directory. */
  readonly workDir: string;
  /** `--cwd` as given, when given: the commands the report prints repeat it. */
  readonly cwdFlag?: string;
  /** `--terraform` directories: as given, absolute. */
  readonly terraformDirs: readonly { readonly dir: string; readonly absDir: string }[];
  /** The CLI the directories are planned with; absent without `--terraform`. */
  readonly terraformCli?: TerraformCli;
  /** `--terraform-state` files, read. */
  readonly terraformStates: readonly SourceResult[];
  readonly stateOnly: boolean;
  readonly format: Format;
  readonly reports: readonly ReportFile[];
  readonly ignore: readonly string[];
  readonly ignoreEntries: readonly IgnoreEntry[];
  readonly baseline?: { readonly file: string; readonly fingerprints: ReadonlySet<string> };
  readonly policy?: { readonly file: string; readonly settings: PolicySettings };
  /** Where the command was typed: locations are relative to it. */
  readonly cwd: string;
  /** The flags that choose what is reviewed and how (all but `--format` and `--report`), as given: they run it again. */
  readonly reviewFlags: readonly string[];
}

/** A flag as words that parse back to it; a value that starts with `-` stays joined (`--cwd=-x`), or it would read as a flag. */
const flagWords = (name: string, value: string | boolean): string[] =>
  value === true
    ? [`--${name}`]
    : String(value).startsWith("-")
      ? [`--${name}=${String(value)}`]
      : [`--${name}`, String(value)];

/** The flags in `values` that choose the review (what `reviewFlags` holds), in the order parsed. */
function reviewFlagsOf(values: FlagValues): string[] {
  return Object.entries(values).flatMap(([name, value]) =>
    name === "format" || name === "report" || value === undefined || value === false
      ? []
      : [value].flat().flatMap((v) => flagWords(name, v)),
  );
}

/** Runs `read`, turning its error into a usage error (exit 1); `flag` leads a message that does not name it. */
function checked<T>(read: () => T, flag?: string): T {
  try {
    return read();
  } catch (err) {
    const message = (err as Error).message;
    throw new UsageError(flag && !message.startsWith(flag) ? `${flag}: ${message}` : message);
  }
}

/** Parses and checks the drift flags; "help" when help was asked for. Nothing here reaches an instance. */
export function parseDriftArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  processCwd = process.cwd(),
): DriftArgs | "help" {
  const values = parseFlags(
    argv,
    {
      stack: { type: "string", multiple: true },
      terraform: { type: "string", multiple: true },
      "terraform-state": { type: "string", multiple: true },
      "terraform-cli": { type: "string" },
      ignore: { type: "string", multiple: true },
      "ignore-file": { type: "string" },
      baseline: { type: "string" },
      cwd: { type: "string" },
      format: { type: "string" },
      report: { type: "string", multiple: true },
      policy: { type: "string" },
      "state-only": { type: "boolean" },
    },
    USAGE,
  );
  if (values === "help") return "help";
  const cwd = env.INIT_CWD || processCwd;
  const at = (file: string) => resolve(cwd, file);
  const stacks = listFlag(values, "stack");
  const dirs = listFlag(values, "terraform");
  const states = listFlag(values, "terraform-state");
  if (stacks.length + dirs.length + states.length === 0)
    throw new UsageError(
      "Name at least one source: --stack <name> (a Pulumi stack; `pulumi stack ls` lists them), " +
        `--terraform <dir> (a Terraform/OpenTofu working directory) or --terraform-state <file>.\n${USAGE}`,
    );
  for (const [flag, list] of [
    ["--stack", stacks],
    ["--terraform", dirs],
    ["--terraform-state", states],
  ] as const) {
    const repeated = list.find((name, i) => list.indexOf(name) !== i);
    if (repeated !== undefined)
      throw new UsageError(`${flag} ${JSON.stringify(repeated)} is given twice: name each source once.\n${USAGE}`);
  }
  const format = stringFlag(values, "format") ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got: ${JSON.stringify(format)}.\n${USAGE}`);
  const reports = listFlag(values, "report").map((file): ReportFile => {
    const byExtension = EXTENSIONS[extname(file).toLowerCase()];
    if (!byExtension)
      throw new UsageError(
        `--report ${file}: the format comes from the extension, one of ${Object.keys(EXTENSIONS).join(" ")} (.xml is JUnit), got: ${JSON.stringify(extname(file))}.`,
      );
    return { file, path: at(file), format: byExtension };
  });
  const ignore = listFlag(values, "ignore");
  const badRule = invalidIgnoreRule(ignore);
  if (badRule) throw new UsageError(`${badRule}.\n${USAGE}`);
  const ignoreFile = stringFlag(values, "ignore-file");
  const baselineFile = stringFlag(values, "baseline");
  const policyFile = stringFlag(values, "policy");
  if (policyFile !== undefined && stacks.length === 0)
    throw new UsageError(
      `--policy ${policyFile}: holds the rules against the instances the stacks reach; name a --stack too.`,
    );
  const workDir = directoryFlag(values, "cwd", env, processCwd);
  const terraformDirs = dirs.map((dir) => ({ dir, absDir: at(dir) }));
  for (const d of terraformDirs) checked(() => checkTerraformDirectory({ ...d, env, cwd }));
  const explicitCli = stringFlag(values, "terraform-cli");
  const cwdFlag = stringFlag(values, "cwd");
  return {
    stacks,
    workDir,
    ...(cwdFlag !== undefined ? { cwdFlag } : {}),
    terraformDirs,
    ...(dirs.length > 0 ? { terraformCli: checked(() => findTerraformCli(env, explicitCli)) } : {}),
    terraformStates: states.map((file) =>
      checked(() => reviewTerraformStateFile({ file, absFile: at(file), cwd, env })),
    ),
    stateOnly: values["state-only"] === true,
    format: format as Format,
    reports,
    ignore,
    ignoreEntries: ignoreFile === undefined ? [] : checked(() => readIgnoreFile(at(ignoreFile), ignoreFile)),
    ...(baselineFile === undefined
      ? {}
      : {
          baseline: { file: baselineFile, fingerprints: checked(() => readBaseline(at(baselineFile), baselineFile)) },
        }),
    ...(policyFile === undefined
      ? {}
      : {
          policy: { file: policyFile, settings: checked(() => readPolicyFile(at(policyFile), policyFile), "--policy") },
        }),
    cwd,
    reviewFlags: reviewFlagsOf(values),
  };
}

function say(line: string): void {
  process.stderr.write(`drift: ${line}\n`);
}

/** What the reviews of the stacks of one run read once and share: the `pulumi` on PATH, the states. */
interface SharedStackReads {
  readonly engine: () => Promise<Engine>;
  readonly states: StackStates;
}

/** A fresh SharedStackReads; no `pulumi` on PATH fails each stack's review, saying what to install. */
function sharedStackReads(): SharedStackReads {
  let engine: Promise<Engine> | undefined;
  return { engine: () => (engine ??= reviewEngine(process.env)), states: new StackStates() };
}

/** A stack's review as a source; a failure becomes its error report, so the others are still reviewed. */
function stackReader(stackName: string, args: DriftArgs, shared: SharedStackReads): StackReader {
  const ref = stackRef(stackName, args.workDir, args.cwd);
  return {
    ref,
    async read({ otherTools, onListed }) {
      const startedAt = Date.now();
      let report: DriftReport;
      try {
        report = await reviewDrift({
          stackName,
          workDir: args.workDir,
          engine: await shared.engine(),
          stackStates: shared.states,
          onProgress: args.stacks.length > 1 ? (line) => say(`${stackName}: ${line}`) : say,
          alsoManagedBy: args.stacks.filter((s) => s !== stackName),
          ignore: args.ignore,
          ...(args.policy ? { policy: args.policy } : {}),
          stateOnly: args.stateOnly,
          terraformStates: otherTools,
          onListed,
        });
        if (report.reason) say(report.reason);
      } catch (err) {
        const error = err instanceof DriftError ? err : toDriftError(err, { stack: stackName, secrets: [] });
        say(`error: ${error.message}`);
        report = failedReview(stackName, args, startedAt, error, otherTools);
      }
      return stackSource(report, ref, args.workDir);
    },
  };
}

/**
 * The error report of one stack's review, with the scope it was asked for (the other stacks, the
 * Terraform sources, the `--ignore` rules), so that its footer's command runs the same review again.
 */
export function failedReview(
  stackName: string,
  args: Pick<DriftArgs, "stacks" | "ignore" | "stateOnly">,
  startedAt: number,
  error: { readonly code: string; readonly message: string },
  terraformStates: readonly TerraformState[] = [],
): DriftReport {
  const others = args.stacks.filter((s) => s !== stackName);
  return errorReport(
    {
      stack: stackName,
      backend: null,
      instance: null,
      comparison: args.stateOnly ? "state" : "state-and-program",
      startedAt,
      ...(others.length > 0 ? { alsoManagedBy: others } : {}),
      ...terraformScope(terraformStates),
      ...(args.ignore.length > 0 ? { ignored: { rules: args.ignore, guids: [] } } : {}),
    },
    error,
  );
}

/** The Terraform sources: each directory planned once, each state file already read. */
function terraformReaders(args: DriftArgs): TerraformReader[] {
  return [
    ...args.terraformDirs.map(({ dir, absDir }) => ({
      ref: { kind: "terraform-directory" as const, name: dir, file: dir },
      read: () =>
        reviewTerraformDirectory({
          dir,
          absDir,
          cli: args.terraformCli!,
          stateOnly: args.stateOnly,
          env: process.env,
          cwd: args.cwd,
        }),
    })),
    ...args.terraformStates.map((result) => ({ ref: result.summary.source, read: () => Promise.resolve(result) })),
  ];
}

export const driftCommand: Command = {
  usage: USAGE,
  async run(argv, context) {
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
    const shared = sharedStackReads();
    const review = await reviewSources({
      terraform: terraformReaders(args),
      stacks: args.stacks.map((name) => stackReader(name, args, shared)),
      ignore: args.ignore,
      ignoreEntries: args.ignoreEntries,
      ...(args.baseline ? { baseline: args.baseline } : {}),
      onProgress: say,
    });
    // The commands the report prints run the review as this one was run: npx, the executable, or
    // the host's own command (rerun: npm start -- --drift);
    // SARIF names the tool's version, which code scanning shows beside each alert.
    const options = {
      invocation: context?.invocation,
      version: context?.version,
      programDir: args.cwdFlag,
      reviewFlags: args.reviewFlags,
      rerun: context?.rerun,
    };
    for (const report of args.reports) {
      mkdirSync(dirname(report.path), { recursive: true });
      writeFileSync(report.path, render(review, report.format, options));
      say(`wrote ${report.file}`);
    }
    process.stdout.write(render(review, args.format, options));
    return review.exitCode;
  },
};
