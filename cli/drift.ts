/**
 * `webhook-subscriptions drift`: reviews any mix of sources in one report — Pulumi stacks
 * (`--stack`), Terraform/OpenTofu working directories (`--terraform`) and state files
 * (`--terraform-state`) — against the live instances, without applying or writing anything
 * (drift/). The report goes to stdout in `--format`, and to each `--report` file in the format
 * its extension names; progress and errors go to stderr.
 * Exit 0: no drift. 2: drift (with `--baseline`: a new finding), or a broken mandatory `--policy`
 * rule. 1: error, or drift cannot be determined (legacy API). Bad input exits 1 before anything
 * is read from an instance: the command line is parsed, then checked, then its files are loaded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import {
  checkParts,
  checkTerraformDirectory,
  EXIT_CODE,
  EXTENSIONS,
  findTerraformCli,
  formatOfFile,
  FORMATS,
  invalidIgnoreRule,
  mergeReviews,
  readBaseline,
  readIgnoreFile,
  readParts,
  readPolicyFile,
  readTerraformStateFile,
  render,
  reviewDrift,
  shellWord,
  type Format,
  type IgnoreEntry,
  type MergePart,
  type PolicyInput,
  type Review,
  type SourceResult,
  type TerraformCli,
} from "../drift";
import {
  listFlag,
  parseTable,
  stringFlag,
  usageOf,
  UsageError,
  type Command,
  type CommandContext,
  type FlagTable,
  type FlagValues,
} from "./command";
import { commandPrefix, type Invocation } from "./invocation";
import { SOURCE_FLAGS } from "./sourceFlags";

/** The drift command's flags: its usage and its parser. */
const DRIFT_FLAGS = {
  ...SOURCE_FLAGS,
  "state-only": {
    type: "boolean",
    description: "compare with the state alone: no program runs, a Terraform plan is -refresh-only",
  },
  format: { type: "string", arg: FORMATS.join("|"), description: `${FORMATS.join(", ")} on stdout (default: md)` },
  report: {
    type: "string",
    multiple: true,
    arg: "<file>",
    description: `also write the report to a file, in the format of its extension:\n${Object.keys(EXTENSIONS).join(" ")} (.xml is JUnit)`,
  },
  "sarif-category": {
    type: "string",
    arg: "<id>",
    description:
      "the SARIF run's category (automationDetails.id), one per set of sources in code scanning;\n{sources} in it stands for a hash of the sources reviewed",
  },
  baseline: {
    type: "string",
    arg: "<previous.json>",
    description: "an earlier JSON report: each finding is new or known; exit 2 only for a new one",
  },
  "ignore-file": {
    type: "string",
    arg: "<file.json>",
    description:
      'exceptions: [{"match": "<guid|url-prefix>", "reason": "…", "owner": "…", "expires": "YYYY-MM-DD"}];\nan expired entry suppresses nothing, and expired and stale entries are reported',
  },
  ignore: {
    type: "string",
    multiple: true,
    arg: "<guid|url-prefix>",
    description: "a GUID or subscriber-URL prefix (http:// or https://) to leave out, for one-off use",
  },
  policy: {
    type: "string",
    arg: "<file.json>",
    description:
      "policy settings (JSON, as WebhookGuard takes them; docs/policy.md): every live subscription\nthe sources reach is held to the rules; a broken mandatory rule exits 2",
  },
  merge: {
    type: "string",
    multiple: true,
    arg: "<part.json>",
    description:
      "instead of sources: a partial review's JSON report (`--report part.json` of a CI matrix cell);\nthe parts merge into one review, unmanaged and co-owned worked out across them all",
  },
} as const satisfies FlagTable;

/** Flags that say how to review sources: a merge reviews none, so it takes none of them. */
const REVIEWING_FLAGS = [
  "stack",
  "terraform",
  "terraform-state",
  "cwd",
  "state-only",
  "terraform-cli",
  "policy",
] as const;

const USAGE = usageOf(
  "drift",
  DRIFT_FLAGS,
  `Reviews any mix of sources in one report: what the instances hold against what each source's state
records and what its program or configuration declares, without applying or writing anything.
Name at least one source (--stack, --terraform, --terraform-state; each repeatable), or merge the
JSON reports of partial reviews (--merge part.json, repeatable): one review of all their sources.
Exit 0: no drift; 2: drift; 1: error or undetermined (legacy API).
Findings: differs from the state, differs from the program/configuration, deleted out of band,
unmanaged (claimed by no source), co-owned (claimed twice), pending create, policy.`,
  `Stacks: the backend and passphrase come from the environment, as for \`pulumi\` (PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE), else Pulumi.yaml's backend.url or the CLI's login; the instance from the
stack's config. Terraform sources: the instance and credentials from the provider's own variables
(WEBHOOKS_BASE_URL, WEBHOOKS_TOKEN, …) or the provider block.`,
);

/** A `--report` file: as given, absolute, and its format. */
export interface ReportFile {
  readonly file: string;
  readonly path: string;
  readonly format: Format;
}

/** A drift command line, checked but not yet loaded: no file read, nothing reached. */
export interface DriftRequest {
  readonly stacks: readonly string[];
  readonly terraform: readonly string[];
  readonly terraformStates: readonly string[];
  /** `--cwd` as given, when given. */
  readonly cwdFlag?: string;
  readonly terraformCliFlag?: string;
  readonly stateOnly: boolean;
  readonly format: Format;
  readonly reports: readonly { readonly file: string; readonly format: Format }[];
  readonly ignore: readonly string[];
  readonly ignoreFile?: string;
  readonly baselineFile?: string;
  readonly policyFile?: string;
  /** `--sarif-category`, as given. */
  readonly sarifCategory?: string;
  /** `--merge` parts, as given: merged instead of reviewing sources. */
  readonly merges: readonly string[];
  /** The flags that choose what is reviewed and how (all but the output flags), as given: they run it again. */
  readonly reviewFlags: readonly string[];
}

/** What a drift command line asks for, loaded: every file read, every directory checked. */
export interface DriftArgs extends DriftRequest {
  /** Absolute program directory. */
  readonly workDir: string;
  /** Where the command was typed: paths and locations are relative to it. */
  readonly cwd: string;
  readonly reportFiles: readonly ReportFile[];
  /** The CLI the directories are planned with; absent without `--terraform`. */
  readonly terraformCli?: TerraformCli;
  /** `--terraform-state` files, read. */
  readonly stateFiles: readonly SourceResult[];
  readonly ignoreEntries: readonly IgnoreEntry[];
  readonly baseline?: { readonly file: string; readonly fingerprints: ReadonlySet<string> };
  readonly policy?: PolicyInput;
  /** `--merge` parts, read and checked. */
  readonly parts: readonly MergePart[];
}

/** A flag as words that parse back to it; a value that starts with `-` stays joined (`--cwd=-x`), or it would read as a flag. */
const flagWords = (name: string, value: string | boolean): string[] =>
  value === true
    ? [`--${name}`]
    : String(value).startsWith("-")
      ? [`--${name}=${String(value)}`]
      : [`--${name}`, String(value)];

/** Flags that say how the review is written, not what it reviews. */
const OUTPUT_FLAGS: readonly string[] = ["format", "report", "sarif-category"];

/** The flags in `values` that choose the review (what `reviewFlags` holds), in the order parsed. */
function reviewFlagsOf(values: FlagValues): string[] {
  return Object.entries(values).flatMap(([name, value]) =>
    OUTPUT_FLAGS.includes(name) || value === undefined || value === false
      ? []
      : [value].flat().flatMap((v) => flagWords(name, v)),
  );
}

/** Step 1 and 2: parses the flags and checks them, reading nothing; "help" when help was asked for. */
export function checkDriftArgs(argv: readonly string[]): DriftRequest | "help" {
  const values = parseTable(argv, DRIFT_FLAGS, USAGE);
  if (values === "help") return "help";
  const stacks = listFlag(values, "stack");
  const terraform = listFlag(values, "terraform");
  const terraformStates = listFlag(values, "terraform-state");
  const merges = listFlag(values, "merge");
  const reviewing = REVIEWING_FLAGS.find((name) => values[name] !== undefined && values[name] !== false);
  if (merges.length > 0 && reviewing !== undefined)
    throw new UsageError(
      `--merge and --${reviewing} cannot be given together: --merge reviews no source, it merges the reports of ` +
        `reviews already run. Give --${reviewing} to the review of each part (\`drift … --report part.json\`), ` +
        `then merge the parts.\n${USAGE}`,
    );
  const repeatedPart = merges.find((file, i) => merges.indexOf(file) !== i);
  if (repeatedPart !== undefined)
    throw new UsageError(`--merge ${JSON.stringify(repeatedPart)} is given twice: name each part once.\n${USAGE}`);
  if (merges.length === 0 && stacks.length + terraform.length + terraformStates.length === 0)
    throw new UsageError(
      "Name at least one source: --stack <name> (a Pulumi stack; `pulumi stack ls` lists them), " +
        "--terraform <dir> (a Terraform/OpenTofu working directory) or --terraform-state <file>; " +
        `or merge partial reviews: --merge <part.json>.\n${USAGE}`,
    );
  for (const [flag, list] of [
    ["--stack", stacks],
    ["--terraform", terraform],
    ["--terraform-state", terraformStates],
  ] as const) {
    const repeated = list.find((name, i) => list.indexOf(name) !== i);
    if (repeated !== undefined)
      throw new UsageError(`${flag} ${JSON.stringify(repeated)} is given twice: name each source once.\n${USAGE}`);
  }
  const format = stringFlag(values, "format") ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, got: ${JSON.stringify(format)}.\n${USAGE}`);
  const reports = listFlag(values, "report").map((file) => {
    const byExtension = formatOfFile(file);
    if (!byExtension)
      throw new UsageError(
        `--report ${file}: the format comes from the extension, one of ${Object.keys(EXTENSIONS).join(" ")} (.xml is JUnit), got: ${JSON.stringify(extname(file))}.`,
      );
    return { file, format: byExtension };
  });
  const ignore = listFlag(values, "ignore");
  const badRule = invalidIgnoreRule(ignore);
  if (badRule) throw new UsageError(`${badRule}.\n${USAGE}`);
  const optional = (name: keyof typeof DRIFT_FLAGS, key: string) => {
    const value = stringFlag(values, name);
    return value === undefined ? {} : { [key]: value };
  };
  return {
    stacks,
    terraform,
    terraformStates,
    ...optional("cwd", "cwdFlag"),
    ...optional("terraform-cli", "terraformCliFlag"),
    stateOnly: values["state-only"] === true,
    format: format as Format,
    reports,
    ignore,
    ...optional("ignore-file", "ignoreFile"),
    ...optional("baseline", "baselineFile"),
    ...optional("policy", "policyFile"),
    ...optional("sarif-category", "sarifCategory"),
    merges,
    reviewFlags: reviewFlagsOf(values),
  };
}

/** Runs `read`, turning its error into a usage error (exit 1); `flag` leads a message that does not name it. */
function loaded<T>(read: () => T, flag?: string): T {
  try {
    return read();
  } catch (err) {
    const message = (err as Error).message;
    throw new UsageError(flag && !message.startsWith(flag) ? `${flag}: ${message}` : message);
  }
}

/**
 * Step 3: loads what the request names — each file read, each directory checked, the Terraform
 * CLI found — so that bad input exits 1 before anything is read from an instance. Relative paths
 * are taken from where the user typed the command: `npm run` and `npx` leave it in INIT_CWD.
 */
function loadDriftArgs(
  request: DriftRequest,
  env: NodeJS.ProcessEnv = process.env,
  processCwd = process.cwd(),
): DriftArgs {
  const cwd = env.INIT_CWD || processCwd;
  const at = (file: string) => resolve(cwd, file);
  // The parts first: a part that is not one is refused before anything else.
  const parts = loaded(() => {
    const read = readParts(request.merges.map((file) => ({ file, path: at(file) })));
    checkParts(read);
    return read;
  });
  for (const dir of request.terraform) loaded(() => checkTerraformDirectory({ dir, absDir: at(dir), env, cwd }));
  const { ignoreFile, baselineFile, policyFile } = request;
  return {
    ...request,
    parts,
    workDir: at(request.cwdFlag ?? "."),
    cwd,
    reportFiles: request.reports.map((r) => ({ ...r, path: at(r.file) })),
    ...(request.terraform.length > 0
      ? { terraformCli: loaded(() => findTerraformCli(env, request.terraformCliFlag)) }
      : {}),
    stateFiles: request.terraformStates.map((file) =>
      loaded(() => readTerraformStateFile({ file, absFile: at(file), cwd, env })),
    ),
    ignoreEntries: ignoreFile === undefined ? [] : loaded(() => readIgnoreFile(at(ignoreFile), ignoreFile)),
    ...(baselineFile === undefined
      ? {}
      : { baseline: { file: baselineFile, fingerprints: loaded(() => readBaseline(at(baselineFile), baselineFile)) } }),
    ...(policyFile === undefined
      ? {}
      : {
          policy: { file: policyFile, settings: loaded(() => readPolicyFile(at(policyFile), policyFile), "--policy") },
        }),
  };
}

/** Parses, checks and loads a drift command line; "help" when help was asked for. */
export function parseDriftArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  processCwd = process.cwd(),
): DriftArgs | "help" {
  const request = checkDriftArgs(argv);
  return request === "help" ? "help" : loadDriftArgs(request, env, processCwd);
}

/** The command that runs the drift review with `flags`, the way this one ran (cli/invocation.ts). */
export function reviewCommandLine(invocation: Invocation | undefined, flags: readonly string[]): string {
  return [commandPrefix(invocation), "drift", ...flags.map(shellWord)].join(" ");
}

function say(line: string): void {
  process.stderr.write(`drift: ${line}\n`);
}

/** The parts of `args` merged into one review. */
function mergeParts(args: DriftArgs): Review {
  const review = mergeReviews(args.parts, {
    ignore: args.ignore,
    ignoreEntries: args.ignoreEntries,
    ...(args.baseline ? { baseline: args.baseline } : {}),
  });
  say(
    `merged ${args.parts.length} ${args.parts.length === 1 ? "part" : "parts"} (${review.sources.length} sources): ${review.findings.length} findings`,
  );
  return review;
}

/** Reviews what `args` names (or merges its parts); resolves with the exit code. */
async function runDrift(args: DriftArgs, context?: CommandContext): Promise<number> {
  // The state files were read once already, to refuse a bad one before anything else: not again.
  const review =
    args.parts.length > 0
      ? mergeParts(args)
      : await reviewDrift({
          stacks: args.stacks.map((name) => ({ name, workDir: args.workDir })),
          terraform: args.terraform,
          terraformStates: args.stateFiles,
          ...(args.terraformCli ? { terraformCli: args.terraformCli } : {}),
          stateOnly: args.stateOnly,
          cwd: args.cwd,
          ignore: args.ignore,
          ignoreEntries: args.ignoreEntries,
          ...(args.baseline ? { baseline: args.baseline } : {}),
          ...(args.policy ? { policy: args.policy } : {}),
          onProgress: say,
        });
  // The commands the report prints run the review as this one was run: npx, the executable, or
  // the host's own command (rerun: npm start -- --drift, whose emulator is gone once it exits);
  // SARIF names the tool's version, which code scanning shows beside each alert.
  const renderOptions = {
    ...(context?.version ? { version: context.version } : {}),
    ...(args.sarifCategory !== undefined ? { category: args.sarifCategory } : {}),
    rerun: context?.rerun ?? reviewCommandLine(context?.invocation, args.reviewFlags),
    ...(context?.rerun
      ? {}
      : { fullReport: reviewCommandLine(context?.invocation, [...args.reviewFlags, "--format", "json"]) }),
  };
  for (const report of args.reportFiles) {
    mkdirSync(dirname(report.path), { recursive: true });
    writeFileSync(report.path, render(review, report.format, renderOptions));
    say(`wrote ${report.file}`);
  }
  process.stdout.write(render(review, args.format, renderOptions));
  return review.exitCode;
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
    return runDrift(args, context);
  },
};
