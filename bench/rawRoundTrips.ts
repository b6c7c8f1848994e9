/**
 * What N subscriptions cost whoever manages them, with no provider at all: N raw round trips of one
 * operation to the service — Subscribe for a create, GetWebhookSubscription for a refresh,
 * Unsubscribe for a destroy. The front doors' runs are compared with their engine's (or the Go
 * anchor's) run plus these. Each round trip is what any caller must do: undici with the client's
 * Agent settings, the answer's status checked and its body read, `CONCURRENCY` in flight at once,
 * as a parallel run sends them. Subscriptions a Get or an Unsubscribe needs are made first, untimed.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { Agent } from "undici";
import { WebhookSubscriptionClient } from "../provider/client";
import { AGENT_OPTIONS } from "../provider/client/connection";
import { CONFIGURATION_PATH, encodeSubscribe, Webhook, type SubscriptionSpec } from "../provider/wire";

const execFileAsync = promisify(execFile);

/** Round trips in flight at once. */
const CONCURRENCY = 16;

/** The operations a floor is made of. */
export type RawOperation = "SubscribeToWebhook" | "GetWebhookSubscription" | "Unsubscribe";

const spec = (i: number): SubscriptionSpec => ({
  webhook: Webhook.BusinessObjectCreated,
  filterObjectType: 2,
  subscriberUrl: `https://hooks.example.com/raw-floor/${i}`,
});

/** The request of one round trip of `operation` on subscription `i` (`guid`, made first, for Get and Unsubscribe). */
function request(operation: RawOperation, i: number, guid: string | undefined) {
  switch (operation) {
    case "SubscribeToWebhook":
      return {
        method: "POST" as const,
        query: "",
        body: JSON.stringify(encodeSubscribe(spec(i))),
      };
    case "GetWebhookSubscription":
      return { method: "GET" as const, query: `webhookSubscriptionGUID=${guid}&` };
    case "Unsubscribe":
      return { method: "POST" as const, query: `webHookSubscriptionGUID=${guid}&` };
  }
}

/** Wall and CPU seconds of the round trips alone (the subscriptions they need are made first, untimed). */
export interface RawCost {
  readonly wall: number;
  readonly cpu: number;
}

/**
 * `n` raw round trips of each of `operations` in turn, on the same `n` subscriptions, made first
 * and untimed (a Subscribe makes its own, so it comes alone): e.g. a Get then an Unsubscribe of
 * each, as a destroy that refreshes first must. The CPU is this process's, so run it where nothing else runs
 * (rawRoundTripCost) for it to be the caller's alone.
 */
export async function timeRawRoundTrips(url: string, n: number, operations: readonly RawOperation[]): Promise<RawCost> {
  if (operations.includes("SubscribeToWebhook") && operations.length > 1)
    throw new Error("timeRawRoundTrips: a Subscribe makes the subscriptions, so it comes alone");
  const client = new WebhookSubscriptionClient({ baseUrl: url, token: "dev-builder" });
  const raw = new Agent(AGENT_OPTIONS);
  try {
    const guids: (string | undefined)[] = [];
    for (let i = 0; i < n; i++)
      guids.push(operations[0] === "SubscribeToWebhook" ? undefined : (await client.subscribe(spec(i))).guid);
    const origin = new URL(url).origin;
    const basePath = new URL(url).pathname.replace(/\/$/, "");
    const roundTrip = async (operation: RawOperation, i: number) => {
      const { method, query, body } = { body: undefined, ...request(operation, i, guids[i]) };
      const response = await raw.request({
        origin,
        path: `${basePath}${CONFIGURATION_PATH}/${operation}?${query}api-version=3`,
        method,
        headers: {
          authorization: "Bearer dev-builder",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`raw ${operation} answered ${response.statusCode}`);
    };
    // One untimed round trip of each operation first, on one more subscription: undici's parser and
    // the first compilations are a start-up cost, which the timed round trips must not carry.
    if (operations[0] !== "SubscribeToWebhook") guids.push((await client.subscribe(spec(n))).guid);
    for (const operation of operations) await roundTrip(operation, n);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    for (const operation of operations) {
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, n) }, async () => {
          while (next < n) await roundTrip(operation, next++);
        }),
      );
    }
    const cpu = process.cpuUsage(cpuBefore);
    return { wall: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await client.close();
    await raw.close();
  }
}

/** Seconds that `n` raw round trips of `operation` take against the instance at `url` (in this process). */
export async function rawRoundTripSeconds(url: string, n: number, operation: RawOperation): Promise<number> {
  return (await timeRawRoundTrips(url, n, [operation])).wall;
}

/**
 * The round trips of timeRawRoundTrips in a process of their own (bench/rawRoundTripsChild.ts), so
 * that their CPU is the caller's alone: in the bench's process it would include the emulator's.
 */
export async function rawRoundTripCost(url: string, n: number, operations: readonly RawOperation[]): Promise<RawCost> {
  const child = join(__dirname, "rawRoundTripsChild.ts");
  const { stdout } = await execFileAsync(
    process.execPath,
    [require.resolve("tsx/cli"), child, url, String(n), ...operations],
    { maxBuffer: 2 ** 20 },
  );
  return JSON.parse(stdout) as RawCost;
}
