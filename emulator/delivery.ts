/**
 * Sending one webhook message by HTTP POST. The emulator runs on developer and test machines,
 * so it only ever sends to loopback addresses: a SubscriberURL elsewhere is reported as not
 * delivered. The check is made twice: on the URL's host, and again on every address a host
 * name resolves to (so `localhost` mapped elsewhere, or a redirect, cannot leak traffic —
 * redirects are not followed at all). Nor does it ever send to its own listener (any loopback
 * address on its own port): a subscription aimed at `…/_emulator/reset` must not wipe it.
 */
import { lookup } from "node:dns";
import type { LookupFunction } from "node:net";
import { request, type Dispatcher } from "undici";

/** The error reported for a SubscriberURL whose host is not loopback. */
export const NOT_LOOPBACK_ERROR = "not delivered: the emulator only delivers to loopback addresses";

/** The error reported for a SubscriberURL that points at the emulator itself. */
export const OWN_LISTENER_ERROR = "not delivered: the SubscriberURL points at the emulator's own port";

/** Result of one delivery: the subscriber's status, or why there is none. */
export interface DeliveryResult {
  status: number | null;
  error: string | null;
}

/** True for a resolved IP address in 127.0.0.0/8 or ::1. */
export function isLoopbackAddress(address: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === "::1";
}

/**
 * True for a URL host (as `URL.hostname` spells it, IPv6 in brackets) that is loopback:
 * `localhost`, 127.0.0.0/8 or `[::1]`. Anything else, IPv4-mapped IPv6 included, is refused.
 */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || isLoopbackAddress(host);
}

/** A DNS lookup for the delivery agent that only ever yields loopback addresses. */
export const loopbackOnlyLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const allowed = addresses.filter((entry) => isLoopbackAddress(entry.address));
    const first = allowed[0];
    if (first === undefined) {
      const refused: NodeJS.ErrnoException = new Error(
        `${hostname} does not resolve to a loopback address; ${NOT_LOOPBACK_ERROR}`,
      );
      refused.code = "ENOTLOOPBACK";
      return callback(refused, []);
    }
    if (options.all) callback(null, allowed);
    else callback(null, first.address, first.family);
  });
};

/** The TCP port a URL connects to, its scheme's default when it names none. */
function portOf(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * POSTs `body` to `target` with `headers`; never throws, the outcome is in the result.
 *
 * @param ownPort the emulator's own port, never a target (null before it listens).
 */
export async function deliver(
  target: string,
  headers: Record<string, string>,
  body: string,
  dispatcher: Dispatcher,
  timeoutMs: number,
  ownPort: number | null = null,
): Promise<DeliveryResult> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { status: null, error: `not delivered: ${JSON.stringify(target)} is not a URL` };
  }
  if (!isLoopbackHostname(url.hostname)) return { status: null, error: NOT_LOOPBACK_ERROR };
  if (ownPort !== null && portOf(url) === ownPort) return { status: null, error: OWN_LISTENER_ERROR };
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await request(url, { method: "POST", headers, body, dispatcher, signal });
    // Read the answer to the end so the connection can be reused.
    await response.body.dump();
    return { status: response.statusCode, error: null };
  } catch (error) {
    return { status: null, error: signal.aborted ? `timed out after ${timeoutMs} ms` : (error as Error).message };
  }
}
