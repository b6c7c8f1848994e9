/**
 * Command-line flags of `npm run emulator`, turned into start options. Only the syntax is
 * checked here; values are checked by resolveOptions, and both kinds of error name the flag.
 */
import type { EmulatorOptions } from "./options";

/** A bad command line; the message names the flag and the value. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}

export const USAGE =
  "usage: npm run emulator -- [--port 8080] [--host 127.0.0.1] [--state .emulator/state.json] [--legacy-only] [--product service] [--rate-limit 20[:burst]] [--dialect spec|vendor-docs] [--admin-token <token>] [--allow-dev-tokens] [--max-subscriptions 10000]";

/** The flag that sets each option, for error messages about option values. */
export const FLAG_OF_OPTION: Readonly<Partial<Record<keyof EmulatorOptions, string>>> = {
  port: "--port",
  host: "--host",
  statePath: "--state",
  product: "--product",
  rateLimit: "--rate-limit",
  dialect: "--dialect",
  adminToken: "--admin-token",
  maxSubscriptions: "--max-subscriptions",
};

type MutableOptions = { -readonly [K in keyof EmulatorOptions]: EmulatorOptions[K] };

/** Flags that take a value, and how each value is stored. */
const VALUE_FLAGS: Readonly<Record<string, (value: string, options: MutableOptions) => void>> = {
  "--port": (value, options) => (options.port = number("--port", value)),
  "--host": (value, options) => (options.host = value),
  "--state": (value, options) => (options.statePath = value),
  "--product": (value, options) => (options.product = value),
  // Checked by resolveOptions, which names the allowed values.
  "--dialect": (value, options) => (options.dialect = value as EmulatorOptions["dialect"]),
  "--admin-token": (value, options) => (options.adminToken = value),
  "--max-subscriptions": (value, options) => (options.maxSubscriptions = number("--max-subscriptions", value)),
  "--rate-limit": (value, options) => {
    const [rate, burst, extra] = value.split(":");
    if (extra !== undefined || rate === undefined)
      throw new CliUsageError(`--rate-limit: expected <requestsPerSecond>[:<burst>], got "${value}"`);
    options.rateLimit = {
      requestsPerSecond: number("--rate-limit", rate),
      ...(burst === undefined ? {} : { burst: number("--rate-limit", burst) }),
    };
  },
};

function number(flag: string, text: string): number {
  // Number("") is 0 and Number(" 8") is 8: insist on a plain decimal.
  if (!/^\d+(\.\d+)?$/.test(text)) throw new CliUsageError(`${flag}: expected a number, got "${text}"`);
  return Number(text);
}

/** Parses `argv` (without node and script); `--flag=value` and `--flag value` both work. */
export function parseCliArgs(argv: readonly string[]): EmulatorOptions | "help" {
  const options: MutableOptions = {};
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? "";
    if (argument === "--help" || argument === "-h") return "help";
    if (argument === "--legacy-only") {
      options.legacyOnly = true;
      continue;
    }
    if (argument === "--allow-dev-tokens") {
      options.allowDevTokens = true;
      continue;
    }
    const equals = argument.indexOf("=");
    const flag = equals >= 0 ? argument.slice(0, equals) : argument;
    const store = VALUE_FLAGS[flag];
    if (store === undefined) throw new CliUsageError(`unknown argument "${argument}"\n${USAGE}`);
    const value = equals >= 0 ? argument.slice(equals + 1) : argv[++index];
    if (value === undefined || (equals < 0 && value.startsWith("--"))) throw new CliUsageError(`${flag} needs a value`);
    store(value, options);
  }
  return options;
}
