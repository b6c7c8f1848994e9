/**
 * The emulator `npm start` embeds, at a stable address. Every subscription records the address of
 * its instance, so the emulator listens where it listened last time: the port is kept beside its
 * state (.emulator/port) and reused. When another process holds that port, it takes a free one and
 * keeps that instead; the provider then finds the subscriptions on the new address, because the
 * instance the settings name holds their GUIDs (docs/multi-instance.md).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { startEmulator, type RunningEmulator } from "../emulator";
import { loadState } from "../emulator/stateFile";

export const EMULATOR_DIR = ".emulator";
const STATE_FILE = "state.json";
const PORT_FILE = "port";

/** The port the embedded emulator of `root` listened on last, if it has run there. */
export function savedPort(root: string): number | undefined {
  const file = join(root, EMULATOR_DIR, PORT_FILE);
  if (!existsSync(file)) return undefined;
  const port = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
}

/** Whether the embedded emulator of `root` holds any state yet (a first `npm start` has run). */
export function hasState(root: string): boolean {
  return existsSync(join(root, EMULATOR_DIR, STATE_FILE));
}

/**
 * How many subscriptions the embedded emulator of `root` holds in its saved state: while there are
 * any, a stack moving to another instance still has subscriptions to unsubscribe there.
 */
export async function heldSubscriptions(root: string): Promise<number> {
  return hasState(root) ? (await loadState(join(root, EMULATOR_DIR, STATE_FILE))).subscriptions.length : 0;
}

/**
 * Starts the embedded emulator of `root` on its saved port, or a free one (then saved).
 * `adminToken`: a token it also accepts as a Builder (besides its dev tokens, on loopback).
 */
export async function startEmbeddedEmulator(
  root: string,
  say: (line: string) => void,
  { adminToken }: { adminToken?: string } = {},
): Promise<RunningEmulator> {
  const statePath = join(root, EMULATOR_DIR, STATE_FILE);
  const options = { statePath, ...(adminToken === undefined ? {} : { adminToken }) };
  const saved = savedPort(root);
  if (saved !== undefined) {
    try {
      return await startEmulator({ port: saved, ...options });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
      say(`port ${saved} of the embedded emulator is taken by another process; it moves to a free port`);
    }
  }
  const emulator = await startEmulator({ port: 0, ...options });
  const portFile = join(root, EMULATOR_DIR, PORT_FILE);
  mkdirSync(dirname(portFile), { recursive: true });
  writeFileSync(portFile, `${emulator.port}\n`);
  return emulator;
}
