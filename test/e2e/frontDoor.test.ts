/**
 * The front door, taken literally: a fresh clone of HEAD, the README's `npm ci && npm start`, then
 * `npm start` again and again (the second run and every later one: no changes, also when the
 * embedded emulator's saved port is taken), then every command block the first run printed —
 * inspect, drift review, clean up — pasted as printed into a fresh shell.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savedPort } from "../../scripts/embeddedEmulator";
import { freshShell, type ShellResult } from "../support/freshShell";
import { whilePortTaken } from "../support/freePort";
import { block, printedBlocks } from "../support/startOutput";
import { REPO_ROOT, requireEngine } from "../support/engine";

const SLOW = 900_000;

/** The last lines of a run, for a failure message. */
const tail = (r: ShellResult) => `exit ${r.code}\n${(r.stdout + r.stderr).split("\n").slice(-40).join("\n")}`;

interface EmulatorState {
  subscriptions: Array<{ GUID: string; SubscriberURL: string; Signature: string }>;
}

describe("the front door: a fresh clone, npm ci && npm start, and every command it prints", () => {
  let clone: string;
  let blocks: Map<string, string>;
  const statePath = () => join(clone, ".emulator", "state.json");
  const state = () => JSON.parse(readFileSync(statePath(), "utf8")) as EmulatorState;

  beforeAll(async () => {
    requireEngine(); // provisioned by the global setup; npm start finds it in the cache
    clone = join(mkdtempSync(join(tmpdir(), "front-door-")), "repo");
    const cloned = await freshShell(
      `git clone --quiet --no-hardlinks ${JSON.stringify(REPO_ROOT)} repo`,
      join(clone, ".."),
    );
    expect(cloned.code, tail(cloned)).toBe(0);
  }, SLOW);
  // The clone with its node_modules: about 350 MB a run.
  afterAll(() => clone && rmSync(dirname(clone), { recursive: true, force: true }));

  it(
    "npm ci && npm start: creates the stack's subscriptions and prints what to do next",
    async () => {
      const first = await freshShell("npm ci --no-audit --no-fund && npm start", clone);
      expect(first.code, tail(first)).toBe(0);
      expect(first.stdout).toMatch(/^\[start\] succeeded: 5 created$/m);
      blocks = printedBlocks(first.stdout);
      expect(state().subscriptions).toHaveLength(4);
    },
    SLOW,
  );

  it(
    "npm start again: no changes",
    async () => {
      const second = await freshShell("npm start", clone);
      expect(second.code, tail(second)).toBe(0);
      expect(second.stdout).toContain("[start] the instance matches the state");
      expect(second.stdout).toMatch(/^\[start\] no changes: the instance matches the program$/m);
    },
    SLOW,
  );

  it(
    "and again with the emulator's saved port taken by another process: it moves, and still no changes",
    async () => {
      const port = savedPort(clone)!;
      await whilePortTaken(port, async () => {
        const third = await freshShell("npm start", clone);
        expect(third.code, tail(third)).toBe(0);
        expect(third.stdout).toContain(`port ${port} of the embedded emulator is taken`);
        // The emulator's move is not reported as a change out of band.
        expect(third.stdout).toMatch(/^\[start\] the instance matches the state$/m);
        expect(third.stdout).toMatch(/^\[start\] no changes: the instance matches the program$/m);
      });
      expect(savedPort(clone)).not.toBe(port);
    },
    SLOW,
  );

  it("the inspect commands, pasted into a fresh shell, show the outputs and their secrets", async () => {
    const inspect = await freshShell(block(blocks, "inspect the stack"), "/");
    expect(inspect.code, tail(inspect)).toBe(0);
    const live = state().subscriptions;
    for (const s of live) expect(inspect.stdout).toContain(s.GUID);
    // --show-secrets: the orders subscription's Signature, not "[secret]".
    expect(live.map((s) => s.Signature).some((signature) => inspect.stdout.includes(signature))).toBe(true);
  });

  it(
    "the drift command, pasted into a fresh shell: exit 0; after an out-of-band edit, exit 2 naming it",
    async () => {
      const drift = block(blocks, "review drift");
      const clean = await freshShell(drift, "/");
      expect(clean.code, tail(clean)).toBe(0);
      expect(clean.stdout).toContain("**No drift** across 1 source. All 4 managed subscriptions are in sync");

      const edited = state();
      const changed = edited.subscriptions[0]!;
      changed.SubscriberURL = "https://out-of-band.example.com/hook";
      writeFileSync(statePath(), JSON.stringify(edited, null, 2));
      const drifted = await freshShell(drift, "/");
      expect(drifted.code, tail(drifted)).toBe(2);
      expect(drifted.stdout).toContain(changed.GUID);
      expect(drifted.stdout).toContain("https://out-of-band.example.com/hook");
    },
    SLOW,
  );

  it(
    "npm start after that out-of-band edit and a deletion: says what the refresh found, and puts both back",
    async () => {
      const edited = state();
      const gone = edited.subscriptions.pop()!;
      writeFileSync(statePath(), JSON.stringify(edited, null, 2));
      const repaired = await freshShell("npm start", clone);
      expect(repaired.code, tail(repaired)).toBe(0);
      expect(repaired.stdout).toMatch(/^\[start\] out of band: 1 changed, 1 gone; the update put them back$/m);
      expect(repaired.stdout).toMatch(/^\[start\] succeeded: 1 created, 1 updated$/m);
      const live = state().subscriptions;
      expect(live).toHaveLength(4);
      expect(live.map((s) => s.SubscriberURL)).not.toContain("https://out-of-band.example.com/hook");
      expect(live.map((s) => s.SubscriberURL)).toContain(gone.SubscriberURL);
    },
    SLOW,
  );

  it("the clean-up command leaves the clone as it was cloned and installed", async () => {
    const cleanUp = await freshShell(block(blocks, "clean up"), "/");
    expect(cleanUp.code, tail(cleanUp)).toBe(0);
    const status = await freshShell("git status --porcelain --ignored", clone);
    expect(status.stdout.split("\n").filter(Boolean).sort()).toEqual(["!! dist/", "!! node_modules/"]);
  });
});
