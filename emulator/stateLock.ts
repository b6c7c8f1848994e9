/**
 * One emulator per state file. Two emulators on one file each rewrite it from their own copy of
 * the state, so one's changes silently undo the other's. The emulator therefore holds a lock
 * file beside the state (`<state>.lock`) naming its process and address, and a second emulator
 * refuses at once, saying where the first one listens.
 *
 * The lock is created complete and atomically (written to a temporary file, then hard-linked to
 * its name, which fails when the name exists), so a reader never sees half a holder. A lock whose
 * process is gone (a `kill -9`, a crash) is stale and taken over: a pid check, not an age, so a
 * killed emulator's successor starts at once instead of after a timeout.
 */
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { dirname } from "node:path";
import { isRunning, writeFileAtomic } from "./stateFile";

/** What the lock file says about the emulator that holds the state file. */
export interface LockHolder {
  readonly pid: number;
  /** Its base URL; null while it is still starting (not listening yet). */
  readonly url: string | null;
}

/** The lock file's content: the holder, and which run of its pid holds it. */
interface LockContent extends LockHolder {
  /**
   * Names this process among every process that has had its pid: a container started again gets
   * the same pid, and its own lock from the last run must not look held by itself.
   */
  readonly run: string;
}

const THIS_RUN = randomUUID();

/** Whether the holder still runs: its pid does and, when that is this process's pid, it is this run. */
function holds(holder: LockContent): boolean {
  return holder.pid === process.pid ? holder.run === THIS_RUN : isRunning(holder.pid);
}

/** The lock file of a state file. */
export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/** Another running emulator holds the state file; this one refuses to start. */
export class StateFileInUseError extends Error {
  readonly code = "STATE_FILE_IN_USE";

  constructor(
    readonly statePath: string,
    readonly holder: LockHolder,
  ) {
    const where =
      holder.url === null
        ? "which is still starting"
        : `listening on ${holder.url}: use that one (for example WEBHOOKS_BASE_URL=${holder.url})`;
    super(
      `State file ${statePath} is in use by the emulator of process ${holder.pid}, ${where}, or stop it ` +
        `(kill ${holder.pid}) and start this one again. Two emulators on one state file would undo each ` +
        `other's changes. If no such emulator runs, delete ${lockPathOf(statePath)}.`,
    );
    this.name = "StateFileInUseError";
  }
}

/** The holder as the error message shows it. */
function holderOf({ pid, url }: LockContent): LockHolder {
  return { pid, url };
}

/** Reads the holder a lock file names, or undefined when the file is gone or not a lock. */
async function readHolder(lockPath: string): Promise<LockContent | undefined> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockContent>;
    if (Number.isInteger(parsed.pid) && (typeof parsed.url === "string" || parsed.url === null))
      return { pid: parsed.pid as number, url: parsed.url, run: String(parsed.run) };
  } catch {
    // Not JSON: not ours, treated as stale below.
  }
  return undefined;
}

/** Writes `holder` to `lockPath` only if no lock exists there: false when one does. */
async function createExclusive(lockPath: string, holder: LockContent): Promise<boolean> {
  const temporary = `${lockPath}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(holder), { mode: 0o600 });
  try {
    await link(temporary, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** The lock this process holds on one state file, from `acquire` until `release`. */
export class StateLock {
  private released = false;

  private constructor(
    private readonly statePath: string,
    private holder: LockContent,
  ) {}

  /**
   * Takes the lock of `statePath` for this process, taking over a stale one; throws
   * StateFileInUseError when a running emulator (this process's own included) holds it.
   */
  static async acquire(statePath: string): Promise<StateLock> {
    const lockPath = lockPathOf(statePath);
    await mkdir(dirname(lockPath), { recursive: true });
    const mine: LockContent = { pid: process.pid, url: null, run: THIS_RUN };
    // Twice at most: once as found, once after removing a stale lock.
    for (let attempt = 0; attempt < 2; attempt++) {
      if (await createExclusive(lockPath, mine)) return new StateLock(statePath, mine);
      const holder = await readHolder(lockPath);
      if (holder !== undefined && holds(holder)) throw new StateFileInUseError(statePath, holderOf(holder));
      await unlink(lockPath).catch(() => undefined);
    }
    throw new StateFileInUseError(statePath, holderOf((await readHolder(lockPath)) ?? mine));
  }

  /** Records the address the emulator listens on, for the message a second emulator prints. */
  async recordAddress(url: string): Promise<void> {
    this.holder = { ...this.holder, url };
    await writeFileAtomic(lockPathOf(this.statePath), JSON.stringify(this.holder));
  }

  /** Removes the lock, if it is still this process's. Safe to call twice. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const lockPath = lockPathOf(this.statePath);
    if ((await readHolder(lockPath))?.run === THIS_RUN) await unlink(lockPath).catch(() => undefined);
  }
}
