/**
 * Test helpers that drive an emulator over real HTTP with plain `fetch`, the way any client of
 * the service would. Deliberately independent of provider/client, so the conformance suite
 * checks the emulator against the spec and not against our own client.
 */
import { afterAll, beforeAll, beforeEach, expect, vi } from "vitest";
import { startEmulator, type EmulatorOptions, type RunningEmulator, type StatsSnapshot } from "../../emulator";
import type { Operation } from "../../provider/wire";

/** The Authorization header of the fixed Builder token. */
export const BUILDER = "Bearer dev-builder";
/** The Authorization header of the fixed token without the Builder role. */
export const READER = "Bearer dev-reader";

/** Operations answered with GET; the others are POST. */
const GET_OPERATIONS: ReadonlySet<Operation> = new Set(["GetAllWebhookSubscriptions", "GetWebhookSubscription"]);

/** A finished HTTP exchange, body read as text and (when it parses) as JSON. */
export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed body, undefined when not JSON; `any` because tests index into arbitrary bodies. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** How to call one API operation. */
export interface CallOptions {
  /** `api-version` value; null leaves the parameter out. @default "3" on /configuration, "2024.1" on /legacy */
  version?: string | null;
  query?: Record<string, string>;
  /** Serialised as JSON unless `raw` is given. */
  body?: unknown;
  /** Sent as-is, for malformed bodies. */
  raw?: string;
  /** Authorization header; null sends none. @default BUILDER */
  auth?: string | null;
}

/** Sends one request and reads the whole answer. */
export async function http(url: string, init: RequestInit = {}): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A typical valid type-scoped Subscribe body. */
export function typeScopedBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://hooks.example.com/created", ...overrides };
}

/** A valid object-scoped Subscribe body for `webhook` (0, 1, 2 or 4) on `objectGuid`. */
export function objectScopedBody(
  webhook: number,
  objectGuid: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    Webhook: webhook,
    FilterObjectType: 7,
    FilterObjectGUID: objectGuid,
    SubscriberURL: "https://hooks.example.com/obj",
    ...overrides,
  };
}

/** A running emulator plus helpers for its two APIs and its admin API. */
export class EmulatorHarness {
  private running: RunningEmulator | undefined;
  /** The address of an emulator another process runs (see `attach`). */
  private attached: string | undefined;

  /** Starts an emulator on a free port; the caller closes it. */
  static async start(options: EmulatorOptions = {}): Promise<EmulatorHarness> {
    const harness = new EmulatorHarness();
    await harness.open(options);
    return harness;
  }

  /** Drives an emulator that another process runs (e.g. the package's bin); `close` leaves it running. */
  static attach(url: string): EmulatorHarness {
    const harness = new EmulatorHarness();
    harness.attached = url;
    return harness;
  }

  /** Base URL of the running emulator. */
  get url(): string {
    const url = this.running?.url ?? this.attached;
    if (!url) throw new Error("the emulator is not running");
    return url;
  }

  async open(options: EmulatorOptions = {}): Promise<void> {
    this.running = await startEmulator({ port: 0, ...options });
  }

  async close(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  /** Calls an operation of the configuration API. */
  config(operation: Operation, options: CallOptions = {}): Promise<HttpResult> {
    return this.call("/configuration/WebHookSubscription", operation, "3", options);
  }

  /** Calls an operation path of the legacy 2024.1 API. */
  legacy(operation: Operation, options: CallOptions = {}): Promise<HttpResult> {
    return this.call("/legacy/WebHookSubscription", operation, "2024.1", options);
  }

  /** Subscribes through the configuration API and returns the saved subscription (asserts success). */
  async subscribe(
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown> & { GUID: string; Signature: string }> {
    const result = await this.config("SubscribeToWebhook", { body });
    if (result.status !== 200) throw new Error(`subscribe failed: ${result.status} ${result.text}`);
    // The spec's envelope, or the vendor-docs dialect's one-element array.
    return Array.isArray(result.json) ? result.json[0] : result.json.Result;
  }

  /** Every subscription, via GetAll. */
  async all(): Promise<Array<Record<string, unknown> & { GUID: string }>> {
    return (await this.config("GetAllWebhookSubscriptions")).json;
  }

  /** The one subscription whose SubscriberURL is `url` (asserts there is exactly one). */
  async subscriptionAt(url: string): Promise<Record<string, unknown> & { GUID: string }> {
    const found = (await this.all()).filter((s) => s.SubscriberURL === url);
    expect(found, `subscriptions at ${url}`).toHaveLength(1);
    return found[0]!;
  }

  /** Calls the admin API (`/_emulator/...`); a body is sent as JSON. */
  admin(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return http(`${this.url}/_emulator${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    });
  }

  /**
   * Resolves once a `kind` fault has been applied `count` times (e.g. a request is now held by a
   * delay): waits for the event, not for time to pass.
   */
  async faultApplied(kind: string, count = 1): Promise<void> {
    await vi.waitFor(
      async () => {
        const applied = (await this.admin("GET", "/stats")).json.faults[kind] ?? 0;
        expect(applied, `waiting for the emulator to apply ${count} "${kind}" fault(s)`).toBeGreaterThanOrEqual(count);
      },
      { timeout: 10_000, interval: 5 },
    );
  }

  /**
   * Resolves once the emulator has answered every API request it received, e.g. requests held
   * by a delay fault after their client was killed: what they commit is then on the service.
   * Fails after `timeoutMs`, showing the counts. Not for runs with reset faults: a reset
   * connection is never answered.
   */
  async answeredAll(timeoutMs = 30_000): Promise<void> {
    await vi.waitFor(
      async () => {
        const { requests, status } = (await this.admin("GET", "/stats")).json as StatsSnapshot;
        const sum = (counters: Record<string, number>) => Object.values(counters).reduce((a, b) => a + b, 0);
        expect(
          sum(status),
          `waiting for the emulator to answer every request it received: ${JSON.stringify(requests)}; answered by status: ${JSON.stringify(status)}`,
        ).toBe(sum(requests));
      },
      { timeout: timeoutMs, interval: 50 },
    );
  }

  /** `POST /_emulator/reset`, asserting it worked. */
  async reset(): Promise<void> {
    const result = await this.admin("POST", "/reset");
    if (result.status !== 200) throw new Error(`reset failed: ${result.status}`);
  }

  private call(
    prefix: string,
    operation: Operation,
    defaultVersion: string,
    options: CallOptions,
  ): Promise<HttpResult> {
    const query = new URLSearchParams(options.query);
    const version = options.version === undefined ? defaultVersion : options.version;
    if (version !== null) query.set("api-version", version);
    const headers: Record<string, string> = {};
    const auth = options.auth === undefined ? BUILDER : options.auth;
    if (auth !== null) headers.authorization = auth;
    const method = GET_OPERATIONS.has(operation) ? "GET" : "POST";
    // fetch refuses a body on GET; tests that loop over all operations pass one anyway.
    const body =
      method === "GET"
        ? undefined
        : (options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)));
    if (body !== undefined) headers["content-type"] = "application/json";
    const search = query.toString();
    return http(`${this.url}${prefix}/${operation}${search ? `?${search}` : ""}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  }
}

/**
 * One emulator for a whole test file: started before all tests, reset before each, closed after.
 * The harness is returned at once and usable inside tests.
 */
export function useEmulator(options: EmulatorOptions = {}): EmulatorHarness {
  const harness = new EmulatorHarness();
  beforeAll(() => harness.open(options));
  beforeEach(() => harness.reset());
  afterAll(() => harness.close());
  return harness;
}
