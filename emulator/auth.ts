/**
 * Bearer tokens and the roles they carry. Two fixed development tokens exist (product.md);
 * the OAuth2 endpoint issues more, each expiring after the configured lifetime.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../provider/wire";

/** Fixed token holding the Builder role. */
export const BUILDER_TOKEN = "dev-builder";
/**
 * A second fixed Builder token, of another account: under the `vendor-docs` dialect each account
 * sees only its own subscriptions, and two Builder tokens show it.
 */
export const SECOND_BUILDER_TOKEN = "dev-builder-2";
/** The account behind every token the OAuth2 endpoint issues (one client, `dev-client`). */
export const OAUTH_ACCOUNT = "oauth:dev-client";
/** Fixed token that authenticates without the Builder role (403 on every operation). */
export const READER_TOKEN = "dev-reader";

/** Who a request is: Builder may call every operation, Reader none; anonymous gets 401. */
export type Caller = "builder" | "reader" | "anonymous";

/**
 * The fixed tokens an emulator accepts: the dev tokens when they are enabled (on loopback, or
 * with `allowDevTokens`), and the admin token, which is a Builder token too.
 */
export function fixedTokens(options: { devTokens: boolean; adminToken: string | null }): ReadonlyMap<string, Caller> {
  const tokens = new Map<string, Caller>();
  if (options.devTokens) {
    tokens.set(BUILDER_TOKEN, "builder");
    tokens.set(SECOND_BUILDER_TOKEN, "builder");
    tokens.set(READER_TOKEN, "reader");
  }
  if (options.adminToken !== null) tokens.set(options.adminToken, "builder");
  return tokens;
}

/** Compares a presented secret with the expected one in constant time (digests, so length does not show). */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Reads the token out of an `Authorization: Bearer <token>` header; the scheme is case-insensitive. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match?.[1];
}

/** Tokens issued by the OAuth2 endpoint, and tokens declared expired through the admin API. */
export class TokenRegistry {
  /** Issued token → expiry time (on the clock). Kept across `reset`: the identity provider is not the service. */
  private readonly issued = new Map<string, number>();
  private readonly expired = new Set<string>();

  constructor(
    private readonly ttlSeconds: number,
    private readonly clock: Pick<Clock, "now">,
    private readonly fixed: ReadonlyMap<string, Caller> = fixedTokens({ devTokens: true, adminToken: null }),
  ) {}

  /** Who presents this Authorization header right now. */
  identify(authorization: string | undefined): Caller {
    const token = bearerToken(authorization);
    if (token === undefined || this.expired.has(token)) return "anonymous";
    const fixed = this.fixed.get(token);
    if (fixed !== undefined) return fixed;
    const expiresAt = this.issued.get(token);
    return expiresAt !== undefined && this.clock.now() < expiresAt ? "builder" : "anonymous";
  }

  /**
   * The account a Builder's Authorization header stands for: the fixed token's own name, or
   * `OAUTH_ACCOUNT` for issued tokens. Call after `identify` said "builder".
   */
  account(authorization: string | undefined): string {
    const token = bearerToken(authorization) ?? "";
    return token === BUILDER_TOKEN || token === SECOND_BUILDER_TOKEN ? token : OAUTH_ACCOUNT;
  }

  /** Issues a random Builder token; returns it with its lifetime in seconds. */
  issue(): { token: string; expiresIn: number } {
    const now = this.clock.now();
    // Drop lapsed tokens so a long-running emulator does not grow without bound.
    for (const [token, expiresAt] of this.issued) if (expiresAt <= now) this.issued.delete(token);
    const token = randomBytes(24).toString("base64url");
    this.issued.set(token, now + this.ttlSeconds * 1000);
    return { token, expiresIn: this.ttlSeconds };
  }

  /** Makes any token (issued or fixed) answer 401 from now until `reset`. */
  expire(token: string): void {
    this.expired.add(token);
  }

  /** Forgets the expiry declarations; issued tokens stay valid until they lapse. */
  reset(): void {
    this.expired.clear();
  }
}
