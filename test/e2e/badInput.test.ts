/**
 * The bad-input matrix of test/support/badInputs.ts, now through the real engine: every case
 * declared with the WebhookSubscription class in a program and previewed, so the message is the
 * one users see from `pulumi preview`/`up`. The engine stops a deployment at its first check
 * failure (docs/errors.md, "One invalid resource per run", cites its source), so each case gets its
 * own preview, one after the other, in this process (the failed previews are what once made a
 * later one fail with "14 UNAVAILABLE": docs/engine.md). One `up` of all cases together then shows
 * that it names exactly one of them and that nothing reaches the service.
 */
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import { BAD_INPUTS } from "../support/badInputs";
import { errorDiagnostics } from "../support/diagnostics";

/**
 * Cases the class cannot pass to the engine: it declares `signature` as an output and sends it
 * as undefined, so a `signature` argument never reaches check (the resource is valid without it).
 */
const NOT_THROUGH_THE_CLASS = new Set(["unknown argument signature"]);
const CASES = BAD_INPUTS.filter(([name]) => !NOT_THROUGH_THE_CLASS.has(name)).map(
  ([name, raw, field, message], index) => ({
    name,
    raw,
    field,
    message,
    resource: `case-${String(index).padStart(2, "0")}`,
  }),
);
const WRITES = ["SubscribeToWebhook", "UpdateWebhookSubscription", "Unsubscribe"];

let emulator: EmulatorHarness;
/** Per case: the error diagnostics of its own preview, and how the preview ended (for a failure message). */
const previews = new Map<string, { messages: string[]; ended: string }>();
/** The stack's program declares whatever `declared` holds when it runs. */
let stack: Stack;
let declared: typeof CASES = [];

async function statsRequests(): Promise<Record<string, number>> {
  return (await emulator.admin("GET", "/stats")).json.requests;
}

/** Previews the stack as declared, keeping `resource`'s error diagnostics and how the preview ended. */
async function previewCase(resource: string): Promise<{ messages: string[]; ended: string }> {
  const { onEvent, byResource } = errorDiagnostics();
  const ended = await stack.preview({ onEvent }).then(
    () => "the preview succeeded",
    (err: Error) => `the preview failed: ${err.message.split("\n").slice(-12).join("\n")}`,
  );
  return { messages: byResource.get(resource) ?? [], ended };
}

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  const started = Date.now();
  const dir = workDir("bad-input");
  stack = await openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: "bad-input",
    workDir: dir,
    projectName: "bad-input",
    program: async () => {
      for (const c of declared) new WebhookSubscription(c.resource, c.raw as unknown as WebhookSubscriptionArgs);
    },
    config: { "webhooks:baseUrl": { value: emulator.url }, "webhooks:token": { value: "dev-builder", secret: true } },
  });
  for (const c of CASES) {
    declared = [c];
    previews.set(c.resource, await previewCase(c.resource));
  }
  console.log(
    `[bad-input] ${CASES.length} cases previewed through the engine in ${((Date.now() - started) / 1000).toFixed(1)}s`,
  );
});
afterAll(async () => {
  await emulator?.close();
});

describe("bad input through the engine", () => {
  it(`covers at least 40 cases of the matrix (${CASES.length} of ${BAD_INPUTS.length})`, () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
  });

  it.each(CASES)("preview: $name → one clear message naming $field", ({ resource, field, message }) => {
    const { messages, ended } = previews.get(resource)!;
    expect(messages, `the preview should have failed on this resource; ${ended}`).toHaveLength(1);
    expect(messages[0]!).toContain(`resource '${resource}' has a problem: `);
    expect(messages[0]!).toContain(field);
    expect(messages[0]!).toMatch(message);
  });

  it("up of every case together fails before any call to the service", async () => {
    declared = CASES;
    const { onEvent, byResource } = errorDiagnostics();
    const failure = await stack.up({ onEvent }).then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/has a problem: /);
    // The engine checks registrations one at a time and stops at the first failure: exactly one case
    // is named (which one is the order registrations arrived in), with its own message, once.
    const reported = CASES.filter((c) => byResource.has(c.resource));
    expect(reported.map((c) => c.name)).toHaveLength(1);
    expect(byResource.get(reported[0]!.resource)).toEqual([expect.stringMatching(reported[0]!.message)]);

    // Over every preview and this up: no write, and not even a read (check needs no connection).
    const after = await statsRequests();
    for (const op of WRITES) expect(after[op] ?? 0, op).toBe(0);
    expect(after).toEqual({});
    expect(await emulator.all()).toEqual([]);
    console.log(
      `[bad-input] up of ${CASES.length} bad resources: ${reported.length} reported before the engine stopped; API calls ${JSON.stringify(after)}`,
    );
  });
});
