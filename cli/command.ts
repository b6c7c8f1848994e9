/**
 * What every subcommand of `webhook-subscriptions` shares: its shape, strict flag parsing with
 * `node:util` parseArgs (`--flag value` and `--flag=value`, `--help` everywhere), and the error
 * for a command line that cannot run.
 */
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Invocation } from "../drift/invocation";

/** What the entry (index.ts `main`) decided once for every subcommand. */
export interface CommandContext {
  /** How the commands a subcommand prints run this tool: `npx webhook-subscriptions`, or the executable's name. */
  readonly invocation: Invocation;
  /** This tool's version, as `--version` prints it (a SARIF report states it). */
  readonly version: string;
  /**
   * The command that runs this one again, when this tool's own would not: `npm start -- --drift`
   * reviews on the emulator it starts, which is gone once it exits. @default this tool's command
   */
  readonly rerun?: string;
}

/** This package's version, as its own manifest says it (npx, a global install, this checkout). */
export function packageVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own manifest, wherever it is installed
  return (require("pulumi-webhook-subscriptions/package.json") as { version: string }).version;
}

/** One subcommand. */
export interface Command {
  /** The whole `--help` text. */
  readonly usage: string;
  /** Runs with the arguments after the subcommand's name; resolves with the exit code. */
  run(argv: readonly string[], context?: CommandContext): Promise<number>;
}

/** A command line that cannot run; the message names the flag and the value, then shows the usage. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

type Flags = NonNullable<ParseArgsConfig["options"]>;

/** Parsed flag values: strings, true for boolean flags, string lists for `multiple` flags. */
export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/**
 * Parses `argv` against `flags` (plus `--help`/`-h`); unknown flags, missing values and
 * positional arguments are usage errors. Returns "help" when help was asked for.
 */
export function parseFlags(argv: readonly string[], flags: Flags, usage: string): FlagValues | "help" {
  let values: FlagValues;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { ...flags, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }) as { values: FlagValues });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${usage}`);
  }
  return values.help ? "help" : values;
}

/** A flag's value as a string (parseArgs has typed it already; this narrows it). */
export function stringFlag(values: FlagValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** A repeatable (`multiple: true`) flag's values, in command-line order; [] when absent. */
export function listFlag(values: FlagValues, name: string): readonly string[] {
  const value = values[name];
  return Array.isArray(value) ? value : [];
}

/**
 * A directory flag, absolute. Relative paths are taken from where the user typed the command:
 * `npm run` and `npx` switch to the package root but leave that directory in INIT_CWD.
 */
export function directoryFlag(
  values: FlagValues,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): string {
  return resolve(env.INIT_CWD || cwd, stringFlag(values, name) ?? ".");
}

/** A plain decimal number (Number("") is 0 and Number(" 8") is 8, so those are refused). */
export function numberFlag(flag: string, text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text)) throw new UsageError(`${flag}: expected a number, got "${text}"`);
  return Number(text);
}
