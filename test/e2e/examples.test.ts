/**
 * Every example program, and the root program, really runs: on the real engine against the
 * emulator, from a copy of its directory (so no stack files land in the repo).
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireEngine, workDir } from "../support/engine";

let emulator: EmulatorHarness;

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  await emulator.reset();
});

/**
 * Opens stack "dev" of a program assembled in a fresh work dir from `copies`
 * (repo path → path in the work dir; "." is the work dir itself).
 */
async function exampleStack(
  name: string,
  copies: Record<string, string>,
  config: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<Stack> {
  const dir = workDir(name);
  for (const [from, to] of Object.entries(copies)) cpSync(join(REPO_ROOT, from), join(dir, to), { recursive: true });
  return openStack({
    engine: requireEngine(),
    backendDir: join(dir, ".state"),
    stackName: "dev",
    workDir: dir,
    config: Object.fromEntries(Object.entries(config).map(([k, v]) => [k, { value: v }])),
    env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder", ...env },
  });
}

describe("examples", () => {
  it("basic: four subscriptions of different events and scopes, stable on a second up", async () => {
    const stack = await exampleStack("basic", { "examples/basic": "." });
    const preview = await stack.preview();
    expect(preview.changeSummary).toEqual({ create: 5 });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const live = await emulator.all();
    expect(live.map((s) => s.Webhook).sort()).toEqual([0, 1, 3, 5]);
    const guids = up.outputs.guids!.value as Record<string, string>;
    expect(live.find((s) => s.GUID === guids.audit)!.SubscriberURL).toBe(
      `https://hooks.example.com/audit?after=${guids.businessObjects}`,
    );
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 5 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });

  it("legacy: a change replaces the subscription (new GUID), the old one is unsubscribed", async () => {
    const stack = await exampleStack("legacy", { "examples/legacy": "." });
    const first = (await stack.up()).outputs.guid!.value as string;
    await stack.setConfig("path", { value: "v2" });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 1, replace: 1 });
    const second = up.outputs.guid!.value as string;
    expect(second).not.toBe(first);
    expect((await emulator.all()).map((s) => s.GUID)).toEqual([second]);
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });

  it("adopt: takes over an existing subscription, keeping its GUID and Signature", async () => {
    const existing = await emulator.subscribe({
      Webhook: 3,
      FilterObjectType: 7,
      SubscriberURL: "https://old.example.com/catalogue",
    });
    const stack = await exampleStack("adopt", { "examples/adopt": "." }, { guid: existing.GUID });
    const up = await stack.up();
    expect(up.outputs.guid!.value).toBe(existing.GUID);
    expect(up.outputs.signature!.value).toBe(existing.Signature);
    expect(await emulator.all()).toEqual([
      expect.objectContaining({ GUID: existing.GUID, SubscriberURL: "https://hooks.example.com/catalogue" }),
    ]);
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });

  it("multi-instance: the same subscriptions on test and production, each on its own instance", async () => {
    const production = await EmulatorHarness.start();
    try {
      const stack = await exampleStack(
        "multi-instance",
        { "examples/multi-instance": "." },
        { productionBaseUrl: production.url },
        { PROD_WEBHOOKS_TOKEN: "dev-builder" },
      );
      const up = await stack.up();
      expect(up.summary.resourceChanges).toEqual({ create: 6 });
      const onTest = up.outputs.test!.value as Array<{ guid: string; instance: string }>;
      const onProduction = up.outputs.prod!.value as Array<{ guid: string; instance: string }>;
      expect((await emulator.all()).map((s) => s.GUID).sort()).toEqual(onTest.map((s) => s.guid).sort());
      expect((await production.all()).map((s) => s.GUID).sort()).toEqual(onProduction.map((s) => s.guid).sort());
      expect(onProduction.every((s) => s.instance === production.url)).toBe(true);
      expect((await stack.preview()).changeSummary).toEqual({ same: 6 });
      await stack.destroy();
      expect(await emulator.all()).toEqual([]);
      expect(await production.all()).toEqual([]);
    } finally {
      await production.close();
    }
  });

  it("the root program (Pulumi.yaml, main: infra/) creates its subscriptions and is stable", async () => {
    const stack = await exampleStack("root", { "Pulumi.yaml": "Pulumi.yaml", infra: "infra" });
    await stack.setConfig("receiverApiKey", { value: "k", secret: true });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect(await emulator.all()).toHaveLength(4);
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});
