/**
 * `webhook-subscriptions emulator`: starts the emulator, prints exactly one line
 * `webhook emulator listening on <url> (API description: <url>/swagger)`, and serves until
 * SIGINT or SIGTERM.
 * A bad flag, an unusable state file or one another running emulator holds is reported on stderr
 * with exit code 1.
 */
import {
  EmulatorOptionError,
  startEmulator,
  StateFileError,
  StateFileInUseError,
  type EmulatorOptions,
} from "../emulator";
import { ADMIN_TOKEN_ENV } from "../emulator/options";
import { SWAGGER_PATH } from "../emulator/swaggerRoutes";
import { adminTokenFrom, PROCESS_SURROUNDINGS, type CommandSurroundings } from "./adminToken";
import { numberFlag, parseFlags, stringFlag, UsageError, type Command, type FlagValues } from "./command";

const USAGE = `usage: webhook-subscriptions emulator [--port <port>] [--host 127.0.0.1] [--state .emulator/state.json]
                                      [--legacy-only] [--product service] [--dialect spec|vendor-docs]
                                      [--rate-limit 20[:burst]] [--admin-token-file <path> | --admin-token <token>]
                                      [--allow-dev-tokens] [--max-subscriptions 10000]

Runs the local emulator of the webhook subscription service until stopped (Ctrl-C).
  --port         TCP port; 0 picks a free one (default 0)
  --host         address to listen on (default 127.0.0.1)
  --state        JSON file that keeps subscriptions across restarts (default: in memory)
  --legacy-only  serve only the legacy 2024.1 API
  --product      the word in the x-<product>-signature header of delivered messages (default service)
  --dialect      spec: answer exactly as the spec (default); vendor-docs: the vendor documentation's shapes
  --rate-limit   requests per second [and burst] the APIs accept before answering 429
  --admin-token-file  file holding the token the admin API (/_emulator/…) requires (needed to
                 listen beyond loopback); without either flag it is read from ${ADMIN_TOKEN_ENV}
  --admin-token  the token itself: every local user can read it in \`ps\`; prefer the file or the variable
  --allow-dev-tokens  accept the dev tokens (dev-builder, …) on a non-loopback address too
  --max-subscriptions  cap on the subscriptions the emulator holds`;

/** The flag that sets each option, for error messages about option values. */
const FLAG_OF_OPTION: Readonly<Partial<Record<keyof EmulatorOptions, string>>> = {
  port: "--port",
  host: "--host",
  statePath: "--state",
  product: "--product",
  dialect: "--dialect",
  rateLimit: "--rate-limit",
  adminToken: "--admin-token",
  maxSubscriptions: "--max-subscriptions",
};

const FLAGS = {
  port: { type: "string" },
  host: { type: "string" },
  state: { type: "string" },
  "legacy-only": { type: "boolean" },
  product: { type: "string" },
  dialect: { type: "string" },
  "rate-limit": { type: "string" },
  "admin-token": { type: "string" },
  "admin-token-file": { type: "string" },
  "allow-dev-tokens": { type: "boolean" },
  "max-subscriptions": { type: "string" },
} as const;

/**
 * The start options a command line asks for; only the syntax is checked here, values by
 * startEmulator, except the admin token, which may come from a file or the environment.
 */
export function parseEmulatorArgs(
  argv: readonly string[],
  surroundings: CommandSurroundings = PROCESS_SURROUNDINGS,
): EmulatorOptions | "help" {
  const values = parseFlags(argv, FLAGS, USAGE);
  return values === "help" ? "help" : emulatorOptions(values, surroundings);
}

function emulatorOptions(values: FlagValues, surroundings: CommandSurroundings): EmulatorOptions {
  const port = stringFlag(values, "port");
  const rateLimit = stringFlag(values, "rate-limit");
  const dialect = stringFlag(values, "dialect");
  const maxSubscriptions = stringFlag(values, "max-subscriptions");
  const adminToken = adminTokenFrom(
    stringFlag(values, "admin-token"),
    stringFlag(values, "admin-token-file"),
    surroundings,
  );
  return {
    ...(port === undefined ? {} : { port: numberFlag("--port", port) }),
    ...(values.host === undefined ? {} : { host: stringFlag(values, "host") }),
    ...(values.state === undefined ? {} : { statePath: stringFlag(values, "state") }),
    ...(values["legacy-only"] ? { legacyOnly: true } : {}),
    ...(values.product === undefined ? {} : { product: stringFlag(values, "product") }),
    ...(dialect === undefined ? {} : { dialect: dialect as EmulatorOptions["dialect"] }),
    ...(rateLimit === undefined ? {} : { rateLimit: rateLimitFlag(rateLimit) }),
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(values["allow-dev-tokens"] ? { allowDevTokens: true } : {}),
    ...(maxSubscriptions === undefined
      ? {}
      : { maxSubscriptions: numberFlag("--max-subscriptions", maxSubscriptions) }),
  };
}

function rateLimitFlag(value: string): EmulatorOptions["rateLimit"] {
  const [rate, burst, extra] = value.split(":");
  if (extra !== undefined || rate === undefined)
    throw new UsageError(`--rate-limit: expected <requestsPerSecond>[:<burst>], got "${value}"`);
  return {
    requestsPerSecond: numberFlag("--rate-limit", rate),
    ...(burst === undefined ? {} : { burst: numberFlag("--rate-limit", burst) }),
  };
}

/** Turns a start failure the user can fix into one readable line; anything else keeps its stack. */
function describeStartError(error: unknown): string {
  if (error instanceof EmulatorOptionError) return `${FLAG_OF_OPTION[error.option] ?? error.option}: ${error.message}`;
  if (error instanceof UsageError || error instanceof StateFileError || error instanceof StateFileInUseError)
    return error.message;
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return `--port: ${(error as Error).message}`;
  return (error as Error).stack ?? String(error);
}

/** Serves until SIGINT/SIGTERM; a second signal while closing exits at once. */
function serveUntilStopped(close: () => Promise<void>): Promise<number> {
  return new Promise((resolveExit) => {
    const stop = () => {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
      process.once("SIGINT", () => process.exit(130));
      process.once("SIGTERM", () => process.exit(143));
      close().then(
        () => resolveExit(0),
        (error: unknown) => {
          process.stderr.write(`emulator: error while stopping: ${(error as Error).message}\n`);
          resolveExit(1);
        },
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

export const emulatorCommand: Command = {
  usage: USAGE,
  async run(argv) {
    try {
      const options = parseEmulatorArgs(argv);
      if (options === "help") {
        process.stdout.write(`${USAGE}\n`);
        return 0;
      }
      const emulator = await startEmulator(options);
      process.stdout.write(
        `webhook emulator listening on ${emulator.url} (API description: ${emulator.url}${SWAGGER_PATH})\n`,
      );
      return await serveUntilStopped(() => emulator.close());
    } catch (error) {
      process.stderr.write(`emulator: ${describeStartError(error)}\n`);
      return 1;
    }
  },
};
