/**
 * What every subcommand of `webhook-subscriptions` shares: its shape, strict flag parsing with
 * `node:util` parseArgs (`--flag value` and `--flag=value`, `--help` everywhere), and the error
 * for a command line that cannot run.
 */
import { resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Invocation } from "./invocation";

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

/**
 * One flag of a command's table: the table makes both the command's usage text and its parser,
 * so the two cannot disagree (as vitest's cli-config does).
 */
export interface FlagSpec {
  readonly type: "string" | "boolean";
  /** Repeatable: its values in command-line order. */
  readonly multiple?: true;
  /** The value's placeholder in the synopsis, e.g. `<name>`; none for a boolean. */
  readonly arg?: string;
  /** What it does, for the usage text: the first line beside the flag, the rest below it. */
  readonly description: string;
}

/** A command's flags, in the order the usage lists them. */
export type FlagTable = Readonly<Record<string, FlagSpec>>;

/** The usage text of `command`: a synopsis made of its flags, what it does, then each flag and its description. */
export function usageOf(command: string, table: FlagTable, about: string, more = ""): string {
  const head = `usage: webhook-subscriptions ${command} `;
  const words = Object.entries(table).map(
    ([name, f]) => `[--${name}${f.arg ? ` ${f.arg}` : ""}${f.multiple ? " …" : ""}]`,
  );
  const lines: string[] = [];
  let line = head;
  for (const word of words) {
    if (line.length + word.length > 110 && line.trim() !== head.trim()) {
      lines.push(line.trimEnd());
      line = " ".repeat(head.length);
    }
    line += `${word} `;
  }
  lines.push(line.trimEnd());
  const width = Math.max(...Object.keys(table).map((name) => name.length)) + 4;
  const flags = Object.entries(table).flatMap(([name, f]) => {
    const [first, ...rest] = f.description.split("\n");
    return [`  ${`--${name}`.padEnd(width)}${first}`, ...rest.map((r) => `${" ".repeat(width + 2)}${r}`)];
  });
  return [...lines, "", about, ...flags, ...(more ? [more] : [])].join("\n");
}

/** Parses `argv` against a command's table: see parseFlags. */
export function parseTable(argv: readonly string[], table: FlagTable, usage: string): FlagValues | "help" {
  const flags = Object.fromEntries(
    Object.entries(table).map(([name, f]) => [name, { type: f.type, ...(f.multiple ? { multiple: true } : {}) }]),
  );
  return parseFlags(argv, flags, usage);
}

/** Parsed flag values: strings, true for boolean flags, string lists for `multiple` flags. */
export type FlagValues = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/**
 * Parses `argv` against `flags` (plus `--help`/`-h`); unknown flags, missing values and
 * positional arguments are usage errors. Returns "help" when help was asked for.
 */
export function parseFlags(argv: readonly string[], flags: Flags, usage: string): FlagValues | "help" {
  let parsed: { values: FlagValues; tokens: readonly { kind: string; name?: string; value?: string }[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...flags, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
      tokens: true,
    }) as typeof parsed;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${usage}`);
  }
  // A one-value flag given twice: parseArgs keeps the last, which may not be the one meant. The
  // values are not repeated back: a flag such as --admin-token holds a secret.
  for (const [name, flag] of Object.entries(flags)) {
    if (flag.type !== "string" || flag.multiple) continue;
    const given = parsed.tokens.filter((t) => t.kind === "option" && t.name === name).length;
    if (given > 1) throw new UsageError(`--${name} is given ${given} times: give it once.`);
  }
  return parsed.values.help ? "help" : parsed.values;
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
