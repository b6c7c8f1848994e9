/**
 * What a destroy of N subscriptions costs whoever makes it: N Unsubscribe round trips to the
 * service, which the no-op floor's destroy does not make. bench/cycle.ts adds them to the floor's
 * destroy, so that the front doors' destroy is compared with the engine's work plus the API's.
 * N subscriptions are made first (not timed), then N raw Unsubscribe POSTs are timed: undici with
 * the client's Agent settings, the answer's status checked and its body read — what any caller
 * must do — `CONCURRENCY` at a time, as a parallel destroy sends them.
 */
import { Agent } from "undici";
import { WebhookSubscriptionClient } from "../provider/client";
import { AGENT_OPTIONS } from "../provider/client/connection";
import { CONFIGURATION_PATH, Webhook } from "../provider/wire";

/** Unsubscribes in flight at once. */
const CONCURRENCY = 16;

/** Seconds that `n` raw Unsubscribe round trips take against the instance at `url`. */
export async function rawUnsubscribeSeconds(url: string, n: number): Promise<number> {
  const client = new WebhookSubscriptionClient({ baseUrl: url, token: "dev-builder" });
  const raw = new Agent(AGENT_OPTIONS);
  try {
    const guids: string[] = [];
    for (let i = 0; i < n; i++)
      guids.push(
        (
          await client.subscribe({
            webhook: Webhook.BusinessObjectCreated,
            filterObjectType: 2,
            subscriberUrl: `https://hooks.example.com/unsubscribe-floor/${i}`,
          })
        ).guid,
      );
    const origin = new URL(url).origin;
    const basePath = new URL(url).pathname.replace(/\/$/, "");
    const unsubscribe = async (guid: string) => {
      const response = await raw.request({
        origin,
        path: `${basePath}${CONFIGURATION_PATH}/Unsubscribe?webHookSubscriptionGUID=${guid}&api-version=3`,
        method: "POST",
        headers: { authorization: "Bearer dev-builder" },
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`raw Unsubscribe answered ${response.statusCode}`);
    };
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
        while (next < guids.length) await unsubscribe(guids[next++]!);
      }),
    );
    return (performance.now() - started) / 1000;
  } finally {
    await client.close();
    await raw.close();
  }
}
