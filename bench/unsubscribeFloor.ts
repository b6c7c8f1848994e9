/**
 * What a destroy of N subscriptions costs whoever makes it: N Unsubscribe round trips to the
 * service, which the no-op floor's destroy does not make. bench/cycle.ts adds them to the floor's
 * destroy, so that the front doors' destroy is compared with the engine's work plus the API's
 * (bench/rawRoundTrips.ts: how a raw round trip is made and timed).
 */
import { rawRoundTripSeconds } from "./rawRoundTrips";

/** Seconds that `n` raw Unsubscribe round trips take against the instance at `url`. */
export function rawUnsubscribeSeconds(url: string, n: number): Promise<number> {
  return rawRoundTripSeconds(url, n, "Unsubscribe");
}
