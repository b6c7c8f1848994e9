/**
 * Comparing a received secret with the accepted ones without leaking, through timing, how
 * much of it was right.
 */
import { timingSafeEqual } from "node:crypto";

/**
 * True when `received` equals one of `accepted`. Lengths are compared first because
 * `timingSafeEqual` throws on buffers of different lengths; a length is not the secret.
 * Every accepted value is compared, so the time taken does not tell which one matched.
 */
export function matchesAny(received: string, accepted: readonly string[]): boolean {
  const receivedBytes = Buffer.from(received, "utf8");
  let matched = false;
  for (const candidate of accepted) {
    const candidateBytes = Buffer.from(candidate, "utf8");
    const equal = candidateBytes.length === receivedBytes.length && timingSafeEqual(candidateBytes, receivedBytes);
    matched = equal || matched;
  }
  return matched;
}
