/**
 * What the server keeps around each call (server.ts): the URN of the resource it is about, which
 * the lifecycle's warnings are attached to, and the warnings still being sent, which its response
 * waits for (engineLog.ts sends them). Node.js built-ins only: the server loads this at start.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The URN of the resource the current request is about (set by the server around each call). */
export const requestUrn = new AsyncLocalStorage<string>();

/** Log calls not yet answered: a response waits for them, so its warnings come first. */
const pending = new Set<Promise<void>>();

/** Records a warning being sent, until it has reached the engine (or failed to). */
export function sending(sent: Promise<void>): void {
  pending.add(sent);
  void sent.finally(() => pending.delete(sent));
}

/** Resolves once every warning sent so far has reached the engine (or failed to). */
export async function warningsSent(): Promise<void> {
  await Promise.all(pending);
}
