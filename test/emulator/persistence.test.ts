/**
 * Persistence with a state file: survives a restart and a `kill -9`, writes atomically, refuses
 * (and leaves alone) a file it cannot read, and keeps state in memory when no file is given.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { spawnEmulator } from "../../emulator/spawn";
import { startEmulator } from "../../emulator";
import { BUILDER, EmulatorHarness, objectScopedBody, typeScopedBody } from "../support/emulatorHarness";

const CLOSED = "c105ed00-0000-4000-8000-0000000000aa";

let directory: string;
let statePath: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-state-"));
  statePath = join(directory, "nested", "state.json");
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function readState(): Promise<{
  version: number;
  subscriptions: Array<{ GUID: string }>;
  workItems: Record<string, unknown>;
}> {
  return JSON.parse(await readFile(statePath, "utf8"));
}

describe("restart", () => {
  it("keeps subscriptions (order, every field), deletions and work items", async () => {
    const first = await EmulatorHarness.start({ statePath });
    const a = await first.subscribe(typeScopedBody({ CustomHeader: "X Key", CustomHeaderValue: "v" }));
    const b = await first.subscribe(objectScopedBody(0, CLOSED));
    const c = await first.subscribe(typeScopedBody({ Webhook: 5 }));
    await first.config("UpdateWebhookSubscription", {
      body: { GUID: a.GUID, ...typeScopedBody({ SubscriberURL: "https://updated.example/" }) },
    });
    await first.config("Unsubscribe", { query: { webHookSubscriptionGUID: b.GUID } });
    await first.admin("PUT", `/work-items/${CLOSED}`, { Closed: true });
    const before = await first.all();
    await first.close();

    const second = await EmulatorHarness.start({ statePath });
    try {
      const after = await second.all();
      expect(after).toEqual(before);
      expect(after.map((s) => s.GUID)).toEqual([a.GUID, c.GUID]);
      expect(after[0]).toMatchObject({
        SubscriberURL: "https://updated.example/",
        Signature: a.Signature,
        CustomHeader: "",
        CustomHeaderValue: null,
      });
      const closed = await second.config("SubscribeToWebhook", { body: objectScopedBody(1, CLOSED) });
      expect(closed.text).toBe("Cannot create subscription for a closed packet.");
      // Counters are not state: they start at zero again.
      expect((await second.admin("GET", "/stats")).json.requests).toEqual({
        GetAllWebhookSubscriptions: 1,
        SubscribeToWebhook: 1,
      });
    } finally {
      await second.close();
    }
  });

  it("persists a reset", async () => {
    const first = await EmulatorHarness.start({ statePath });
    await first.subscribe(typeScopedBody());
    await first.reset();
    await first.close();
    const second = await EmulatorHarness.start({ statePath });
    expect(await second.all()).toEqual([]);
    await second.close();
  });

  it("keeps nothing without a state file", async () => {
    const first = await EmulatorHarness.start();
    await first.subscribe(typeScopedBody());
    await first.close();
    const second = await EmulatorHarness.start();
    expect(await second.all()).toEqual([]);
    await second.close();
  });
});

describe("the state file", () => {
  it("starts empty when the file is missing, creating its directory on the first write", async () => {
    const emulator = await EmulatorHarness.start({ statePath });
    expect(await emulator.all()).toEqual([]);
    const saved = await emulator.subscribe(typeScopedBody());
    expect((await readState()).subscriptions.map((s) => s.GUID)).toEqual([saved.GUID]);
    await emulator.close();
  });

  it("is complete and valid after every acknowledged change, with no temporary files left", async () => {
    const emulator = await EmulatorHarness.start({ statePath });
    // Concurrent mutations are coalesced into few writes, but each is on disk when acknowledged.
    const saved = await Promise.all(Array.from({ length: 40 }, () => emulator.subscribe(typeScopedBody())));
    const state = await readState();
    expect(state.version).toBe(1);
    expect(new Set(state.subscriptions.map((s) => s.GUID))).toEqual(new Set(saved.map((s) => s.GUID)));
    await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: saved[0]?.GUID ?? "" } });
    expect((await readState()).subscriptions).toHaveLength(39);
    // And the lock that names this emulator as the file's one writer (persistenceLock.test.ts).
    expect((await readdir(join(directory, "nested"))).sort()).toEqual(["state.json", "state.json.lock"]);
    await emulator.close();
  });

  it("clears temporary files of crashed writers at start, but not those of live processes", async () => {
    await mkdir(join(directory, "nested"));
    // 2^22 + 1 is above Linux's pid_max, so no process can have it.
    const abandoned = join(directory, "nested", "state.json.4194305.1.tmp");
    const live = join(directory, "nested", `state.json.${process.pid}.1.tmp`);
    await writeFile(abandoned, "{half a wri");
    await writeFile(live, "{in progress");
    const emulator = await EmulatorHarness.start({ statePath });
    expect((await readdir(join(directory, "nested"))).sort()).toEqual([
      `state.json.${process.pid}.1.tmp`,
      "state.json.lock",
    ]);
    await emulator.close();
  });

  it.each([
    ["not JSON", "{ this is not json", "is not valid JSON"],
    [
      "another version",
      JSON.stringify({ version: 2, subscriptions: [], workItems: {} }),
      "is not an emulator state file (version",
    ],
    [
      "a bad subscription",
      JSON.stringify({ version: 1, subscriptions: [{ GUID: "x" }], workItems: {} }),
      "is not an emulator state file (subscriptions.0",
    ],
    ["an empty file", "", "is not valid JSON"],
  ])("refuses to start on %s and leaves the file untouched", async (_name, content, problem) => {
    await rm(join(directory, "nested"), { recursive: true, force: true });
    await writeFile(join(directory, "state.json"), content);
    const path = join(directory, "state.json");
    await expect(startEmulator({ port: 0, statePath: path })).rejects.toThrow(`State file ${path} ${problem}`);
    await expect(startEmulator({ port: 0, statePath: path })).rejects.toThrow("the emulator will not overwrite it");
    expect(await readFile(path, "utf8")).toBe(content);
  });
});

describe("kill -9", () => {
  it("loses no acknowledged change and never leaves a corrupt file", async () => {
    const child = await spawnEmulator(["--port", "0", "--state", statePath]);
    const acknowledged: string[] = [];
    let stopped = false;
    /** Subscribes in a loop until the process dies under it. */
    const worker = async () => {
      while (!stopped) {
        try {
          const response = await fetch(
            `${child.url}/configuration/WebHookSubscription/SubscribeToWebhook?api-version=3`,
            {
              method: "POST",
              headers: { authorization: BUILDER, "content-type": "application/json" },
              body: JSON.stringify(typeScopedBody()),
            },
          );
          if (response.status === 200)
            acknowledged.push(((await response.json()) as { Result: { GUID: string } }).Result.GUID);
        } catch {
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    let exitCode: number | null;
    try {
      await vi.waitFor(
        () => expect(acknowledged.length, "acknowledged Subscribes before the kill").toBeGreaterThanOrEqual(150),
        { timeout: 20_000, interval: 10 },
      );
    } finally {
      // Killed while writes are in flight (and all the same when they never came, so nothing is left running).
      exitCode = await child.stop("SIGKILL");
      stopped = true;
    }
    expect(exitCode).toBeNull();
    // The emulator itself is gone, not just a wrapper process.
    await expect(fetch(`${child.url}/_emulator/stats`)).rejects.toThrow(TypeError);
    await Promise.all(workers);

    const restarted = await EmulatorHarness.start({ statePath });
    try {
      const guids = new Set((await restarted.all()).map((s) => s.GUID));
      expect(acknowledged.filter((guid) => !guids.has(guid))).toEqual([]);
    } finally {
      await restarted.close();
    }
  });
});
