/**
 * What a client and its siblings (`withApiVersion`) share: the transport, the credentials
 * and the rate limiter of one instance. The transport is an undici Agent owned by the
 * connection, or a dispatcher passed in (never undici's global dispatcher, which other code
 * in the process may replace or configure). The Agent, and undici with it, is made by the first
 * request: a preview that sends none never loads undici (~25 ms of a plugin's CPU).
 */
import type { Agent, Dispatcher } from "undici";
import { OAuthClientCredentials, noCredentials, staticToken, type Credentials } from "./auth";
import { AimdRate, RequestLimiter } from "./limiter";
import type { ResolvedSettings } from "./settings";

/** Keep-alive Agent settings of the client's own transport; the benchmark's raw baseline uses the same. */
export const AGENT_OPTIONS: Agent.Options = {
  // Reusing connections is most of the speed of a run of many calls; the server's own
  // Keep-Alive hint still wins when it is shorter, so idle sockets are not reused after the
  // server has dropped them (which would turn a POST into an ambiguous failure).
  keepAliveTimeout: 10_000,
  keepAliveMaxTimeout: 60_000,
  connect: { timeout: 10_000 },
};

/** The shared transport, credentials and limiter of one instance. */
export class Connection {
  readonly credentials: Credentials;
  readonly limiter: RequestLimiter;
  private readonly given: Dispatcher | undefined;
  private own: Agent | undefined;
  private closing: Promise<void> | undefined;

  constructor(settings: ResolvedSettings) {
    this.given = settings.dispatcher;
    const dispatcher = () => this.dispatcher;
    this.credentials = settings.oauth
      ? new OAuthClientCredentials(
          settings.oauth,
          {
            get dispatcher() {
              return dispatcher();
            },
            timeoutMs: settings.timeoutMs,
            clock: settings.clock,
          },
          settings.credentialSource,
        )
      : settings.token !== undefined
        ? staticToken(settings.token, settings.credentialSource)
        : noCredentials;
    // A limiter passed in is shared with other clients of the instance (see InstanceLimiters).
    this.limiter =
      settings.limiter ?? new RequestLimiter(new AimdRate({ maxRequestsPerSecond: settings.maxRequestsPerSecond }));
    if (settings.limiter && settings.maxRequestsPerSecond !== undefined)
      settings.limiter.rate.lowerCeiling(settings.maxRequestsPerSecond);
  }

  /** The transport: the dispatcher passed in, else this connection's own Agent, made on first use. */
  get dispatcher(): Dispatcher {
    if (this.given) return this.given;
    // Required here, not imported above: this is where undici is first needed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.own ??= new (require("undici") as typeof import("undici")).Agent(AGENT_OPTIONS);
    return this.own;
  }

  /** Closes the transport if this connection created it; idempotent. */
  close(): Promise<void> {
    this.closing ??= this.own ? this.own.close() : Promise.resolve();
    return this.closing;
  }
}
