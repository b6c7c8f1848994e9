/**
 * Fast mode (PULUMI_SKIP_CHECKPOINTS=true) proven safe for this resource: the engine is
 * SIGKILLed in the middle of an `up` (creates), of a replacement and of a `destroy`. Skipping
 * checkpoints means the killed run records nothing — the state at rest is the one from before
 * the run, with no pending operations, plus the backend's lock — while the service holds what the
 * run did. The documented recovery (docs/large-fleets.md: `pulumi cancel`, then the same command
 * again, an `up` with the adoptIdentical opt-in) must bring the service to exactly what the
 * program declares: no duplicate, no orphan, each subscription recorded once.
 */
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import type { Operation } from "../../provider/wire";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import {
  adoptionRecorder,
  compareFleet,
  describeComparison,
  exactly,
  fleet,
  fleetProgram,
  type FleetVariant,
} from "../support/fleet";
import { checkpoint, fixtureRun, killMidRun, locks, removeTornSidecars } from "../support/interruption";
import type { InterruptedRunParameters } from "./fixtures/interrupted-run";

const COUNT = 30;
const PROJECT = "interrupted-fast";
const FAST = { PULUMI_SKIP_CHECKPOINTS: "true" };
/** The recovery run's opt-in of docs/large-fleets.md: creates take over what the killed run made. */
const RECOVERY = { ...FAST, WEBHOOKS_ADOPT_IDENTICAL: "true" };
/** Kill once this many requests of the interrupted operation have reached the service. */
const KILL_AFTER = 14;
/** Half the requests of the interrupted operation answer this late: at the kill, some are in flight. */
const DELAY_MS = 3000;
/** The replacement's variant: a new filterObjectType is a new identity, so every subscription is replaced. */
const REPLACED: FleetVariant = { filterObjectTypeOffset: 10 };

let emulator: EmulatorHarness;
let dir: string;

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  dir = workDir("interrupted-fast");
});
afterAll(async () => {
  await emulator?.close();
});

function stackOf(name: string, variant: FleetVariant = {}, env: Record<string, string> = FAST): Promise<Stack> {
  const desired = fleet(COUNT, variant);
  return openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: name,
    workDir: dir,
    projectName: PROJECT,
    program: fleetProgram(() => desired),
    config: { "webhooks:baseUrl": { value: emulator.url }, "webhooks:token": { value: "dev-builder", secret: true } },
    env,
  });
}

/**
 * Kills `operation` of stack `name` after KILL_AFTER requests of `slow` (half of them delayed),
 * while one is answered and one still held; lets the delayed requests commit on the service, and
 * returns what the killed run left.
 */
async function interrupt(
  name: string,
  operation: InterruptedRunParameters["operation"],
  slow: Operation,
  variant: Omit<FleetVariant, "changed"> = {},
) {
  await emulator.admin("PUT", "/faults", {
    seed: 8,
    rules: [{ operation: slow, kind: "delay", delayMs: DELAY_MS, probability: 0.5 }],
  });
  const seen = await killMidRun(
    emulator,
    fixtureRun({
      engine: requireEngine(),
      backendDir: join(dir, "state"),
      workDir: dir,
      stackName: name,
      projectName: PROJECT,
      emulatorUrl: emulator.url,
      count: COUNT,
      operation,
      variant,
      env: FAST,
    }),
    { operation: slow, after: KILL_AFTER },
  );
  // The delayed requests complete on the service after the kill.
  await emulator.admin("DELETE", "/faults");
  await emulator.answeredAll();
  // A kill can tear the file backend's metadata file beside the state; docs/recovery.md says to delete it.
  const torn = removeTornSidecars(join(dir, "state"));
  if (torn.length > 0) console.log(`[interrupted] removed the torn ${torn.join(", ")}, as docs/recovery.md says`);
  const state = checkpoint(join(dir, "state"), PROJECT, name);
  const live = await emulator.all();
  const recorded = state.resources.filter((r) => r.startsWith("sub-")).length;
  console.log(
    `[interrupted-fast] ${operation} of ${name} killed after ${seen} ${slow}: ${recorded} subscriptions recorded, ` +
      `${state.pending.length} pending operations, ${live.length} on the service, ${locks(join(dir, "state")).length} lock(s) left`,
  );
  return { state, live, recorded };
}

/** The killed run's lock blocks every command until `pulumi cancel` removes it. */
async function cancelLock(stack: Stack): Promise<void> {
  await expect(stack.up()).rejects.toThrow(/locked/);
  await stack.cancel();
  expect(locks(join(dir, "state"))).toEqual([]);
}

async function expectExactly(stack: Stack, desired: ReturnType<typeof fleet>): Promise<void> {
  const comparison = await compareFleet(stack, await emulator.all(), desired);
  console.log(`[interrupted-fast] ${stack.name}: ${describeComparison(comparison)}`);
  expect(comparison).toEqual(exactly(COUNT));
}

describe("fast mode: an up killed in the middle of its creates", () => {
  it("records nothing; cancel and an up with the adoptIdentical opt-in adopt every subscription the killed run left", async () => {
    const { state, live, recorded } = await interrupt("fast-up", "up", "SubscribeToWebhook");
    // Nothing of the killed run is in the state: every subscription it made is unknown to it.
    expect(recorded).toBe(0);
    expect(state.pending).toEqual([]);
    expect(locks(join(dir, "state"))).toHaveLength(1);
    expect(live.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const stack = await stackOf("fast-up", {}, RECOVERY);
    await cancelLock(stack);
    const { onEvent, adopted } = adoptionRecorder();
    const up = await stack.up({ onEvent });
    expect(up.summary.resourceChanges).toEqual({ create: COUNT + 1 });
    // Each subscription the killed run made is adopted, once.
    expect([...adopted].sort()).toEqual(live.map((s) => s.GUID).sort());
    await expectExactly(stack, fleet(COUNT));

    // Settled, back without the opt-in.
    expect((await (await stackOf("fast-up")).up()).summary.resourceChanges).toEqual({ same: COUNT + 1 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});

describe("fast mode: an up killed in the middle of a replacement", () => {
  it("keeps the old state; cancel and an up with the opt-in adopt the new subscriptions and delete every old one", async () => {
    const before = await stackOf("fast-replace");
    await before.up();
    const old = new Set((await emulator.all()).map((s) => s.GUID));
    expect(old.size).toBe(COUNT);

    const { state, live, recorded } = await interrupt("fast-replace", "up", "SubscribeToWebhook", REPLACED);
    // The state still records the old fleet, and nothing else.
    expect(recorded).toBe(COUNT);
    expect(state.pending).toEqual([]);
    const created = live.filter((s) => !old.has(s.GUID)).map((s) => s.GUID);
    expect(created.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const stack = await stackOf("fast-replace", REPLACED, RECOVERY);
    await cancelLock(stack);
    const { onEvent, adopted } = adoptionRecorder();
    const up = await stack.up({ onEvent });
    expect(up.summary.resourceChanges).toEqual({ same: 1, replace: COUNT });
    expect([...adopted].sort()).toEqual(created.sort());
    await expectExactly(stack, fleet(COUNT, REPLACED));
    expect((await emulator.all()).filter((s) => old.has(s.GUID))).toEqual([]);

    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});

describe("fast mode: a destroy killed in the middle of its deletes", () => {
  it("keeps the whole state; cancel and destroy again delete the rest, the gone ones as already deleted", async () => {
    const before = await stackOf("fast-destroy");
    await before.up();
    expect(await emulator.all()).toHaveLength(COUNT);

    const { state, live, recorded } = await interrupt("fast-destroy", "destroy", "Unsubscribe");
    expect(recorded).toBe(COUNT);
    expect(state.pending).toEqual([]);
    expect(live.length).toBeLessThanOrEqual(COUNT - KILL_AFTER);

    const stack = await stackOf("fast-destroy");
    await cancelLock(stack);
    const destroy = await stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: COUNT + 1 });
    expect(await emulator.all()).toEqual([]);
    expect((await stack.exportStack()).deployment.resources ?? []).toEqual([]);
  });
});
