/**
 * One emulator per state file: a second emulator on a held `--state` refuses at once, naming the
 * holder's pid and address, and leaves the file alone; the lock of a `kill -9`ed emulator is
 * stale and taken over by the next one.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runEmulatorToEnd, spawnEmulator } from "../../emulator/spawn";
import { lockPathOf, startEmulator, StateFileInUseError } from "../../emulator";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";

let directory: string;
let statePath: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "emulator-lock-"));
  statePath = join(directory, "state.json");
});
afterEach(() => rm(directory, { recursive: true, force: true }));

describe("a held state file", () => {
  it("refuses a second emulator in the same process, naming the holder; free again once it closes", async () => {
    const first = await EmulatorHarness.start({ statePath });
    try {
      await first.subscribe(typeScopedBody());
      const content = await readFile(statePath, "utf8");
      const refused = startEmulator({ port: 0, statePath });
      await expect(refused).rejects.toBeInstanceOf(StateFileInUseError);
      await expect(refused).rejects.toThrow(
        `in use by the emulator of process ${process.pid}, listening on ${first.url}`,
      );
      expect(await readFile(statePath, "utf8")).toBe(content);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPathOf(statePath))).toBe(false);
    const second = await EmulatorHarness.start({ statePath });
    try {
      expect(await second.all()).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("makes the command exit 1 at once, naming the holder's pid and address and how to reach it", async () => {
    const holder = await spawnEmulator(["--port", "0", "--state", statePath]);
    try {
      const second = await runEmulatorToEnd(["--port", "0", "--state", statePath]);
      expect(second.code).toBe(1);
      expect(second.stdout).toBe("");
      expect(second.stderr).toContain(
        `emulator: State file ${statePath} is in use by the emulator of process ${holder.child.pid}, ` +
          `listening on ${holder.url}: use that one (for example WEBHOOKS_BASE_URL=${holder.url}), ` +
          `or stop it (kill ${holder.child.pid})`,
      );
      // The holder serves on, untouched.
      expect((await fetch(`${holder.url}/_emulator/stats`)).status).toBe(200);
    } finally {
      expect(await holder.stop()).toBe(0);
    }
    expect(existsSync(lockPathOf(statePath))).toBe(false);
  });
});

describe("a lock left by a killed emulator", () => {
  it("is detected as stale and taken over by the next emulator, which keeps the state", async () => {
    const killed = await spawnEmulator(["--port", "0", "--state", statePath]);
    const created = await EmulatorHarness.attach(killed.url).subscribe(typeScopedBody());
    expect(await killed.stop("SIGKILL")).toBeNull();
    // The killed process could not remove its lock: it still names it.
    expect(JSON.parse(await readFile(lockPathOf(statePath), "utf8"))).toMatchObject({ pid: killed.child.pid });

    const next = await spawnEmulator(["--port", "0", "--state", statePath]);
    try {
      expect(JSON.parse(await readFile(lockPathOf(statePath), "utf8"))).toMatchObject({
        pid: next.child.pid,
        url: next.url,
      });
      expect((await EmulatorHarness.attach(next.url).all()).map((s) => s.GUID)).toEqual([created.GUID]);
    } finally {
      expect(await next.stop()).toBe(0);
    }
  });

  it("is stale too when it names this very pid from an earlier run (a container started again)", async () => {
    const earlier = { pid: process.pid, url: "http://127.0.0.1:9", run: "an earlier run of this pid" };
    await writeFile(lockPathOf(statePath), JSON.stringify(earlier));
    const emulator = await EmulatorHarness.start({ statePath });
    try {
      expect(JSON.parse(await readFile(lockPathOf(statePath), "utf8"))).toMatchObject({ url: emulator.url });
    } finally {
      await emulator.close();
    }
  });
});
