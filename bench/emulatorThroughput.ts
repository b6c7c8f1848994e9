/**
 * Throughput of the emulator: GetWebhookSubscription requests per second on loopback.
 * The emulator runs in a child process (as `npm run emulator` does) so that the load generator
 * in this process does not share its event loop. Run directly: `npx tsx bench/emulatorThroughput.ts`.
 */
import { Pool } from "undici";
import { spawnEmulator } from "../emulator/spawn";

/** Load settings. */
export interface ThroughputOptions {
  /** Length of the measured window. @default 3000 */
  durationMs?: number;
  /** Concurrent keep-alive connections, each with one request in flight. @default 16 */
  connections?: number;
}

/** What one measurement found; `errors` counts non-200 answers and failed requests. */
export interface ThroughputResult {
  requestsPerSecond: number;
  requests: number;
  errors: number;
}

const HEADERS = { authorization: "Bearer dev-builder" };
/** Unmeasured load first, so JIT warm-up and connection setup do not count. */
const WARM_UP_MS = 500;

/** Creates the subscription the benchmark reads; returns its GUID. */
async function createSubscription(pool: Pool): Promise<string> {
  const response = await pool.request({
    method: "POST",
    path: "/configuration/WebHookSubscription/SubscribeToWebhook?api-version=3",
    headers: { ...HEADERS, "content-type": "application/json" },
    body: JSON.stringify({ Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://hooks.example.com/bench" }),
  });
  const body = (await response.body.json()) as { Result?: { GUID?: string } };
  const guid = body.Result?.GUID;
  if (response.statusCode !== 200 || guid === undefined)
    throw new Error(`could not create the benchmark subscription: ${response.statusCode}`);
  return guid;
}

/** Keeps `connections` requests in flight until `until`; counts answers. */
async function load(
  pool: Pool,
  path: string,
  connections: number,
  until: number,
): Promise<{ requests: number; errors: number }> {
  const counts = { requests: 0, errors: 0 };
  const worker = async () => {
    while (performance.now() < until) {
      try {
        const response = await pool.request({ method: "GET", path, headers: HEADERS });
        await response.body.dump();
        if (response.statusCode === 200) counts.requests++;
        else counts.errors++;
      } catch {
        counts.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return counts;
}

/** Starts an emulator process, loads it with GetWebhookSubscription for `durationMs`, stops it. */
export async function measureEmulatorThroughput(opts: ThroughputOptions = {}): Promise<ThroughputResult> {
  const durationMs = opts.durationMs ?? 3000;
  const connections = opts.connections ?? 16;
  const emulator = await spawnEmulator(["--port", "0"]);
  const pool = new Pool(emulator.url, { connections });
  try {
    const guid = await createSubscription(pool);
    const path = `/configuration/WebHookSubscription/GetWebhookSubscription?api-version=3&webhookSubscriptionGUID=${guid}`;
    await load(pool, path, connections, performance.now() + WARM_UP_MS);
    const started = performance.now();
    const { requests, errors } = await load(pool, path, connections, started + durationMs);
    const elapsedSeconds = (performance.now() - started) / 1000;
    return { requestsPerSecond: Math.round(requests / elapsedSeconds), requests, errors };
  } finally {
    await pool.close();
    await emulator.stop();
  }
}

if (require.main === module) {
  measureEmulatorThroughput().then(
    (result) =>
      console.log(
        `emulator: ${result.requestsPerSecond} GetWebhookSubscription requests/s (${result.requests} requests, ${result.errors} errors)`,
      ),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
