/**
 * Progress of an operation that waits on the instance's rate limit. A call that meets 429s backs
 * off and tries again, for up to the retry deadline (two minutes by default); without a line,
 * people see a resource "creating" for minutes and cannot tell a rate limit from a hang.
 *
 * The client reports each attempt (its `onRequest` hook); the core words a 429 that is followed
 * by another attempt and hands the line to a sink: stderr by default (which the engine shows for
 * the dynamic provider), the engine's Log service on the resource's URN for the native plugin
 * (../native/engineLog.ts). Lines name the subscription they are about (`about`), since the
 * dynamic-provider host does not tell the provider which resource a call is for.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { RequestEvent } from "../client";

/** What the lifecycle operation running in this async context is about, e.g. `PacketCreated → https://…`. */
const subjects = new AsyncLocalStorage<string>();

/** Where progress lines go: stderr, unless a front door routes them elsewhere (`routeProgress`). */
let sink: (line: string) => void = (line) => console.error(line);

/** Sends every later progress line to `to` instead of stderr. */
export function routeProgress(to: (line: string) => void): void {
  sink = to;
}

/** Runs `operation` with `subject` as what its progress lines name. */
export function about<T>(subject: string, operation: () => Promise<T>): Promise<T> {
  return subjects.run(subject, operation);
}

/** What a rate-limited attempt's line says. */
export interface RateLimitedAttempt {
  /** 1 for the first attempt of the call. */
  readonly attempt: number;
  /** Backoff before the next attempt. */
  readonly retryInMs: number;
  /** When the call gives up if nothing of this process gets through meanwhile. */
  readonly givesUpAt: Date;
}

/**
 * `rate limited (429): attempt 4, next in 2.1 s, giving up at 14:32:10`, the time in the
 * provider's local time zone (the one people's terminal shows) unless `timeZone` is given.
 */
export function rateLimitedLine(attempt: RateLimitedAttempt, timeZone?: string): string {
  const clock = attempt.givesUpAt.toLocaleTimeString("en-GB", { hour12: false, ...(timeZone ? { timeZone } : {}) });
  return (
    `rate limited (429): attempt ${attempt.attempt}, next in ${(attempt.retryInMs / 1000).toFixed(1)} s, ` +
    `giving up at ${clock}`
  );
}

/**
 * The client's `onRequest` hook of a provider session: says so when a call was refused with 429
 * and is about to try again. Other attempts are quiet (a 5xx retry is rare and short).
 * @param now the wall clock, injectable for tests.
 */
export function reportRateLimited(event: RequestEvent, now: () => number = Date.now): void {
  if (event.status !== 429 || event.retryInMs === undefined || event.givesUpInMs === undefined) return;
  const subject = subjects.getStore();
  const line = rateLimitedLine({
    attempt: event.attempt,
    retryInMs: event.retryInMs,
    givesUpAt: new Date(now() + event.givesUpInMs),
  });
  sink(subject === undefined ? line : `${subject}: ${line}`);
}
