/**
 * Listing an instance's subscriptions without their secrets: the lookup behind both front doors'
 * `listWebhookSubscriptions` (the program function of ../dynamic/list.ts and the native plugin's).
 */
import { WebhookSubscriptionClient } from "../client";
import type { Subscription } from "../wire";
import { clientSettings, readSettings, type ConfigSource } from "./settings";

/** A listed subscription, without its secrets (Signature, custom header value). */
export type ListedSubscription = Omit<Subscription, "signature" | "customHeaderValue">;

/**
 * Lists the subscriptions of the instance that `source` configures, without their secrets.
 * @param env where the default provider's `WEBHOOKS_*` and a Provider's `tokenFromEnv` are read.
 * @param signal aborting it ends the list's waits (rate limiter, backoff) at once with `StoppedError`,
 *   e.g. on Terraform's StopProvider: this client is the lookup's own, not the session's.
 */
export async function listSubscriptions(
  source: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
  signal?: AbortSignal,
): Promise<ListedSubscription[]> {
  const client = new WebhookSubscriptionClient({
    ...clientSettings(readSettings(source, env).connection),
    ...(signal ? { signal } : {}),
  });
  try {
    return (await client.list()).map(({ signature: _s, customHeaderValue: _v, ...listed }) => listed);
  } finally {
    await client.close();
  }
}
