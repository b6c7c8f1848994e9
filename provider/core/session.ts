/**
 * What one provider instance (the default provider, or one explicit `Provider`, each in its
 * own plugin process) shares between its resources during one engine operation: its settings,
 * and per service instance a client, a rate limiter and the coalesced list snapshot. Built by
 * the runtime from the settings `configure` received; nothing here is a module global.
 */
import {
  ForbiddenError,
  FULL_MESSAGE_ELSEWHERE,
  InstanceLimiters,
  TransportError,
  UnauthorizedError,
  WebhookApiError,
  WebhookSubscriptionClient,
} from "../client";
import { DEFAULT_API_VERSION } from "../wire";
import { reportRateLimited } from "./progress";
import { clientSettings, staleCredentialHint, type ProviderSettings } from "./settings";
import { ListSnapshots } from "./snapshot";

/** One service instance as this session reaches it. */
export class Instance {
  readonly client: WebhookSubscriptionClient;
  /** The configuration-API client: the client itself, or in legacy mode a sibling used to confirm creates. */
  readonly configurationClient: WebhookSubscriptionClient;
  readonly snapshots: ListSnapshots;
  readonly legacy: boolean;
  /** Normalised: no trailing slash; what a subscription records as its instance. */
  readonly baseUrl: string;
  /** The first 401/403 or refused connection of this instance in this run: later calls fail fast instead of repeating it. */
  private refusal?: WebhookApiError;
  /** Settles once the refusal's own operation has failed with it and the host has had a turn to send that failure. */
  private refusalReported?: Promise<void>;
  /** Whether the instance has answered a call with anything but a refusal. */
  private accepted = false;
  /** The call that is finding out whether the credentials are accepted; the others wait for it. */
  private probe?: Promise<unknown>;

  /**
   * @param staleCredentialHint added to a 401's message when the credential may be the state's
   *   record of an older one (settings.ts).
   */
  constructor(
    client: WebhookSubscriptionClient,
    private readonly staleCredentialHint?: string,
  ) {
    this.client = client;
    this.legacy = client.legacy;
    this.configurationClient = client.legacy ? client.withApiVersion(DEFAULT_API_VERSION) : client;
    this.snapshots = new ListSnapshots(this.configurationClient);
    this.baseUrl = client.baseUrl;
  }

  /**
   * Runs one resource operation's API calls. Until the instance has answered once, operations
   * go one at a time, so a refused credential is seen by one operation, reported in full once,
   * and every later operation fails at once with a short reference to it: a run of 4
   * subscriptions with a bad token shows one 401, not one per resource and retry.
   */
  async run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    for (;;) {
      if (this.refusal) return this.refusedEarlier(operation);
      if (this.accepted || !this.probe) break;
      await this.probe.catch(() => undefined);
    }
    const attempt = call();
    if (!this.accepted) this.probe = attempt;
    try {
      const result = await attempt;
      this.accepted = true;
      return result;
    } catch (err) {
      const refusal = refusalIn(err);
      if (refusal) {
        if (this.refusal) return this.refusedEarlier(operation);
        this.refusal = refusal;
        // The engine prints failures in the order their responses arrive: the operations waiting
        // here fail after this one has been thrown and the host has sent it (its promise chain
        // runs before the next macrotask), so the full message comes first and the references after.
        this.refusalReported = new Promise((resolve) => setImmediate(resolve));
        // Only refresh, destroy and import (a read) configure the providers from the state; `up` has the current settings.
        if (refusal instanceof UnauthorizedError && this.staleCredentialHint && /^(refresh|delete) /.test(operation))
          throw new Error(`${err instanceof Error ? err.message : refusal.message} ${this.staleCredentialHint}`, {
            cause: err,
          });
      } else this.accepted = true; // the gate only reports a refusal once; anything else lets the rest go in parallel
      throw err;
    } finally {
      if (this.probe === attempt) this.probe = undefined;
    }
  }

  /** Fails an operation that was not attempted because the instance refused, once that refusal is out. */
  private async refusedEarlier(operation: string): Promise<never> {
    const refusal = this.refusal!;
    await this.refusalReported;
    const full = FULL_MESSAGE_ELSEWHERE;
    throw new Error(
      refusal instanceof TransportError
        ? `${operation}: not attempted: ${this.baseUrl} ` +
            `${refusal.networkCode === "ENOTFOUND" ? "did not resolve" : "refused the connection"} earlier in this run ` +
            `(${refusal.networkCode}); ${full}. Fix webhooks:baseUrl or start the instance, and run again.`
        : `${operation}: not attempted: ${this.baseUrl} refused this run's credentials earlier (${refusal.code}, ` +
            `HTTP ${refusal.status ?? "?"}); ${full}. Fix the credential and run again.`,
    );
  }
}

/** The session of one provider process. */
export class Session {
  /** The instance the settings name: creates and updates go there. */
  readonly home: Instance;
  /** GUIDs this process created or adopted: reconciliation never takes one twice. */
  readonly claimed = new Set<string>();
  /**
   * GUIDs the creates of this run took over rather than created. A delete of one of them in the
   * same run is the old half of a replacement that adopted it: the new resource holds it now.
   */
  readonly adoptedThisRun = new Set<string>();
  private readonly others = new Map<string, Instance>();

  /**
   * @param limiters one rate limiter per instance, shared by every client of that instance; inject
   *   one to share pacing across sessions or to drive it with a test clock.
   * @param signal aborting it stops every call of the session at its next wait (`StoppedError`).
   */
  constructor(
    readonly settings: ProviderSettings,
    private readonly limiters: InstanceLimiters = new InstanceLimiters(),
    private readonly signal?: AbortSignal,
  ) {
    this.home = this.connect(settings.connection.baseUrl);
  }

  /**
   * The instance a subscription recorded. Another base URL than the settings' is reached with
   * the same credentials: a subscription whose instance changed in config is unsubscribed from
   * where it lives (docs/multi-instance.md, "A subscription records its instance").
   */
  instance(baseUrl: string | null | undefined): Instance {
    if (!baseUrl || baseUrl === this.home.baseUrl) return this.home;
    let other = this.others.get(baseUrl);
    if (!other) {
      other = this.connect(baseUrl);
      this.others.set(baseUrl, other);
    }
    return other;
  }

  private connect(baseUrl: string): Instance {
    const connection = clientSettings({ ...this.settings.connection, baseUrl });
    return new Instance(
      new WebhookSubscriptionClient({
        ...connection,
        limiter: this.limiters.for(baseUrl, connection.maxRequestsPerSecond),
        // A call backing off on 429s says so: minutes of silence look like a hang.
        onRequest: (event) => reportRateLimited(event),
        signal: this.signal,
      }),
      staleCredentialHint(this.settings),
    );
  }
}

/** Network failures that every later call of the run would meet too: nothing listens, or no such host. */
const REFUSING_NETWORK_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND"]);

/**
 * The refusal behind `err` (a 401/403, or a connection refused after the client's retries), also
 * when it is the cause of a wrapping error.
 */
function refusalIn(err: unknown): WebhookApiError | undefined {
  for (let e = err; e instanceof Error; e = e.cause)
    if (
      e instanceof UnauthorizedError ||
      e instanceof ForbiddenError ||
      (e instanceof TransportError && REFUSING_NETWORK_CODES.has(e.networkCode))
    )
      return e;
  return undefined;
}
