/**
 * The command line of `npm run drift -- --stack <name> [--cwd <dir>] [--format md|json]`.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { FORMATS, type Format } from "./format";
import { invalidIgnoreRule } from "./ignore";

export const USAGE =
  "usage: npm run drift -- --stack <name> [--stack <other> …] [--ignore <guid|url-prefix> …] [--cwd <program directory>] [--format md|json]";

export interface DriftArgs {
  readonly stackName: string;
  /** Further `--stack`s sharing the instances: each is reviewed, with the others counting as managed. */
  readonly otherStacks: readonly string[];
  /** `--ignore` rules: GUIDs or subscriber-URL prefixes. */
  readonly ignore: readonly string[];
  /** Absolute program directory. */
  readonly workDir: string;
  readonly format: Format;
}

/** A command line that cannot be run; the message names the argument and shows the usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * Parses the arguments. Relative directories are resolved against the directory `npm run` was
 * started from (`INIT_CWD`), not the package root npm switches to.
 */
export function parseDriftArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): DriftArgs {
  let values: { stack?: string[]; cwd?: string; format?: string; ignore?: string[] };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        stack: { type: "string", multiple: true },
        ignore: { type: "string", multiple: true },
        cwd: { type: "string" },
        format: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const [stackName, ...otherStacks] = values.stack ?? [];
  if (!stackName)
    throw new UsageError(`--stack is required: name the stack to review (\`pulumi stack ls\` lists them).\n${USAGE}`);
  const format = values.format ?? "md";
  if (!(FORMATS as readonly string[]).includes(format))
    throw new UsageError(`--format must be md or json, got: ${JSON.stringify(format)}.\n${USAGE}`);
  const ignore = values.ignore ?? [];
  const badRule = invalidIgnoreRule(ignore);
  if (badRule) throw new UsageError(`${badRule}.\n${USAGE}`);
  const base = env.INIT_CWD || cwd;
  return { stackName, otherStacks, ignore, workDir: resolve(base, values.cwd ?? "."), format: format as Format };
}
