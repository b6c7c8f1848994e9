/**
 * `webhook-subscriptions adopt`: brings every subscription that no named source claims under code,
 * in the target's own language (adopt/). Its flags are one table (usage and parser alike); the
 * command line is parsed, then checked, then loaded, so bad input exits 1 with nothing written.
 * Exit 0: written (and verified with `--verify`), or nothing to adopt; 1: bad input, or a
 * verification that failed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import {
  adopt,
  AdoptError,
  FOR_EACH_VARIABLE,
  invalidMatchRule,
  removeCommand,
  type AdoptInto,
  type AdoptResult,
} from "../adopt";
import {
  checkTerraformDirectory,
  findTerraformCli,
  guidKey,
  isGuid,
  plural,
  readTerraformStateFile,
  shellWord,
  wordsOfGivenName,
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
} from "./command";
import { commandPrefix } from "./invocation";
import { SOURCE_FLAGS } from "./sourceFlags";

const LAYOUTS = ["each", "for-each"] as const;

/** The adopt command's flags: its usage and its parser. */
const ADOPT_FLAGS = {
  ...SOURCE_FLAGS,
  "into-stack": {
    type: "string",
    arg: "<name>",
    description:
      "the stack whose program takes them (with --cwd): a file beside the program in its language\n(Pulumi.yaml runtime), header values in the stack's secret config",
  },
  "into-terraform": {
    type: "string",
    arg: "<dir>",
    description: "the initialised Terraform/OpenTofu directory that takes them: adopted.tf with import blocks",
  },
  match: {
    type: "string",
    multiple: true,
    arg: "<guid|url-prefix|event>",
    description: "adopt only what a rule matches: a GUID, a subscriber-URL prefix or an event name",
  },
  names: {
    type: "string",
    arg: "<file.json>",
    description: 'names of your own: {"<guid>": "<name>"}; letters, digits, - and _, a letter first',
  },
  layout: {
    type: "string",
    arg: LAYOUTS.join("|"),
    description: "Terraform: a resource per subscription (each, default), or one with for_each over a map",
  },
  "include-duplicates": {
    type: "boolean",
    description: "adopt the extra copies of duplicated subscriptions too (default: name them, adopt one)",
  },
  verify: {
    type: "boolean",
    description: "then run the target's preview or plan: exit 1 unless it only imports, naming each change",
  },
  force: { type: "boolean", description: "replace the file an earlier run wrote and that was not applied yet" },
} as const satisfies FlagTable;

const USAGE = usageOf(
  "adopt",
  ADOPT_FLAGS,
  `Writes every subscription that no named source claims (nor the target) as code in the target's
language, with its live values, for the team's own \`pulumi up\` or \`tofu apply\` to take over without
changing the instance. Code only: it writes no state. Give exactly one target: --into-stack or
--into-terraform. The sources (--stack, --terraform, --terraform-state) are read for what they
claim (their states). Exit 0: written, or nothing to adopt; 1: bad input or a failed --verify.`,
  "The guide: docs/adopting.md (names, duplicates, handing subscriptions over between owners).",
);

/** An adopt command line, loaded: every file read, the target checked. */
export interface AdoptArgs {
  readonly stacks: readonly string[];
  readonly terraform: readonly string[];
  readonly stateFiles: readonly SourceResult[];
  readonly into: AdoptInto;
  readonly workDir: string;
  readonly cwd: string;
  readonly match: readonly string[];
  readonly names: ReadonlyMap<string, readonly string[]>;
  readonly layout: (typeof LAYOUTS)[number];
  readonly includeDuplicates: boolean;
  readonly verify: boolean;
  readonly force: boolean;
  readonly terraformCli?: TerraformCli;
}

/** Reads a `--names` file: GUID → a name, each checked. */
export function readNamesFile(path: string, file: string): Map<string, readonly string[]> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--names ${file}: ${code === "ENOENT" ? "no such file" : `cannot read it (${code ?? (err as Error).message})`}. Name a JSON file of GUID → name.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--names ${file}: not JSON (${(err as Error).message}).`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(`--names ${file}: expected an object of GUID → name, e.g. {"<guid>": "orders-created"}.`);
  const names = new Map<string, readonly string[]>();
  const byName = new Map<string, string>();
  for (const [guid, name] of Object.entries(parsed)) {
    if (!isGuid(guid))
      throw new UsageError(`--names ${file}: the key ${JSON.stringify(guid)} is not a subscription GUID.`);
    const words = typeof name === "string" ? wordsOfGivenName(name) : undefined;
    if (!words)
      throw new UsageError(
        `--names ${file}: the name of ${guid}, ${JSON.stringify(name)}, is not a valid identifier: use letters, digits, - and _, starting with a letter.`,
      );
    const key = words.join("-");
    const other = byName.get(key);
    if (other !== undefined)
      throw new UsageError(
        `--names ${file}: ${other} and ${guid} are both named ${JSON.stringify(name)}: give each its own name.`,
      );
    byName.set(key, guid);
    names.set(guidKey(guid), words);
  }
  return names;
}

/** Parses, checks and loads an adopt command line; "help" when help was asked for. */
export function parseAdoptArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  processCwd = process.cwd(),
): AdoptArgs | "help" {
  // 1. Parse.
  const values = parseTable(argv, ADOPT_FLAGS, USAGE);
  if (values === "help") return "help";
  // 2. Check, reading nothing.
  const intoStack = stringFlag(values, "into-stack");
  const intoTerraform = stringFlag(values, "into-terraform");
  if ((intoStack === undefined) === (intoTerraform === undefined))
    throw new UsageError(
      `${intoStack === undefined ? "Name the target" : "Give one target, not both"}: --into-stack <name> (a stack of the program in --cwd) ` +
        `or --into-terraform <dir> (a Terraform/OpenTofu working directory).\n${USAGE}`,
    );
  const layout = stringFlag(values, "layout") ?? "each";
  if (!(LAYOUTS as readonly string[]).includes(layout))
    throw new UsageError(`--layout must be one of ${LAYOUTS.join(", ")}, got: ${JSON.stringify(layout)}.\n${USAGE}`);
  if (layout !== "each" && intoTerraform === undefined)
    throw new UsageError(
      `--layout ${layout} is for --into-terraform: a stack's program gets a resource per subscription.`,
    );
  const match = listFlag(values, "match");
  for (const rule of match) {
    const bad = invalidMatchRule(rule);
    if (bad) throw new UsageError(`${bad}.`);
  }
  // 3. Load: each file read, the target checked, relative paths from where the command was typed.
  const cwd = env.INIT_CWD || processCwd;
  const at = (file: string) => resolve(cwd, file);
  const workDir = at(stringFlag(values, "cwd") ?? ".");
  const terraform = listFlag(values, "terraform");
  for (const dir of [...terraform, ...(intoTerraform === undefined ? [] : [intoTerraform])]) {
    try {
      checkTerraformDirectory({
        dir,
        absDir: at(dir),
        env,
        cwd,
        flag: dir === intoTerraform ? "--into-terraform" : "--terraform",
      });
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  }
  if (intoStack !== undefined && !existsSync(join(workDir, "Pulumi.yaml")))
    throw new UsageError(
      `--into-stack ${intoStack}: no Pulumi.yaml in ${workDir}: point --cwd at the program directory of the stack.`,
    );
  const stateFiles = listFlag(values, "terraform-state").map((file) => {
    try {
      return readTerraformStateFile({ file, absFile: at(file), cwd, env });
    } catch (err) {
      // The message names the flag and the file already.
      throw new UsageError((err as Error).message);
    }
  });
  const namesFile = stringFlag(values, "names");
  const needsCli = terraform.length > 0 || intoTerraform !== undefined;
  let terraformCli: TerraformCli | undefined;
  if (needsCli)
    try {
      terraformCli = findTerraformCli(env, stringFlag(values, "terraform-cli"));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
  return {
    stacks: listFlag(values, "stack"),
    terraform,
    stateFiles,
    into: intoStack !== undefined ? { kind: "stack", stack: intoStack } : { kind: "terraform", dir: intoTerraform! },
    workDir,
    cwd,
    match,
    names: namesFile === undefined ? new Map() : readNamesFile(at(namesFile), namesFile),
    layout: layout as AdoptArgs["layout"],
    includeDuplicates: values["include-duplicates"] === true,
    verify: values.verify === true,
    force: values.force === true,
    ...(terraformCli ? { terraformCli } : {}),
  };
}

function say(line: string): void {
  process.stderr.write(`adopt: ${line}\n`);
}

/** What adopt did, for a person: stdout. */
export function summary(result: AdoptResult, args: AdoptArgs, context?: CommandContext): string {
  const lines: string[] = [];
  const dup = result.duplicates;
  if (dup.length > 0) {
    lines.push(`Duplicates (same event, filter, URL and header name: each message is delivered twice):`);
    for (const g of dup) {
      lines.push(`  ${g.keep.guid} ${g.keepManaged ? "(managed)" : "(kept)"} ${g.keep.subscriberUrl}`);
      for (const e of g.extras)
        lines.push(
          `    extra ${e.guid}${args.includeDuplicates ? " (adopted: --include-duplicates)" : ""}; remove it with:`,
          `      ${removeCommand(g.baseUrl, e.guid, g.apiVersion)}`,
        );
    }
    if (!args.includeDuplicates) lines.push("  The extras are not adopted; --include-duplicates adopts them too.", "");
  }
  if (result.adopted.length === 0 && dup.length > 0) {
    lines.push("Nothing else to adopt: the rest are claimed by a source, or the extras above.");
    return lines.join("\n");
  }
  if (result.adopted.length === 0) {
    lines.push(
      `Nothing to adopt: every subscription on ${result.baseUrl ?? "the instance"} is claimed by a source${args.match.length > 0 ? " or left out by --match" : ""}.`,
    );
    return lines.join("\n");
  }
  const where = args.into.kind === "stack" ? `stack ${args.into.stack}'s program` : args.into.dir;
  lines.push(`Adopted ${plural(result.adopted.length, "subscription")} into ${where}: ${result.output}`);
  for (const a of result.adopted)
    lines.push(
      `  ${args.into.kind === "stack" ? a.name.kebab : a.name.snake}  ${a.subscription.guid}  ${a.subscription.subscriberUrl}`,
    );
  const edited = result.files.filter((f) => f !== result.output);
  if (edited.length > 0) lines.push(`It is included from ${edited.join(", ")}.`);
  if (result.include) lines.push(`Include it in the program: ${result.include}`);
  if (args.into.kind === "stack" && result.secrets > 0)
    lines.push(
      `${plural(result.secrets, "header value")} ${result.secrets === 1 ? "is" : "are"} in stack ${args.into.stack}'s secret config (encrypted; pulumi config --show-secrets shows them).`,
    );
  if (args.into.kind === "terraform" && result.adopted.some((a) => a.subscription.hasCustomHeaderValue))
    lines.push(
      "Header values are written nowhere: the import keeps them on the instance. To change one later, set it " +
        (args.layout === "for-each"
          ? `(TF_VAR_${FOR_EACH_VARIABLE}, a map by key) and bump its custom_header_value_wo_version (docs/adopting.md).`
          : "(TF_VAR_<name>_header_value) and bump its custom_header_value_wo_version (docs/adopting.md)."),
    );
  for (const note of result.notes) lines.push(note);
  // The program directory as the team named it: relative to where it typed the command.
  const program = relative(args.cwd, args.workDir);
  const next =
    args.into.kind === "stack"
      ? `pulumi up --stack ${shellWord(args.into.stack)}${program ? ` --cwd ${shellWord(program)}` : ""}`
      : `${args.terraformCli?.name ?? "tofu"} -chdir=${shellWord(args.into.dir)} apply`;
  if (result.verification && result.verification.problems.length > 0) {
    lines.push(
      "",
      "Verification failed: the preview does more than import:",
      ...result.verification.problems.map((p) => `  ${p}`),
    );
  } else {
    if (result.verification)
      lines.push(
        `Verified: the ${args.into.kind === "stack" ? "preview" : "plan"} adopts ${result.verification.adopted} and changes nothing else.`,
      );
    lines.push(
      `Next: review ${result.output}, then run \`${next}\`: it takes them over and changes nothing on the instance.`,
    );
    const review =
      args.into.kind === "stack"
        ? `--stack ${shellWord(args.into.stack)}${program ? ` --cwd ${shellWord(program)}` : ""}`
        : `--terraform ${shellWord(args.into.dir)}`;
    lines.push(`Then \`${commandPrefix(context?.invocation)} drift ${review}\` shows them managed.`);
  }
  return lines.join("\n");
}

export const adoptCommand: Command = {
  usage: USAGE,
  async run(argv, context) {
    let args: AdoptArgs | "help";
    try {
      args = parseAdoptArgs(argv);
    } catch (err) {
      process.stderr.write(`${err instanceof UsageError ? err.message : String(err)}\n`);
      return 1;
    }
    if (args === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    try {
      const result = await adopt({
        stacks: args.stacks,
        terraform: args.terraform,
        terraformStates: args.stateFiles,
        into: args.into,
        workDir: args.workDir,
        cwd: args.cwd,
        match: args.match,
        names: args.names,
        layout: args.layout,
        includeDuplicates: args.includeDuplicates,
        verify: args.verify,
        force: args.force,
        env: process.env,
        ...(args.terraformCli ? { terraformCli: args.terraformCli } : {}),
        onProgress: say,
      });
      process.stdout.write(`${summary(result, args, context)}\n`);
      return result.verification && result.verification.problems.length > 0 ? 1 : 0;
    } catch (err) {
      if (err instanceof AdoptError) {
        process.stderr.write(`adopt: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  },
};
