/**
 * Credentials: where the `Authorization` header of each request comes from. A static bearer
 * token, or OAuth2 client credentials (RFC 6749 §4.4) whose token is cached, renewed shortly
 * before it expires, and renewed once more when the service answers 401 anyway (a token can
 * be revoked early). Secret values are exposed only to the redaction of errors.
 */
import type { Dispatcher } from "undici";
import { z } from "zod";
import { systemClock, type Clock } from "../wire";
import type { AuthKind, ErrorContext } from "./errors";
import { TransportError, UnauthorizedError, UnexpectedResponseError } from "./errors";
import { errorFromResponse } from "./errorFromResponse";
import { parseJson } from "./json";
import type { Secrets } from "./redact";
import { networkFailure } from "./retry";

/** Supplies the Authorization header of each request. */
export interface Credentials {
  /** How requests are authenticated, for the advice of a 401. */
  readonly kind: AuthKind;
  /** Where the credential was read (`ClientSettings.credentialSource`), named by a 401's message. */
  readonly source?: string;
  /**
   * The header for the next request (`Bearer …`), or undefined when none is configured.
   * Synchronous whenever no token has to be fetched, to keep the common path cheap.
   *
   * @param context the operation that needs it, for the errors of a token request.
   */
  authorization(context: ErrorContext): string | undefined | Promise<string | undefined>;
  /**
   * Reports that the service refused `header` with 401. Returns true when a retry with a new
   * token can help (only OAuth can get one).
   */
  refused(header: string | undefined): boolean;
  /**
   * Every secret value held (client secret, credentials of the token URL, tokens issued), for
   * redaction. Read again for each error, so a token is hidden from the moment it is issued.
   */
  secrets(): readonly string[];
}

const NO_SECRETS: readonly string[] = [];

/** No credentials: every operation will get 401, whose message says what to configure. */
export const noCredentials: Credentials = {
  kind: "none",
  authorization: () => undefined,
  refused: () => false,
  secrets: () => NO_SECRETS,
};

/** A fixed bearer token; a 401 is final, since there is no way to get another one. */
export function staticToken(token: string, source?: string): Credentials {
  const header = `Bearer ${token}`;
  const secrets = [token];
  return {
    kind: "token",
    source,
    authorization: () => header,
    refused: () => false,
    secrets: () => secrets,
  };
}

/** OAuth2 client-credentials settings. */
export interface OAuthSettings {
  readonly clientId: string;
  /** Secret: never shown in messages or errors. */
  readonly clientSecret: string;
  /** The token endpoint, an absolute http(s) URL. */
  readonly tokenUrl: string;
}

/** The token response fields we use (RFC 6749 §5.1); others are ignored. */
const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
});

/** Lifetime assumed when the endpoint omits `expires_in`; a 401 renews the token early anyway. */
const DEFAULT_LIFETIME_S = 300;
/** Renew this much before expiry, at most: requests in flight must not carry a token that lapses mid-way. */
const MAX_RENEW_MARGIN_MS = 60_000;
/** Tokens remembered for redaction; older ones have expired and are useless. */
const REMEMBERED_TOKENS = 4;

interface CachedToken {
  readonly header: string;
  readonly renewAt: number;
}

/** How the OAuth credentials reach the token endpoint; tests inject MockAgent through `dispatcher`. */
export interface OAuthTransport {
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  /** When tokens are due for renewal. @default systemClock */
  readonly clock?: Pick<Clock, "now">;
}

/**
 * OAuth2 client credentials. Concurrent requests that find no valid token share one token
 * request rather than each fetching their own.
 */
export class OAuthClientCredentials implements Credentials {
  readonly kind = "oauth";
  private cached: CachedToken | undefined;
  private pending: Promise<string> | undefined;
  private readonly issued: string[] = [];
  /** Client secret and the tokens issued, rebuilt only when a token is issued. */
  private secretValues: readonly string[];
  private readonly clock: Pick<Clock, "now">;

  /**
   * @param source where the client credentials were read, named by a 401's message.
   */
  constructor(
    private readonly settings: OAuthSettings,
    private readonly transport: OAuthTransport,
    readonly source?: string,
  ) {
    this.clock = transport.clock ?? systemClock;
    this.secretValues = [settings.clientSecret, ...urlCredentials(settings.tokenUrl)];
  }

  authorization(context: ErrorContext): string | Promise<string> {
    const cached = this.cached;
    if (cached && this.clock.now() < cached.renewAt) return cached.header;
    this.pending ??= this.fetchToken(context).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  refused(header: string | undefined): boolean {
    // Only drop the cache if it still holds the refused token: a concurrent request may
    // already have renewed it, and that newer token deserves its chance.
    if (this.cached?.header === header) this.cached = undefined;
    return true;
  }

  secrets(): readonly string[] {
    return this.secretValues;
  }

  private async fetchToken(context: ErrorContext): Promise<string> {
    const { clientId, clientSecret, tokenUrl } = this.settings;
    const url = new URL(tokenUrl);
    // Live: the errors below must also hide a token that this very response issued.
    const errorContext: ErrorContext = { ...context, secrets: liveSecrets(this, context.secrets) };
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    });
    let status: number;
    let text: string;
    try {
      const response = await this.transport.dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
        headersTimeout: this.transport.timeoutMs,
        bodyTimeout: this.transport.timeoutMs,
      });
      status = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      const { code } = networkFailure(error);
      throw new TransportError({
        ...errorContext,
        cause: error,
        networkCode: code,
        detail: `the OAuth token request to ${tokenUrl} failed`,
      });
    }
    if (status === 400 || status === 401 || status === 403) {
      throw new UnauthorizedError({
        ...errorContext,
        status,
        body: text,
        auth: "oauth",
        credentialSource: this.source,
        tokenUrl,
      });
    }
    if (status < 200 || status >= 300)
      throw errorFromResponse({ ...errorContext, auth: "oauth", credentialSource: this.source }, status, text);
    const json = parseJson(text);
    this.hideIssuedToken(json);
    const parsed = TokenResponse.safeParse(json);
    if (!parsed.success) {
      throw new UnexpectedResponseError({
        ...errorContext,
        status,
        body: text,
        issues: parsed.error.issues,
        detail: `the OAuth token endpoint ${tokenUrl} did not return an access_token`,
      });
    }
    return this.remember(parsed.data.access_token, parsed.data.expires_in ?? DEFAULT_LIFETIME_S);
  }

  /** Adds an access_token the endpoint answered with to the redaction set, even one of an unusable response. */
  private hideIssuedToken(json: unknown): void {
    const token =
      typeof json === "object" && json !== null ? (json as { access_token?: unknown }).access_token : undefined;
    if (typeof token !== "string" || token === "" || this.issued.includes(token)) return;
    this.issued.push(token);
    if (this.issued.length > REMEMBERED_TOKENS) this.issued.shift();
    this.secretValues = [this.settings.clientSecret, ...urlCredentials(this.settings.tokenUrl), ...this.issued];
  }

  private remember(token: string, lifetimeSeconds: number): string {
    const lifetimeMs = lifetimeSeconds * 1000;
    const header = `Bearer ${token}`;
    this.cached = { header, renewAt: this.clock.now() + lifetimeMs - Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs / 10) };
    return header;
  }
}

/** The userinfo and query values of a URL, which are credentials when present. */
export function urlCredentials(href: string): string[] {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return [];
  }
  // Userinfo is kept percent-encoded by URL; a body may echo either form.
  const userinfo = [url.username, url.password].flatMap((v) => [v, safeDecode(v)]);
  return [...new Set([...userinfo, ...url.searchParams.values()])].filter((v) => v !== "");
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The credentials' secrets followed by `extra`, read each time an error is built, not now. */
export function liveSecrets(credentials: Credentials, extra: Secrets | undefined): Secrets {
  return new LiveSecrets(credentials, extra);
}

// A class rather than an object literal with a generator: every call builds one, and a
// generator method in a literal is a new function object each time (it showed in profiles).
class LiveSecrets implements Iterable<string | null | undefined> {
  constructor(
    private readonly credentials: Credentials,
    private readonly extra: Secrets | undefined,
  ) {}

  *[Symbol.iterator](): Iterator<string | null | undefined> {
    yield* this.credentials.secrets();
    if (this.extra) yield* this.extra;
  }
}
