/**
 * Interrupted run: the engine is SIGKILLed in the middle of an `up` — some creates recorded, some
 * in flight (committed by the service after the kill, unknown to the state), some not started —
 * and the recovery steps of docs/recovery.md bring the stack to exactly the desired state with
 * no duplicate and no orphan.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireEngine, workDir } from "../support/engine";
import { compareFleet, describeComparison, fleet, fleetProgram } from "../support/fleet";
import type { InterruptedUpParameters } from "./fixtures/interrupted-up";

const COUNT = 30;
const PROJECT = "interrupted";
const STACK = "interrupted";
/** Kill once this many Subscribes have reached the service. */
const KILL_AFTER_SUBSCRIBES = 16;

let emulator: EmulatorHarness;
let dir: string;

/** The checkpoint at rest: its resources and the operations the killed engine left pending. */
function checkpoint(): { resources: string[]; pending: Array<{ type: string; name: string }> } {
  const file = join(dir, "state", ".pulumi", "stacks", PROJECT, `${STACK}.json`);
  const latest = (
    JSON.parse(readFileSync(file, "utf8")) as {
      checkpoint: {
        latest?: {
          resources?: Array<{ urn: string }>;
          pending_operations?: Array<{ type: string; resource: { urn: string } }>;
        };
      };
    }
  ).checkpoint.latest;
  return {
    resources: (latest?.resources ?? []).map((r) => r.urn.split("::").pop()!),
    pending: (latest?.pending_operations ?? []).map((p) => ({ type: p.type, name: p.resource.urn.split("::").pop()! })),
  };
}

/** Lock files of the file backend (one per running, or killed, update). */
function locks(): string[] {
  const root = join(dir, "state", ".pulumi", "locks");
  return existsSync(root)
    ? readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"))
    : [];
}

/** Processes of a process group that still run (zombies are dead; in a container nobody may reap them). */
function liveMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // Fields after the command name (which may hold spaces): state ppid pgrp …
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z") members.push(`${pid} ${stat.slice(0, stat.lastIndexOf(")") + 1)}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
}

/**
 * Kills what the dead engine left running in `cwd`: Pulumi starts each plugin (here the
 * dynamic-provider host) in a process group of its own, so killing the engine's group orphans it,
 * as it would on a real runner. Returns the PIDs it found.
 */
function killStrays(cwd: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) !== cwd) continue;
      process.kill(Number(pid), "SIGKILL");
      found.push(Number(pid));
    } catch {
      // Not ours to read, or it ended while we looked.
    }
  }
  return found;
}

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
    const parameters: InterruptedUpParameters = {
      engine: requireEngine(),
      backendDir: join(dir, "state"),
      workDir: dir,
      stackName: STACK,
      projectName: PROJECT,
      emulatorUrl: emulator.url,
      count: COUNT,
    };
    const child = spawn(
      join(REPO_ROOT, "node_modules", ".bin", "tsx"),
      [join(__dirname, "fixtures", "interrupted-up.ts")],
      {
        cwd: REPO_ROOT,
        // Its own process group: one signal reaches the script, the pulumi CLI and the provider plugin.
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, INTERRUPTED_UP: JSON.stringify(parameters) },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

    let subscribes = 0;
    for (let i = 0; i < 1200 && subscribes < KILL_AFTER_SUBSCRIBES && child.exitCode === null; i++) {
      subscribes = (await emulator.admin("GET", "/stats")).json.requests.SubscribeToWebhook ?? 0;
      await sleep(50);
    }
    expect(child.exitCode, `the up ended before the kill:\n${output}`).toBeNull();
    // Let the quick creates be recorded while the slow ones are still in flight.
    await sleep(500);
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    await sleep(200);
    expect(liveMembers(child.pid!)).toEqual([]);
    const strays = killStrays(dir);
    await sleep(200);
    expect(killStrays(dir), `plugins orphaned by the kill (${strays.join(", ")}) still run`).toEqual([]);
    expect(output).not.toContain("up finished");

    // The delayed Subscribes complete on the service after the kill.
    await emulator.admin("DELETE", "/faults");
    await sleep(3500);
    const state = checkpoint();
    recordedAtKill = state.resources.filter((r) => r.startsWith("sub-")).length;
    const live = await emulator.all();
    console.log(
      `[interrupted] killed after ${subscribes} Subscribes: ${recordedAtKill} subscriptions recorded, ${state.pending.length} pending creates, ` +
        `${live.length} on the service, ${locks().length} lock(s) left`,
    );
    expect(locks()).toHaveLength(1);
    expect(state.pending.length).toBeGreaterThan(0);
    expect(state.pending.every((p) => p.type === "creating")).toBe(true);
    // Subscriptions the service holds but the state does not: what a naive retry would duplicate.
    expect(live.length).toBeGreaterThan(recordedAtKill);
  });

  it("recovers with cancel, refresh --clear-pending-creates and up: exactly the desired state, no duplicates", async () => {
    const stack = await openStack({
      engine: requireEngine(),
      backendDir: join(dir, "state"),
      stackName: STACK,
      workDir: dir,
      projectName: PROJECT,
      program: fleetProgram(() => desired),
      config: { "webhooks:baseUrl": { value: emulator.url }, "webhooks:token": { value: "dev-builder", secret: true } },
    });
    const orphansBefore = (await emulator.all()).length - recordedAtKill;

    // 1. The killed update's lock blocks everything until `pulumi cancel` removes it.
    await expect(stack.up()).rejects.toThrow(/locked/);
    await stack.cancel();
    expect(locks()).toEqual([]);

    // 2. Refresh reads back what was recorded and drops the creates that never finished.
    const refresh = await stack.refresh({ clearPendingCreates: true });
    expect(refresh.summary.result).toBe("succeeded");
    expect(checkpoint().pending).toEqual([]);

    // 3. Up creates the rest; the subscriptions committed after the kill are adopted, not duplicated.
    let output = "";
    const up = await stack.up({ onOutput: (line) => (output += line) });
    expect(up.summary.resourceChanges).toEqual({ same: recordedAtKill + 1, create: COUNT - recordedAtKill });
    const adopted = new Set(output.match(/adopted the existing identical subscription [0-9a-f-]{36}/g) ?? []).size;

    const comparison = await compareFleet(stack, await emulator.all(), desired);
    console.log(
      `[interrupted] recovered: ${adopted} adopted of ${orphansBefore} unrecorded; ${describeComparison(comparison)}`,
    );
    expect(adopted).toBe(orphansBefore);
    expect(comparison).toMatchObject({
      live: COUNT,
      managed: COUNT,
      duplicates: [],
      orphans: [],
      missing: [],
      mismatches: [],
    });

    // 4. And the stack is settled.
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: COUNT + 1 });
    await stack.destroy();
    expect(await emulator.all()).toEqual([]);
  });
});
