import { describe, expect, it } from "vitest";
import {
  backoffMs,
  mayHaveCommitted,
  networkFailure,
  notFoundMeansDone,
  retriesUntilDeadline,
  shouldRetry,
  type Failure,
  type RetryVerdict,
} from "../../provider/client";
import { OPERATIONS, type Operation } from "../../provider/wire";

const status = (code: number): Failure => ({ kind: "status", status: code });
const network = (code: string, sent: boolean): Failure => ({ kind: "network", code, sent });

describe("shouldRetry", () => {
  // [failure, GET (both), Unsubscribe, Subscribe/Update]
  const table: Array<[string, Failure, RetryVerdict, RetryVerdict, RetryVerdict]> = [
    ["429", status(429), "retry", "retry", "retry"],
    ["400", status(400), "fail", "fail", "fail"],
    ["401", status(401), "fail", "fail", "fail"],
    ["403", status(403), "fail", "fail", "fail"],
    ["404", status(404), "fail", "fail", "fail"],
    ["500", status(500), "retry", "retry", "ambiguous"],
    ["503", status(503), "retry", "retry", "ambiguous"],
    ["ECONNREFUSED (not sent)", network("ECONNREFUSED", false), "retry", "retry", "retry"],
    ["connect timeout (not sent)", network("UND_ERR_CONNECT_TIMEOUT", false), "retry", "retry", "retry"],
    ["ECONNRESET (sent)", network("ECONNRESET", true), "retry", "retry", "ambiguous"],
    ["headers timeout (sent)", network("UND_ERR_HEADERS_TIMEOUT", true), "retry", "retry", "ambiguous"],
    ["client closed", network("UND_ERR_CLOSED", true), "fail", "fail", "fail"],
  ];
  const gets: Operation[] = ["GetAllWebhookSubscriptions", "GetWebhookSubscription"];
  const writes: Operation[] = ["SubscribeToWebhook", "UpdateWebhookSubscription"];

  it.each(table)("%s", (_name, failure, get, unsubscribe, write) => {
    for (const operation of gets) expect(shouldRetry(operation, failure)).toBe(get);
    expect(shouldRetry("Unsubscribe", failure)).toBe(unsubscribe);
    for (const operation of writes) expect(shouldRetry(operation, failure)).toBe(write);
  });
});

describe("networkFailure", () => {
  it("treats connection refusals as never sent, looking through AggregateError and cause", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(networkFailure(refused)).toEqual({ kind: "network", code: "ECONNREFUSED", sent: false });
    expect(networkFailure(new AggregateError([refused]))).toMatchObject({ code: "ECONNREFUSED", sent: false });
    expect(networkFailure(new Error("fetch failed", { cause: refused }))).toMatchObject({ sent: false });
  });

  it("assumes an unknown or mid-exchange failure was sent", () => {
    expect(networkFailure(new Error("?"))).toEqual({ kind: "network", code: "UNKNOWN", sent: true });
    expect(networkFailure(Object.assign(new Error("x"), { code: "UND_ERR_SOCKET" })).sent).toBe(true);
  });
});

describe("notFoundMeansDone and mayHaveCommitted", () => {
  it("counts a 404 as success only for an Unsubscribe whose earlier attempt may have deleted", () => {
    expect(notFoundMeansDone("Unsubscribe", true)).toBe(true);
    expect(notFoundMeansDone("Unsubscribe", false)).toBe(false);
    expect(notFoundMeansDone("GetWebhookSubscription", true)).toBe(false);
  });

  it("says which failures leave the outcome open", () => {
    expect(mayHaveCommitted(status(503))).toBe(true);
    expect(mayHaveCommitted(status(429))).toBe(false);
    expect(mayHaveCommitted(network("ECONNRESET", true))).toBe(true);
    expect(mayHaveCommitted(network("ECONNREFUSED", false))).toBe(false);
  });
});

describe("retriesUntilDeadline", () => {
  it("holds for Unsubscribe only: the idempotent write that a destroy must finish", () => {
    expect(OPERATIONS.filter(retriesUntilDeadline)).toEqual(["Unsubscribe"]);
  });
});

describe("backoffMs", () => {
  const options = { baseMs: 100, capMs: 1000 };

  it("grows exponentially up to the cap (upper bound with random→1)", () => {
    const ceiling = (attempt: number) => backoffMs(attempt, options, () => 0.999999);
    expect([1, 2, 3, 4, 5, 6].map(ceiling)).toEqual([99, 199, 399, 799, 999, 999]);
    expect(ceiling(10_000)).toBe(999);
  });

  it("uses full jitter: anywhere from 0 to the ceiling", () => {
    expect(backoffMs(3, options, () => 0)).toBe(0);
    expect(backoffMs(3, options, () => 0.5)).toBe(200);
    const draws = Array.from({ length: 200 }, () => backoffMs(4, options));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(800);
    // Not all the same: jitter spreads concurrent retries.
    expect(new Set(draws).size).toBeGreaterThan(50);
  });
});
