/**
 * A rate-limited operation is never silent: while the client backs off on 429s, each affected
 * subscription gets a progress line, and the final error names the setting of the front door in
 * use that gives it more time (not the client's internal `retry.deadlineMs`). The lifecycle is
 * called as the dynamic-provider host calls it, against the emulator answering 429 to every
 * Subscribe; its lines go to stderr, which the engine shows for the dynamic provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { RateLimitedError } from "../../provider/client";
import { createProvider } from "../../provider/core/lifecycle";
import { rateLimitedLine } from "../../provider/core/progress";
import type { FrontDoorWording } from "../../provider/core/settingWording";
import type { SubscriptionInputs } from "../../provider/core/inputs";
import { PACKET } from "../support/createdOutputs";
import { EmulatorHarness } from "../support/emulatorHarness";

let emulator: EmulatorHarness;
beforeAll(async () => {
  emulator = await EmulatorHarness.start();
});
afterAll(() => emulator.close());
beforeEach(async () => {
  await emulator.reset();
  await emulator.admin("PUT", "/faults", [{ operation: "SubscribeToWebhook", kind: "status", status: 429 }]);
});

const INPUTS: SubscriptionInputs = {
  webhook: 0,
  filterObjectType: 2,
  filterObjectGuid: PACKET,
  subscriberUrl: "https://hooks.example.com/orders",
};
/** Short, so that each case gives up within about a second. */
const DEADLINE_MS = "900";

/** Creates INPUTS with the given config and env; returns the error and what went to stderr. */
async function rateLimitedCreate(
  config: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
  wording?: FrontDoorWording,
): Promise<{ error: unknown; stderr: string[] }> {
  const stderr: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((line: unknown) => void stderr.push(String(line)));
  try {
    const provider = createProvider({ env, ...(wording ? { wording } : {}) });
    const all: Record<string, string> = {
      "webhooks:baseUrl": emulator.url,
      "webhooks:token": "dev-builder",
      ...config,
    };
    await provider.configure({ config: { get: (key) => all[key] } });
    const error = await provider.create(INPUTS).then(
      () => undefined,
      (err: unknown) => err,
    );
    return { error, stderr };
  } finally {
    spy.mockRestore();
  }
}

const LINE =
  `PacketCreated on ${PACKET} → https://hooks.example.com/orders: ` +
  "rate limited \\(429\\): attempt \\d+, next in \\d+\\.\\d s, giving up at \\d\\d:\\d\\d:\\d\\d";

describe("a create that meets 429 until the deadline", () => {
  it("shows a progress line per retry naming the subscription, then names webhooks:retryDeadlineMs", async () => {
    const { error, stderr } = await rateLimitedCreate({ "webhooks:retryDeadlineMs": DEADLINE_MS });
    expect(error).toBeInstanceOf(RateLimitedError);
    const message = (error as Error).message;
    expect(message).toContain("the retry deadline (0.9 s without progress) ran out");
    expect(message).toContain(
      "Lower webhooks:maxRequestsPerSecond (or WEBHOOKS_MAX_RPS), run fewer operations at once (`pulumi up --parallel N`), " +
        "or raise webhooks:retryDeadlineMs.",
    );
    expect(message).not.toContain("retry.deadlineMs");
    // One line per retry: every attempt but the last.
    const attempts = (error as RateLimitedError).attempts!;
    expect(stderr).toHaveLength(attempts - 1);
    for (const line of stderr) expect(line).toMatch(new RegExp(`^${LINE}$`));
    expect(stderr[0]).toMatch(/attempt 1,/);
  });

  it("names WEBHOOKS_RETRY_DEADLINE_MS when the deadline came from the environment", async () => {
    const { error } = await rateLimitedCreate({}, { WEBHOOKS_RETRY_DEADLINE_MS: DEADLINE_MS });
    expect((error as Error).message).toContain("or raise WEBHOOKS_RETRY_DEADLINE_MS.");
  });

  it("names the Provider argument for an explicit Provider", async () => {
    const { error } = await rateLimitedCreate({ "webhooks:provider": "prod", "webhooks:retryDeadlineMs": DEADLINE_MS });
    expect((error as Error).message).toContain(
      'Lower the maxRequestsPerSecond argument of Provider "prod", run fewer operations at once (`pulumi up --parallel N`), ' +
        'or raise the retryDeadlineMs argument of Provider "prod".',
    );
  });

  it("lets another front door word its own settings (the core reports, the adapter words it)", async () => {
    const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const terraform: FrontDoorWording = {
      setting: ({ name, envVar }) => `${snake(name)} in the provider block (or ${envVar})`,
      parallelism: "`terraform apply -parallelism=N`",
      receiverAdvice: "receivers must accept both Signatures",
    };
    const { error } = await rateLimitedCreate({ "webhooks:retryDeadlineMs": DEADLINE_MS }, {}, terraform);
    expect((error as Error).message).toContain(
      "Lower max_requests_per_second in the provider block (or WEBHOOKS_MAX_RPS), run fewer operations at once " +
        "(`terraform apply -parallelism=N`), or raise retry_deadline_ms in the provider block (or WEBHOOKS_RETRY_DEADLINE_MS).",
    );
  });
});

it("words a rate-limited attempt as the issue asked: attempt, next try, and when it gives up", () => {
  const givesUpAt = new Date("2026-11-25T14:32:10Z");
  expect(rateLimitedLine({ attempt: 4, retryInMs: 2100, givesUpAt }, "UTC")).toBe(
    "rate limited (429): attempt 4, next in 2.1 s, giving up at 14:32:10",
  );
});
