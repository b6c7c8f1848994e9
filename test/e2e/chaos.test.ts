/**
 * Chaos: a fleet of 100 subscriptions created, checked, updated and destroyed on the real engine
 * while the emulator injects faults into at least a fifth of the requests — 429 bursts (a rate
 * limit and a burst rule), 503s, connection resets before and after the commit of Subscribe and
 * Update (and of the idempotent operations), 2 s delays, and the OAuth token expiring mid-run.
 * After every pass the service must hold exactly what the state records: no duplicate, no orphan,
 * no field astray.
 *
 * Seeds: CHAOS_SEEDS="1,2,3" (default "1": a second seed cost a cold CI run 85 s, and every pass
 * of one already draws every kind of fault). A seed makes the fault draws repeatable; the order of
 * concurrent requests is not, so a seed reproduces the mix of faults, not every interleaving. The
 * seed is in every test name.
 */
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import { openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import { compareFleet, describeComparison, fleet, fleetProgram } from "../support/fleet";
import { startTokenProxy, type TokenProxy } from "../support/tokenProxy";

const COUNT = 100;
const SEEDS = (process.env.CHAOS_SEEDS ?? "1").split(",").map((s) => Number(s.trim()));
/** Token lifetime: the client renews it before expiry at least once per pass. */
const TOKEN_TTL_SECONDS = 10;

/** Emulator counters (`GET /_emulator/stats`). */
interface Stats {
  requests: Record<string, number>;
  status: Record<string, number>;
  faults: Record<string, number>;
}

/**
 * The faults of one pass; rules are tried in order, first match wins. With the rate limit below
 * they hit a quarter to a third of the requests. Hard failures of the reads (resets, 503s) stay
 * near 7%: the client gives such a call 4 attempts, so one in about 50 000 calls fails for good,
 * and a run stays green. Subscribe and Update are reconciled up to 5 times. 429s and delays,
 * which the client rides out without spending attempts, make up the rest.
 */
function faultPlan(seed: number): unknown {
  const p = (probability: number) => ({ probability });
  return {
    seed,
    rules: [
      { operation: "SubscribeToWebhook", kind: "reset-before-commit", ...p(0.06) },
      { operation: "SubscribeToWebhook", kind: "reset-after-commit", ...p(0.07) },
      { operation: "UpdateWebhookSubscription", kind: "reset-before-commit", ...p(0.06) },
      { operation: "UpdateWebhookSubscription", kind: "reset-after-commit", ...p(0.07) },
      { operation: "Unsubscribe", kind: "reset-after-commit", ...p(0.03) },
      { operation: "GetAllWebhookSubscriptions", kind: "reset-before-commit", ...p(0.03) },
      { operation: "*", kind: "status", status: 429, ...p(0.09) },
      { operation: "*", kind: "status", status: 503, body: "Service Unavailable", ...p(0.04) },
      { operation: "*", kind: "delay", delayMs: 2000, ...p(0.07) },
    ],
  };
}

/**
 * The destroy pass: about 40% of the Unsubscribe requests drawn for a fault (resets before and
 * after the commit, 503s, 429s, delays; first match wins), so that at least 30% are faulted. Unsubscribe is idempotent and retried until the deadline, so one
 * `destroy` must still finish; with a fixed 4 attempts, (0.3)^4 per call made a fleet of 100
 * fail about half the time.
 */
function destroyFaultPlan(seed: number): unknown {
  const p = (probability: number) => ({ probability });
  return {
    seed,
    rules: [
      { operation: "Unsubscribe", kind: "reset-after-commit", ...p(0.15) },
      { operation: "Unsubscribe", kind: "reset-before-commit", ...p(0.1) },
      { operation: "Unsubscribe", kind: "status", status: 503, body: "Service Unavailable", ...p(0.12) },
      { operation: "Unsubscribe", kind: "status", status: 429, ...p(0.1) },
      { operation: "Unsubscribe", kind: "delay", delayMs: 2000, ...p(0.03) },
    ],
  };
}

/**
 * 15 requests/s in bursts of 5: the engine's first wave of concurrent requests meets a burst of
 * 429s, and the client's adaptive limiter has to find the rate.
 */
const RATE_LIMIT = { requestsPerSecond: 15, burst: 5 };

function sum(counters: Record<string, number>): number {
  return Object.values(counters).reduce((a, b) => a + b, 0);
}

/** `after − before`, counter by counter. */
function delta(before: Stats, after: Stats): Stats {
  const minus = (a: Record<string, number>, b: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(a)
        .map(([k, v]) => [k, v - (b[k] ?? 0)])
        .filter(([, v]) => v !== 0),
    );
  return {
    requests: minus(after.requests, before.requests),
    status: minus(after.status, before.status),
    faults: minus(after.faults, before.faults),
  };
}

/**
 * Faults of a pass by kind. 429s come from the rate limit and the burst rule, 503s only from the
 * plan, 401s only from expired tokens (forced statuses are counted under their code).
 */
function injected(d: Stats): Record<string, number> {
  return {
    "429": d.status["429"] ?? 0,
    "503": d.status["503"] ?? 0,
    "reset-before-commit": d.faults["reset-before-commit"] ?? 0,
    "reset-after-commit": d.faults["reset-after-commit"] ?? 0,
    delay: d.faults.delay ?? 0,
    "401 (token expired)": d.status["401"] ?? 0,
  };
}

/** Totals of every pass of every seed, printed at the end. */
const totals: { requests: number; faults: Record<string, number>; operations: Record<string, number> } = {
  requests: 0,
  faults: {},
  operations: {},
};

for (const seed of SEEDS) {
  describe(`chaos (seed ${seed})`, () => {
    let emulator: EmulatorHarness;
    let proxy: TokenProxy;
    let stack: Stack;
    let desired: Record<string, WebhookSubscriptionArgs> = fleet(COUNT);
    const seedFaults: Record<string, number> = {};
    let seedRequests = 0;

    beforeAll(async () => {
      emulator = await EmulatorHarness.start({ tokenTtlSeconds: TOKEN_TTL_SECONDS });
      proxy = await startTokenProxy(emulator.url);
      const dir = workDir(`chaos-${seed}`);
      stack = await openStack({
        engine: requireEngine(),
        backendDir: join(dir, "state"),
        stackName: `chaos-${seed}`,
        workDir: dir,
        projectName: "chaos",
        program: fleetProgram(() => desired),
        config: {
          "webhooks:baseUrl": { value: emulator.url },
          "webhooks:clientId": { value: "dev-client" },
          "webhooks:clientSecret": { value: "dev-secret", secret: true },
          "webhooks:tokenUrl": { value: proxy.tokenUrl },
        },
      });
    });
    afterAll(async () => {
      await proxy?.close();
      await emulator?.close();
      const injectedTotal = sum(seedFaults);
      console.log(
        `[chaos] seed ${seed}: ${seedRequests} API requests, ${injectedTotal} faults injected (${((100 * injectedTotal) / Math.max(1, seedRequests)).toFixed(1)}%) — ` +
          Object.entries(seedFaults)
            .map(([k, v]) => `${k} ${v}`)
            .join(", ") +
          `; OAuth tokens issued ${proxy?.issued.length ?? 0}`,
      );
    });

    async function stats(): Promise<Stats> {
      return (await emulator.admin("GET", "/stats")).json as Stats;
    }

    /**
     * Runs one engine operation under faults, expiring every OAuth token issued so far once
     * `expireAfter` API requests of the pass have been seen, and returns what the pass cost.
     */
    async function underFaults<T>(
      pass: string,
      passIndex: number,
      expireAfter: number | null,
      run: () => Promise<T>,
      plan: (seed: number) => unknown = faultPlan,
    ): Promise<{ result: T; stats: Stats; faults: Record<string, number> }> {
      expect((await emulator.admin("PUT", "/faults", plan(seed * 100 + passIndex))).status).toBe(200);
      expect((await emulator.admin("PUT", "/rate-limit", RATE_LIMIT)).status).toBe(200);
      const before = await stats();
      const started = Date.now();
      let expired = 0;
      let done = false;
      const watcher = (async () => {
        // Bounded: the engine operation ends within the test timeout, and so does this loop.
        for (let i = 0; i < 3000 && !done && expireAfter !== null && expired === 0; i++) {
          const seen = sum(delta(before, await stats()).requests);
          if (seen >= expireAfter && proxy.issued.length > 0) {
            for (const token of [...proxy.issued])
              await emulator.admin("POST", `/tokens/${encodeURIComponent(token)}/expire`);
            expired = proxy.issued.length;
          } else await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      let result: T;
      try {
        result = await run();
      } finally {
        done = true;
        await watcher;
        await emulator.admin("DELETE", "/faults");
        await emulator.admin("PUT", "/rate-limit", null);
      }
      const d = delta(before, await stats());
      const faults = injected(d);
      const requests = sum(d.requests);
      for (const [kind, n] of Object.entries(faults)) {
        seedFaults[kind] = (seedFaults[kind] ?? 0) + n;
        totals.faults[kind] = (totals.faults[kind] ?? 0) + n;
      }
      for (const [op, n] of Object.entries(d.requests)) totals.operations[op] = (totals.operations[op] ?? 0) + n;
      seedRequests += requests;
      totals.requests += requests;
      console.log(
        `[chaos] seed ${seed} ${pass}: ${((Date.now() - started) / 1000).toFixed(1)}s, requests ${JSON.stringify(d.requests)}, ` +
          `faults ${JSON.stringify(faults)} = ${sum(faults)}/${requests}, tokens expired mid-run ${expired}`,
      );
      return { result, stats: d, faults };
    }

    async function expectServiceEqualsState(): Promise<void> {
      const comparison = await compareFleet(stack, await emulator.all(), desired);
      console.log(`[chaos] seed ${seed}: ${describeComparison(comparison)}`);
      expect(comparison).toMatchObject({
        live: COUNT,
        managed: COUNT,
        duplicates: [],
        orphans: [],
        missing: [],
        mismatches: [],
      });
    }

    it(`creates ${COUNT} subscriptions under faults, then the service equals the state (seed ${seed})`, async () => {
      const { result } = await underFaults("create", 1, 40, () => stack.up());
      expect(result.summary.resourceChanges).toEqual({ create: COUNT + 1 });
      await expectServiceEqualsState();
    });

    it(`reports no changes on a second up, without a write call (seed ${seed})`, async () => {
      const { result, stats: d } = await underFaults("no-op up", 2, null, () => stack.up());
      expect(result.summary.resourceChanges).toEqual({ same: COUNT + 1 });
      for (const op of ["SubscribeToWebhook", "UpdateWebhookSubscription", "Unsubscribe"])
        expect(d.requests[op] ?? 0, op).toBe(0);
    });

    it(`updates the URLs of half of them under faults: same GUIDs, new URLs (seed ${seed})`, async () => {
      const guidsBefore = (await emulator.all()).map((s) => s.GUID).sort();
      desired = fleet(COUNT, { urlSuffix: "v2", changed: (i) => i % 2 === 0 });
      const { result } = await underFaults("update", 3, 25, () => stack.up());
      expect(result.summary.resourceChanges).toEqual({ update: COUNT / 2, same: COUNT / 2 + 1 });
      expect((await emulator.all()).map((s) => s.GUID).sort()).toEqual(guidsBefore);
      await expectServiceEqualsState();
    });

    it(`destroys everything in ONE destroy with 30% of the requests faulted: GetAll is empty (seed ${seed})`, async () => {
      const { result, stats: d, faults } = await underFaults("destroy", 4, 40, () => stack.destroy(), destroyFaultPlan);
      expect(result.summary.result).toBe("succeeded");
      expect(result.summary.resourceChanges).toEqual({ delete: COUNT + 1 });
      expect(await emulator.all()).toEqual([]);
      const requests = sum(d.requests);
      console.log(
        `[chaos] seed ${seed} destroy: ${sum(faults)} of ${requests} requests faulted ` +
          `(${((100 * sum(faults)) / requests).toFixed(1)}%), ${d.requests.Unsubscribe ?? 0} Unsubscribe attempts for ${COUNT} subscriptions, one destroy`,
      );
      expect(sum(faults) / requests).toBeGreaterThanOrEqual(0.3);
    });

    it(`injected every kind of fault, into at least 20% of the requests of the run (seed ${seed})`, () => {
      for (const kind of ["429", "503", "reset-before-commit", "reset-after-commit", "delay", "401 (token expired)"])
        expect(seedFaults[kind], kind).toBeGreaterThan(0);
      expect(sum(seedFaults) / seedRequests).toBeGreaterThanOrEqual(0.2);
    });
  });
}

afterAll(() => {
  const faults = Object.values(totals.faults).reduce((a, b) => a + b, 0);
  console.log(
    `[chaos] all seeds (${SEEDS.join(", ")}): ${totals.requests} API requests ${JSON.stringify(totals.operations)}, ` +
      `${faults} faults injected (${((100 * faults) / Math.max(1, totals.requests)).toFixed(1)}%) ${JSON.stringify(totals.faults)}`,
  );
});
