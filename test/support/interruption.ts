/**
 * Killing an engine operation the way a crashed CI runner would — SIGKILL of the whole process
 * group in the middle of the run — and looking at what it left: the checkpoint at rest, the
 * backend's lock files, and any plugin the dead engine orphaned. Shared by the interrupted-run
 * tests (default and skip-checkpoints mode, through the Automation API) and the packed package's
 * test (plain `pulumi up`).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { expect, vi } from "vitest";
import type { StatsSnapshot } from "../../emulator";
import type { Operation } from "../../provider/wire";
import type { InterruptedRunParameters } from "../e2e/fixtures/interrupted-run";
import type { EmulatorHarness } from "./emulatorHarness";
import { REPO_ROOT } from "./engine";

/** The checkpoint at rest: its resources (by name) and the operations the killed engine left pending. */
export function checkpoint(
  backendDir: string,
  project: string,
  stack: string,
): { resources: string[]; pending: Array<{ type: string; name: string }> } {
  const file = join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
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
export function locks(backendDir: string): string[] {
  const root = join(backendDir, ".pulumi", "locks");
  return existsSync(root)
    ? readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json"))
    : [];
}

/**
 * Deletes the file backend's metadata sidecars (`<stack>.json.attrs`) that a kill left empty or
 * cut short — the backend rewrites the sidecar in place just before it renames the new state in,
 * and a torn one makes every later command fail with `failed to load checkpoint: EOF` — as
 * docs/recovery.md tells users to. Returns the paths it deleted.
 */
export function removeTornSidecars(backendDir: string): string[] {
  const root = join(backendDir, ".pulumi", "stacks");
  const torn = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".attrs"))
    .map((file) => join(root, file))
    .filter((path) => {
      try {
        JSON.parse(readFileSync(path, "utf8"));
        return false;
      } catch {
        return true;
      }
    });
  for (const path of torn) rmSync(path);
  return torn;
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

/** Processes whose working directory is `cwd` (a dead process's cwd cannot be read, so zombies are left out). */
function processesIn(cwd: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`) === cwd) found.push(Number(pid));
    } catch {
      // Not ours to read, or it ended while we looked.
    }
  }
  return found;
}

/**
 * Kills what the dead engine left running in `cwd`: Pulumi starts each plugin (here the
 * dynamic-provider host) in a process group of its own, so killing the engine's group orphans it,
 * as it would on a real runner. Returns the PIDs it found.
 */
function killStrays(cwd: string): number[] {
  const found = processesIn(cwd);
  for (const pid of found) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

/** Bound on waiting for the kernel to finish off SIGKILLed processes: far beyond what it takes, even on a loaded machine. */
const PROCESS_EXIT = { timeout: 15_000, interval: 20 };

/** What the kill waits for; each condition is an event seen on the service or in the state, never a time. */
export interface KillPoint {
  /** The operation whose requests are counted, e.g. `SubscribeToWebhook`. */
  readonly operation: Operation;
  /** At least this many more requests of `operation` have reached the service. */
  readonly after: number;
  /** And this holds too, e.g. the checkpoint records a subscription. @default always */
  readonly until?: () => boolean;
}

/** Requests of `operation` the emulator has received, and API requests received and answered (every operation). */
async function traffic(emulator: Pick<EmulatorHarness, "admin">, operation: Operation) {
  const { requests, status } = (await emulator.admin("GET", "/stats")).json as StatsSnapshot;
  const sum = (counters: Record<string, number>) => Object.values(counters).reduce((a, b) => a + b, 0);
  return { of: requests[operation] ?? 0, received: sum(requests), answered: sum(status) };
}

/** An engine operation to kill: a command run in a process group of its own. */
export interface RunToKill {
  /** What it runs, for messages, e.g. `up`. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Where the run's plugins work: what the dead engine leaves running there is killed after it. */
  readonly workDir: string;
  /** Output that says the run completed, i.e. the kill came too late. */
  readonly completed: RegExp;
}

/** The fixture's engine operation (Automation API, inline program) as a run to kill. */
export function fixtureRun(parameters: InterruptedRunParameters): RunToKill {
  return {
    name: parameters.operation,
    command: join(REPO_ROOT, "node_modules", ".bin", "tsx"),
    args: [join(REPO_ROOT, "test", "e2e", "fixtures", "interrupted-run.ts")],
    cwd: REPO_ROOT,
    env: { ...process.env, INTERRUPTED_RUN: JSON.stringify(parameters) },
    workDir: parameters.workDir,
    completed: new RegExp(`${parameters.operation} finished`),
  };
}

/**
 * Starts `run` in a process group of its own and SIGKILLs the group at `kill`: once `kill.after`
 * more requests of `kill.operation` have reached the service, at least one request of the run
 * has been answered and at least one is still held by the service (a delay fault) — so the kill
 * finds requests answered, in flight and not yet sent — and `kill.until` holds. Then kills the
 * plugins it orphaned and checks that nothing of the run is left. Returns the requests of
 * `kill.operation` seen at the kill.
 */
export async function killMidRun(
  emulator: Pick<EmulatorHarness, "admin">,
  run: RunToKill,
  kill: KillPoint,
): Promise<number> {
  const before = await traffic(emulator, kill.operation);
  const child = spawn(run.command, run.args, {
    cwd: run.cwd,
    // Its own process group: one signal reaches the CLI and whatever serves the program.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: run.env,
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  let ended = false;
  const exited = new Promise<void>((resolve) =>
    child.on("exit", () => {
      ended = true;
      resolve();
    }),
  );

  // Poll the service (and the caller's condition), so the kill lands right at the chosen point.
  let seen = 0;
  await vi.waitFor(
    async () => {
      const now = await traffic(emulator, kill.operation);
      seen = now.of - before.of;
      const answered = now.answered - before.answered;
      const held = now.received - before.received - answered;
      const reached = seen >= kill.after && answered > 0 && held > 0 && (kill.until?.() ?? true);
      expect(
        reached || ended,
        `waiting for ${kill.after} ${kill.operation} requests of the ${run.name} to reach the service, ` +
          `one answered and one still held${kill.until ? ", and the caller's condition" : ""}; ` +
          `seen ${seen}, answered ${answered}, held ${held}:\n${output}`,
      ).toBe(true);
    },
    { timeout: 120_000, interval: 25 },
  );
  expect(ended, `the ${run.name} ended before the kill:\n${output}`).toBe(false);
  process.kill(-child.pid!, "SIGKILL");
  await exited;
  await vi.waitFor(
    () => expect(liveMembers(child.pid!), "processes of the killed group still running").toEqual([]),
    PROCESS_EXIT,
  );
  const strays = killStrays(run.workDir);
  await vi.waitFor(
    () => expect(processesIn(run.workDir), `plugins orphaned by the kill (${strays.join(", ")}) still run`).toEqual([]),
    PROCESS_EXIT,
  );
  expect(output).not.toMatch(run.completed);
  return seen;
}
