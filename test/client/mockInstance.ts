/**
 * A MockAgent standing in for an instance, for unit tests of the client: no network
 * (`disableNetConnect`), a fresh origin per instance so the process-wide rate limiter of one
 * test never slows another, and a record of every request the client sent.
 */
import { MockAgent } from "undici";
import { WebhookSubscriptionClient, type ClientSettings } from "../../provider/client";
import type { WireSubscription } from "../../provider/wire";

/** One scripted answer: a status with a JSON or text body, or a network error code. */
export type MockReply = { status: number; json?: unknown; text?: string } | { error: string };

/** A request as the mock instance received it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

export const SUBSCRIPTION_GUID = "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b";
export const WORK_ITEM_GUID = "11111111-2222-4333-8444-555555555555";

/** A subscription as the wire shows it (upper-case GUIDs, as .NET instances send them). */
export function wireSubscription(overrides: Partial<WireSubscription> = {}): WireSubscription {
  return {
    GUID: SUBSCRIPTION_GUID.toUpperCase(),
    Webhook: 0,
    FilterObjectGUID: WORK_ITEM_GUID,
    FilterObjectType: 2,
    SubscriberURL: "https://hooks.example.com/orders",
    Signature: "9d1e8c7b-0000-4000-8000-000000000001",
    CustomHeader: "",
    CustomHeaderValue: null,
    ...overrides,
  };
}

let instances = 0;

export function mockInstance() {
  const agent = new MockAgent();
  agent.disableNetConnect();
  instances += 1;
  const origin = `http://instance-${instances}.test`;
  const pool = agent.get(origin);
  const requests: RecordedRequest[] = [];

  /** Answers the next requests to `operation` (matched by path), one reply each, in order. */
  function on(operation: string, ...replies: MockReply[]): void {
    for (const reply of replies) {
      const interceptor = pool.intercept({ path: (path) => path.includes(`/${operation}?`), method: () => true });
      if ("error" in reply) {
        // A network failure: the request is not recorded, as no response was produced.
        interceptor.replyWithError(Object.assign(new Error(reply.error), { code: reply.error }));
        continue;
      }
      interceptor.reply((options) => {
        requests.push({
          method: options.method,
          path: options.path,
          headers: { ...(options.headers as Record<string, string>) },
          body: typeof options.body === "string" ? options.body : undefined,
        });
        return { statusCode: reply.status, data: reply.text ?? JSON.stringify(reply.json ?? "") };
      });
    }
  }

  function client(settings: Partial<ClientSettings> = {}): WebhookSubscriptionClient {
    return new WebhookSubscriptionClient({
      baseUrl: origin,
      token: "unit-test-token",
      dispatcher: agent,
      retry: { baseMs: 1, capMs: 5 },
      ...settings,
    });
  }

  return { agent, origin, pool, requests, on, client };
}
