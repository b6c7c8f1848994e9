/**
 * Dropping repeated messages. The service may deliver one message more than once: failed
 * deliveries are retried 3 times with the same message, and the vendor's troubleshooting page
 * says duplicate events can occur. A receiver that must act once per message remembers the
 * keys it has seen, for a bounded time and a bounded number of keys, and skips repeats.
 * Node built-ins only (`node:crypto`).
 */
import { createHash } from "node:crypto";

/** Options of `RepeatFilter`. */
export interface RepeatFilterOptions {
  /**
   * How long a key is remembered. Retries of a failed delivery arrive within seconds (the
   * emulator's backoff totals 7 s); keep this well above the service's retry window.
   * @default 600_000 (10 minutes)
   */
  readonly ttlMs?: number;
  /** The most keys remembered at once; the oldest are forgotten first. @default 10_000 */
  readonly maxEntries?: number;
  /** The clock, in ms; injectable for tests. @default Date.now */
  readonly now?: () => number;
}

/** Bad `RepeatFilter` options; the message names the option and shows the value. */
export class RepeatFilterOptionsError extends Error {
  override readonly name = "RepeatFilterOptionsError";
}

function positive(option: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new RepeatFilterOptionsError(`${option} must be a positive number, got ${String(value)}`);
  return value;
}

/**
 * Remembers message keys and says whether a key is new. Memory is bounded by `maxEntries`;
 * keys older than `ttlMs` are forgotten.
 *
 * @example
 * const repeats = new RepeatFilter();
 * if (!repeats.firstSeen(messageKey(rawBody))) return reply(200); // a repeat: acknowledge, do nothing
 */
export class RepeatFilter {
  /** Key → when it was first seen. A Map iterates in insertion order, so the oldest come first. */
  private readonly seen = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: RepeatFilterOptions = {}) {
    this.ttlMs = positive("ttlMs", options.ttlMs ?? 600_000);
    this.maxEntries = Math.floor(positive("maxEntries", options.maxEntries ?? 10_000));
    this.now = options.now ?? Date.now;
  }

  /**
   * True the first time `key` is seen (and remembers it); false for a repeat within `ttlMs`.
   * Answer a repeat with 2xx anyway, or the service retries it.
   */
  firstSeen(key: string): boolean {
    const now = this.now();
    this.forgetOlderThan(now - this.ttlMs);
    if (this.seen.has(key)) return false;
    this.seen.set(key, now);
    while (this.seen.size > this.maxEntries) this.seen.delete(this.seen.keys().next().value as string);
    return true;
  }

  /** How many keys are remembered now. */
  get size(): number {
    return this.seen.size;
  }

  private forgetOlderThan(limit: number): void {
    for (const [key, at] of this.seen) {
      if (at > limit) return;
      this.seen.delete(key);
    }
  }
}

/**
 * The key of a delivered message. The emulator's messages carry `SubscriptionGUID` and
 * `EventGUID` (the same for every attempt): the key is made of those. The service's own bodies
 * differ per webhook and carry no documented message identifier, so for any other body the key
 * is the SHA-256 of the raw body: a retry sends the same message, so the same bytes.
 *
 * @param rawBody the body exactly as received (before any parsing).
 */
export function messageKey(rawBody: string | Uint8Array): string {
  const text = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8");
  const ids = eventIdentity(text);
  if (ids !== undefined) return `event:${ids.subscription}:${ids.event}`;
  return `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}

function eventIdentity(text: string): { subscription: string; event: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { SubscriptionGUID, EventGUID } = json as Record<string, unknown>;
  if (typeof SubscriptionGUID !== "string" || typeof EventGUID !== "string") return undefined;
  return { subscription: SubscriptionGUID.toLowerCase(), event: EventGUID.toLowerCase() };
}
