/**
 * Interrupted run: the engine is SIGKILLed in the middle of an `up` — some creates recorded, some
 * in flight (committed by the service after the kill, unknown to the state), some not started —
 * and the recovery steps of docs/recovery.md (the commands the drift review prints) bring the
 * stack to exactly the desired state with no duplicate and no orphan.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reviewDrift } from "../../drift";
import { recoveryCommands } from "../../drift/sources/pulumi/pendingCreates";
import { engineEnv, openStack, type StackOptions } from "../../engine/automation";
import { findingsOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import { adoptionRecorder, compareFleet, describeComparison, exactly, fleet, fleetProgram } from "../support/fleet";
import {
  checkpoint as checkpointAt,
  fixtureRun,
  killMidRun,
  locks as locksAt,
  removeTornSidecars,
} from "../support/interruption";

const COUNT = 30;
const PROJECT = "interrupted";
const STACK = "interrupted";
/** Kill once this many Subscribes have reached the service. */
const KILL_AFTER_SUBSCRIBES = 16;

let emulator: EmulatorHarness;
let dir: string;

const checkpoint = () => checkpointAt(join(dir, "state"), PROJECT, STACK);
const locks = () => locksAt(join(dir, "state"));
/** Subscriptions the checkpoint at rest records. */
const recorded = () => checkpoint().resources.filter((r) => r.startsWith("sub-")).length;

beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  dir = workDir("interrupted");
});
afterAll(async () => {
  await emulator?.close();
});

describe("an up killed with SIGKILL", () => {
  const desired = fleet(COUNT);
  let recordedAtKill = 0;

  it("leaves a locked stack with pending creates and subscriptions the state does not know", async () => {
    // Half the Subscribes answer late: when the kill lands, some are recorded, some in flight.
    await emulator.admin("PUT", "/faults", {
      seed: 8,
      rules: [{ operation: "SubscribeToWebhook", kind: "delay", delayMs: 3000, probability: 0.5 }],
    });
    const subscribes = await killMidRun(
      emulator,
      fixtureRun({
        engine: requireEngine(),
        backendDir: join(dir, "state"),
        workDir: dir,
        stackName: STACK,
        projectName: PROJECT,
        emulatorUrl: emulator.url,
        count: COUNT,
        operation: "up",
      }),
      // Once a quick create is recorded while slow ones are still in flight.
      { operation: "SubscribeToWebhook", after: KILL_AFTER_SUBSCRIBES, until: () => recorded() > 0 },
    );

    // The delayed Subscribes complete on the service after the kill.
    await emulator.admin("DELETE", "/faults");
    await emulator.answeredAll();
    // A kill can tear the file backend's metadata file beside the state; docs/recovery.md says to delete it.
    const torn = removeTornSidecars(join(dir, "state"));
    if (torn.length > 0) console.log(`[interrupted] removed the torn ${torn.join(", ")}, as docs/recovery.md says`);
    const state = checkpoint();
    recordedAtKill = recorded();
    const live = await emulator.all();
    console.log(
      `[interrupted] killed after ${subscribes} Subscribes: ${recordedAtKill} subscriptions recorded, ${state.pending.length} pending creates, ` +
        `${live.length} on the service, ${locks().length} lock(s) left`,
    );
    expect(locks()).toHaveLength(1);
    expect(recordedAtKill).toBeGreaterThan(0);
    expect(state.pending.length).toBeGreaterThan(0);
    expect(state.pending.every((p) => p.type === "creating")).toBe(true);
    // Subscriptions the service holds but the state does not: what a naive retry would duplicate.
    expect(live.length).toBeGreaterThan(recordedAtKill);
  });

  it("recovers as docs/recovery.md says: cancel, then the drift review's commands: exactly the desired state", async () => {
    const backendDir = join(dir, "state");
    const options: StackOptions = {
      engine: requireEngine(),
      backendDir,
      stackName: STACK,
      workDir: dir,
      projectName: PROJECT,
      program: fleetProgram(() => desired),
      config: { "webhooks:baseUrl": { value: emulator.url }, "webhooks:token": { value: "dev-builder", secret: true } },
    };
    const stack = await openStack(options);

    // 1. The killed update's lock blocks everything until `pulumi cancel` removes it.
    await expect(stack.up()).rejects.toThrow(/locked/);
    await stack.cancel();
    expect(locks()).toEqual([]);

    // 2. The drift review matches each subscription the killed run committed but never recorded
    //    to its pending create, and prints the commands that finish the run.
    const pending = checkpoint().pending.length;
    const review = await reviewDrift({
      stacks: [{ name: STACK, workDir: dir, backendUrl: pathToFileURL(backendDir).href }],
      engine: requireEngine(),
      env: { ...process.env, ...engineEnv(requireEngine(), backendDir) },
      // An inline program, which no preview can run again: compare with the state alone.
      stateOnly: true,
    });
    const inState = new Set(((await stack.exportStack()).deployment.resources ?? []).map((r: { id?: string }) => r.id));
    const orphans = (await emulator.all()).map((s) => s.GUID).filter((guid) => !inState.has(guid));
    // Each orphan is its pending create's, none is merely unmanaged.
    const created = findingsOf(review, "pending-create");
    expect(created.map((f) => f.guid).sort()).toEqual(orphans.sort());
    expect(findingsOf(review, "unmanaged")).toEqual([]);
    expect(created.every((f) => f.owner?.address.startsWith(`urn:pulumi:${STACK}::`))).toBe(true);
    const targets = created.map((f) => f.owner!.address);
    expect(review.sources[0]!.recovery).toEqual(recoveryCommands(STACK, pending, targets));

    // 3. The commands, through the Automation API (test/e2e/package.test.ts runs them as printed):
    //    clear the pending creates; an up of only the matched resources, with the opt-in, takes
    //    over each one's orphan.
    await stack.refresh({ clearPendingCreates: true });
    expect(checkpoint().pending).toEqual([]);
    const recovery = await openStack({ ...options, env: { WEBHOOKS_ADOPT_IDENTICAL: "true" } });
    const { onEvent, adopted } = adoptionRecorder();
    const targeted = await recovery.up({ target: targets, onEvent });
    expect(targeted.summary.resourceChanges).toMatchObject({ create: orphans.length });
    expect([...adopted].sort()).toEqual(orphans.sort());
    expect(recorded()).toBe(recordedAtKill + orphans.length);

    // 4. A plain up creates the rest; nothing identical is left to warn about or take over.
    const rest = adoptionRecorder();
    const up = await stack.up({ onEvent: rest.onEvent });
    expect(up.summary.resourceChanges).toEqual({
      same: recordedAtKill + orphans.length + 1,
      create: COUNT - recordedAtKill - orphans.length,
    });
    expect(rest.adopted).toEqual([]);

    const comparison = await compareFleet(stack, await emulator.all(), desired);
    console.log(
      `[interrupted] recovered: ${pending} pending creates, ${orphans.length} orphans taken over by their own resources; ${describeComparison(comparison)}`,
    );
    expect(comparison).toEqual(exactly(COUNT));

    // 5. And the stack is settled.
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: COUNT + 1 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});
