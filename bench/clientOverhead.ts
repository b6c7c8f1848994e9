/**
 * Client overhead per call: `client.get(guid)` against a raw undici request to the same
 * emulator endpoint, over keep-alive Agents with the same settings, measured side by side in
 * one run: many short rounds, each an A batch and a B batch back to back (the order
 * alternating, so neither side always follows the other's garbage), and medians. Batches
 * are short (a few milliseconds) so that bursts of load from other processes on a shared
 * machine hit both sides alike, yet long enough to include the client's garbage collection.
 *
 * Run alone: `npx tsx bench/clientOverhead.ts`.
 */
import { Agent } from "undici";
import { startEmulator } from "../emulator";
import { WebhookSubscriptionClient } from "../provider/client";
import { AGENT_OPTIONS } from "../provider/client/connection";
import { CONFIGURATION_PATH, Webhook } from "../provider/wire";

/** Result of one measurement; `ratio` is client time per call over raw time per call. */
export interface ClientOverhead {
  ratio: number;
  clientMsPerCall: number;
  rawMsPerCall: number;
  /** Calls measured per side. */
  n: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds per call of `call`, run `iterations` times one after another. */
async function msPerCall(iterations: number, call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await call();
  return (performance.now() - started) / iterations;
}

/**
 * Measures the client's overhead over raw undici on GetWebhookSubscription.
 *
 * @param opts.iterations calls per side per round. @default 20
 * @param opts.rounds A/B rounds. `ratio` is the median of the rounds' client/raw ratios; the
 *   per-call times are the medians of each side's rounds. @default 201
 */
export async function measureClientOverhead(
  opts: { iterations?: number; rounds?: number } = {},
): Promise<ClientOverhead> {
  const iterations = opts.iterations ?? 20;
  const rounds = opts.rounds ?? 201;
  const emulator = await startEmulator({ port: 0 });
  const client = new WebhookSubscriptionClient({ baseUrl: emulator.url, token: "dev-builder" });
  const raw = new Agent(AGENT_OPTIONS);
  try {
    const { guid } = await client.subscribe({
      webhook: Webhook.BusinessObjectCreated,
      filterObjectType: 2,
      subscriberUrl: "https://hooks.example.com/bench",
    });
    const origin = new URL(emulator.url).origin;
    const path = `${CONFIGURATION_PATH}/GetWebhookSubscription?webhookSubscriptionGUID=${guid}&api-version=3`;
    // The baseline does what any caller must: send, check the status, read and parse the body.
    const rawGet = async () => {
      const response = await raw.request({
        origin,
        path,
        method: "GET",
        headers: { authorization: "Bearer dev-builder" },
      });
      const body: unknown = await response.body.json();
      if (response.statusCode !== 200) throw new Error(`raw GET answered ${response.statusCode}`);
      return body;
    };
    const clientGet = () => client.get(guid);

    // Warm up both paths (JIT, connections) before anything is timed.
    for (let i = 0; i < 10; i++) {
      await msPerCall(100, clientGet);
      await msPerCall(100, rawGet);
    }

    const clientRounds: number[] = [];
    const rawRounds: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const clientFirst = round % 2 === 0;
      const first = await msPerCall(iterations, clientFirst ? clientGet : rawGet);
      const second = await msPerCall(iterations, clientFirst ? rawGet : clientGet);
      const [clientMs, rawMs] = clientFirst ? [first, second] : [second, first];
      clientRounds.push(clientMs);
      rawRounds.push(rawMs);
      ratios.push(clientMs / rawMs);
    }
    return {
      ratio: median(ratios),
      clientMsPerCall: median(clientRounds),
      rawMsPerCall: median(rawRounds),
      n: iterations * rounds,
    };
  } finally {
    await client.close();
    await raw.close();
    await emulator.close();
  }
}

if (require.main === module) {
  measureClientOverhead().then(
    (result) => {
      console.log(
        `client_overhead_vs_raw_undici: ratio ${result.ratio.toFixed(3)} ` +
          `(client ${result.clientMsPerCall.toFixed(3)} ms/call, raw ${result.rawMsPerCall.toFixed(3)} ms/call, n=${result.n})`,
      );
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
