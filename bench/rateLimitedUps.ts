/**
 * Rate-limited "ups" in process, as the engine drives a provider process (issue 44: once in about
 * ten rate-limited `up`s, `Running program … failed with an unhandled exception`). Each up is a
 * fresh lifecycle, configured, creating a fleet at once against an instance whose token bucket is
 * below the burst of creates and which also refuses a share of the requests with 429; then the
 * fleet is destroyed. The one definition of the loop: `npm run bench -- --only ups` runs it 50
 * times or more (issue 44 item 4), test/provider/rateLimitedUps.test.ts a few times.
 */
import { performance } from "node:perf_hooks";
import type { SubscriptionInputs } from "../provider/core/inputs";
import { createProvider } from "../provider/core/lifecycle";
import { startEmulator } from "../emulator";
import type { FaultRule } from "../emulator/faults";
import { admin } from "./emulatorAdmin";
import type { Entry } from "./entry";
import { median } from "./median";

/** The token bucket the instance must run with: burst 2, below a fleet of 3 created at once. */
export const RATE_LIMITED_UPS_BUCKET = { requestsPerSecond: 100, burst: 2 } as const;
/** The share of requests refused with 429 on top of the bucket, as in the run (lower, to keep a loop short). */
export const RATE_LIMITED_UPS_FAULTS: readonly FaultRule[] = [
  { operation: "*", kind: "status", status: 429, probability: 0.2 },
];
/** Subscriptions created (then deleted) at once per up. */
export const RATE_LIMITED_UPS_FLEET = 3;

/** What a loop of rate-limited ups saw. */
export interface RateLimitedUpsResult {
  ups: number;
  fleet: number;
  /** Every create or delete that rejected, as "up 7 create 2: message". */
  failures: string[];
  /** What the provider printed on stderr (its progress lines) during the loop. */
  progressLines: string[];
  /** Wall time of each up (create and destroy of the fleet), in seconds. */
  seconds: number[];
  /** Subscriptions on the instance after the loop: a duplicate Subscribe leaves one behind. */
  leftBehind: number;
}

function subscription(up: number, n: number): SubscriptionInputs {
  return { webhook: 3, filterObjectType: 2, subscriberUrl: `https://hooks.example.com/up-${up}/${n}` };
}

function describeFailure(what: string, result: PromiseSettledResult<unknown>): string[] {
  if (result.status === "fulfilled") return [];
  const reason = result.reason as unknown;
  return [`${what}: ${reason instanceof Error ? reason.message : String(reason)}`];
}

/** The subscriptions the instance holds, read with plain HTTP (the emulator's bucket may still answer 429). */
async function subscriptionsOn(baseUrl: string): Promise<unknown[]> {
  const url = `${baseUrl}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`;
  for (;;) {
    const response = await fetch(url, { headers: { authorization: "Bearer dev-builder" } });
    if (response.status !== 429) {
      if (!response.ok) throw new Error(`GetAllWebhookSubscriptions: ${response.status} ${await response.text()}`);
      return (await response.json()) as unknown[];
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Runs `ups` rate-limited ups against the instance at `baseUrl`, which must already limit
 * (RATE_LIMITED_UPS_BUCKET) and refuse (RATE_LIMITED_UPS_FAULTS). The provider's progress lines
 * (console.error, as a provider process prints them to the engine) are collected, not printed.
 */
export async function runRateLimitedUps(baseUrl: string, ups: number): Promise<RateLimitedUpsResult> {
  const result: RateLimitedUpsResult = {
    ups,
    fleet: RATE_LIMITED_UPS_FLEET,
    failures: [],
    progressLines: [],
    seconds: [],
    leftBehind: 0,
  };
  const printed = console.error;
  // The provider writes its progress to stderr through console.error; keep it to count and check.
  console.error = (line: unknown) => void result.progressLines.push(String(line));
  try {
    for (let up = 0; up < ups; up++) {
      const started = performance.now();
      // A fresh provider process per run, as the engine starts one.
      const provider = createProvider({ env: {} });
      const config: Record<string, string> = { "webhooks:baseUrl": baseUrl, "webhooks:token": "dev-builder" };
      await provider.configure({ config: { get: (key) => config[key] } });
      const created = await Promise.allSettled(
        Array.from({ length: RATE_LIMITED_UPS_FLEET }, (_, n) => provider.create(subscription(up, n))),
      );
      result.failures.push(...created.flatMap((r, n) => describeFailure(`up ${up} create ${n}`, r)));
      const ids = created.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
      const deleted = await Promise.allSettled(ids.map((id) => provider.delete(id)));
      result.failures.push(...deleted.flatMap((r, n) => describeFailure(`up ${up} delete ${ids[n]}`, r)));
      result.seconds.push((performance.now() - started) / 1000);
    }
  } finally {
    console.error = printed;
  }
  result.leftBehind = (await subscriptionsOn(baseUrl)).length;
  return result;
}

/** bench/results.json's `rate_limited_ups`: failed operations over `ups` rate-limited ups, with what the loop saw. */
export interface RateLimitedUpsEntry extends Entry {
  /** Median wall time of one up (create and destroy of the fleet). */
  median_up_s: number;
  responses_429: number;
  progress_lines: number;
  left_behind: number;
}

/**
 * `npm run bench -- --only ups`: `ups` rate-limited ups against a fresh emulator. The loop's
 * failures are the entry's value (goal 0), each printed through `log`, so the run still writes
 * what it saw.
 */
export async function measureRateLimitedUps(ups: number, log: (line: string) => void): Promise<RateLimitedUpsEntry> {
  const emulator = await startEmulator({ port: 0, rateLimit: RATE_LIMITED_UPS_BUCKET });
  try {
    await admin(emulator.url, "PUT", "/faults", RATE_LIMITED_UPS_FAULTS);
    // An unhandled rejection ends the bench's process (Node's default), so a run that returns had none.
    const result = await runRateLimitedUps(emulator.url, ups);
    for (const failure of result.failures) log(`failed: ${failure}`);
    const stats = (await admin(emulator.url, "GET", "/stats")) as { status: Record<string, number> };
    log(
      `${ups} ups of ${result.fleet}: ${result.failures.length} failed, ${stats.status["429"] ?? 0} 429s, ` +
        `${result.progressLines.length} progress lines, ${result.leftBehind} left behind`,
    );
    return {
      value: result.failures.length,
      unit: "failed operations",
      n: ups,
      goal: "0, and no unhandled rejection, nothing left behind, a progress line per 429 retry",
      median_up_s: Number(median(result.seconds).toFixed(3)),
      responses_429: stats.status["429"] ?? 0,
      progress_lines: result.progressLines.length,
      left_behind: result.leftBehind,
    };
  } finally {
    await emulator.close();
  }
}
