/**
 * The service emulator: a local, persistent implementation of the webhook subscription API
 * (spec) plus an admin API for tests. Start it in-process with `startEmulator`, or as a
 * command with `npm run emulator`. Behaviour the spec leaves open is listed in docs/emulator.md.
 */
import { EmulatorContext } from "./context";
import { resolveOptions, type EmulatorOptions } from "./options";
import { buildServer } from "./server";
import { StateLock } from "./stateLock";

export { EmulatorOptionError, type EmulatorOptions, type RateLimitSettings } from "./options";
export { StateFileError } from "./stateFile";
export { lockPathOf, StateFileInUseError, type LockHolder } from "./stateLock";
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
 * Starts an emulator. Rejects with EmulatorOptionError for a bad option, StateFileError for
 * an unusable state file (which is left untouched), and StateFileInUseError when another running
 * emulator holds the state file (one emulator per file: see stateLock.ts).
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  // Taken before the state is read, so that nothing is loaded from a file another emulator writes.
  const lock = resolved.statePath === null ? undefined : await StateLock.acquire(resolved.statePath);
  let context: EmulatorContext | undefined;
  let app: ReturnType<typeof buildServer> | undefined;
  try {
    context = await EmulatorContext.create(resolved);
    app = buildServer(context);
    await app.listen({ port: resolved.port, host: resolved.host });
  } catch (error) {
    await context?.close();
    await lock?.release();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : resolved.port;
  context.listenPort = port;
  const url = `http://${urlHost(resolved.host)}:${port}`;
  await lock?.recordAddress(url);
  const [server, state] = [app, context];
  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    close() {
      closing ??= (async () => {
        // Abort injected delays first, so in-flight requests do not hold up app.close().
        state.abortDelays();
        await server.close();
        await state.close();
        // Released only once the last write is on disk: the next emulator reads the final state.
        await lock?.release();
      })();
      return closing;
    },
  };
}
