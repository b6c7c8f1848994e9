/**
 * The service emulator: a local, persistent implementation of the webhook subscription API
 * (spec) plus an admin API for tests. Start it in-process with `startEmulator`, or as a
 * command with `npm run emulator`. Behaviour the spec leaves open is listed in docs/emulator.md.
 */
import { EmulatorContext } from "./context";
import { resolveOptions, type EmulatorOptions } from "./options";
import { buildServer } from "./server";

export { EmulatorOptionError, type EmulatorOptions, type RateLimitSettings } from "./options";
export { StateFileError } from "./stateFile";
export { BUILDER_TOKEN, SECOND_BUILDER_TOKEN, READER_TOKEN } from "./auth";
export { DIALECTS, type DialectName } from "./dialect";
export { DEV_CLIENT_ID, DEV_CLIENT_SECRET } from "./oauthRoute";
export { NOT_LOOPBACK_ERROR, OWN_LISTENER_ERROR } from "./delivery";
export type { StatsSnapshot } from "./stats";

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:8080` (no trailing slash). */
  readonly url: string;
  /** The port actually bound (useful with `port: 0`). */
  readonly port: number;
  /** Stops listening, waits for pending state writes, and releases everything. Safe to call twice. */
  close(): Promise<void>;
}

/** Formats a host for a URL: IPv6 literals go in brackets. */
function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts an emulator. Rejects with EmulatorOptionError for a bad option and StateFileError for
 * an unusable state file (which is left untouched).
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const context = await EmulatorContext.create(resolved);
  const app = buildServer(context);
  try {
    await app.listen({ port: resolved.port, host: resolved.host });
  } catch (error) {
    await context.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : resolved.port;
  context.listenPort = port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${urlHost(resolved.host)}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        // Abort injected delays first, so in-flight requests do not hold up app.close().
        context.abortDelays();
        await app.close();
        await context.close();
      })();
      return closing;
    },
  };
}
