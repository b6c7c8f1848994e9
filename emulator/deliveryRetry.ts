/**
 * Retrying failed deliveries, as the vendor's troubleshooting page says the service does ("will
 * retry failed messages 3 times"). Every attempt sends the same message, so a receiver that
 * answered slowly or lost its answer sees the message more than once: receivers must drop
 * repeats (provider/receiver's `RepeatFilter`). The backoff is ours (not documented).
 */
import type { DeliveryResult } from "./delivery";

/** Wait before retry n (1-based): 1 s, 2 s, 4 s, … */
export function deliveryBackoffMs(retry: number): number {
  return 1000 * 2 ** (retry - 1);
}

/** A failure worth another attempt: the receiver answered non-2xx or did not answer. Refusals of the emulator itself are final. */
function shouldRetry(result: DeliveryResult): boolean {
  if (result.status !== null) return result.status < 200 || result.status >= 300;
  return !(result.error ?? "").startsWith("not delivered");
}

/**
 * Runs `attempt` until it succeeds or `retries` more attempts have failed, waiting with `sleep`
 * between them; returns the last result and how many attempts were made.
 */
export async function withRetries(
  attempt: () => Promise<DeliveryResult>,
  retries: number,
  sleep: (ms: number) => Promise<void>,
): Promise<DeliveryResult & { attempts: number }> {
  for (let attempts = 1; ; attempts++) {
    const result = await attempt();
    if (attempts > retries || !shouldRetry(result)) return { ...result, attempts };
    await sleep(deliveryBackoffMs(attempts));
  }
}
