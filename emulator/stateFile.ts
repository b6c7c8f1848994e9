/**
 * The state file: what the emulator remembers across restarts, and how it is written so that a
 * crash (even `kill -9`) mid-write never loses or corrupts it.
 *
 * Every write goes to a fresh temporary file beside the target, is fsynced, then renamed over
 * the target (rename is atomic on POSIX file systems), and the directory is fsynced so the
 * rename itself survives a power cut. A reader therefore sees either the old or the new file.
 */
import { mkdir, open, readdir, readFile, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { WireGuid, WireSubscription } from "../provider/wire";

/**
 * A subscription as the emulator stores and returns it: the response shape with every field
 * present (the spec fixes "" and null for the absent optional values).
 */
export const StoredSubscription = WireSubscription.extend({
  FilterObjectGUID: WireGuid.nullable(),
  CustomHeader: z.string(),
  CustomHeaderValue: z.string().nullable(),
}).strict();
export type StoredSubscription = z.infer<typeof StoredSubscription>;

/**
 * Content of the state file, version 1. Work items are keyed by lower-case GUID. `owners` maps a
 * subscription's GUID to the account that created it (the `vendor-docs` dialect's per-user
 * visibility); optional, so files written before it existed still load.
 */
export const PersistedState = z.strictObject({
  version: z.literal(1),
  subscriptions: z.array(StoredSubscription),
  workItems: z.record(WireGuid, z.strictObject({ Closed: z.boolean() })),
  owners: z.record(WireGuid, z.string()).optional(),
});
export type PersistedState = z.infer<typeof PersistedState>;

/** The state of a fresh emulator. */
export function emptyState(): PersistedState {
  return { version: 1, subscriptions: [], workItems: {} };
}

/** The state file exists but cannot be used; the emulator refuses to start rather than overwrite it. */
export class StateFileError extends Error {
  constructor(path: string, problem: string) {
    super(`State file ${path} ${problem}. Fix or move it away; the emulator will not overwrite it.`);
    this.name = "StateFileError";
  }
}

/** Reads the state file; a missing file is an empty state, anything unreadable throws StateFileError. */
export async function loadState(path: string): Promise<PersistedState> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return emptyState();
    throw new StateFileError(path, `cannot be read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  const parsed = PersistedState.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StateFileError(
      path,
      `is not an emulator state file (${issue?.path.join(".") || "top level"}: ${issue?.message})`,
    );
  }
  return parsed.data;
}

let temporaryCounter = 0;

/** Temporary files are named `<file>.<pid>.<n>.tmp`, so leftovers can be traced to their writer. */
function temporaryPath(path: string): string {
  return `${path}.${process.pid}.${++temporaryCounter}.tmp`;
}

/** Whether process `pid` exists (on this machine). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Deletes temporary files left beside `path` by writers that were killed mid-write. */
async function removeAbandonedTemporaries(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  for (const name of await readdir(dirname(path))) {
    if (!name.startsWith(prefix)) continue;
    const pid = /^(\d+)\.\d+\.tmp$/.exec(name.slice(prefix.length))?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) await unlink(join(dirname(path), name)).catch(() => undefined);
  }
}

/** Writes `text` to `path` atomically and durably (see the module comment). */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temporary = temporaryPath(path);
  try {
    const file = await open(temporary, "w", 0o600);
    try {
      await file.writeFile(text, "utf8");
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  const directory = await open(dirname(path), "r");
  try {
    await directory.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  } finally {
    await directory.close();
  }
}

/**
 * Saves snapshots of the state to one file, one write at a time. Saves requested while a write
 * is running are coalesced into a single following write of the then-latest state, so a burst
 * of mutations costs two writes, and every caller's promise resolves only once a write that
 * includes its change is durable.
 */
export class StateWriter {
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    private readonly path: string,
    private readonly snapshot: () => PersistedState,
  ) {}

  /** Creates the directory of the state file if needed and clears what crashed writers left. */
  async prepare(): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    await removeAbandonedTemporaries(this.path);
  }

  /** Resolves when the current state (as of this call) is on disk. */
  save(): Promise<void> {
    if (this.running === null) return this.start();
    // The queued write snapshots when it starts, so it includes this call's change too.
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.start();
      });
    return this.queued;
  }

  /** Resolves when no write is running or queued. */
  async idle(): Promise<void> {
    while (this.running !== null || this.queued !== null) {
      await (this.queued ?? this.running)?.catch(() => undefined);
    }
  }

  private start(): Promise<void> {
    const write = writeFileAtomic(this.path, JSON.stringify(this.snapshot(), null, 2)).finally(() => {
      if (this.running === write) this.running = null;
    });
    this.running = write;
    return write;
  }
}
