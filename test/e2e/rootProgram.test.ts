/**
 * The root program (Pulumi.yaml, main: infra/), the one `npm start` runs, really runs: on the real
 * engine against the emulator, from a copy of its files (so no stack files land in the repo).
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

describe("the root program", () => {
  it("creates its subscriptions and is stable", async () => {
    const dir = workDir("root");
    for (const path of ["Pulumi.yaml", "infra"]) cpSync(join(REPO_ROOT, path), join(dir, path), { recursive: true });
    const stack = await openStack({
      engine: requireEngine(),
      backendDir: join(dir, ".state"),
      stackName: "dev",
      workDir: dir,
      config: { receiverApiKey: { value: "k", secret: true } },
      env: { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" },
    });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect(await emulator.all()).toHaveLength(4);
    expect((await stack.preview()).changeSummary).toEqual({ same: 5 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});
