/**
 * `plugin_start` (`npm run bench -- --only plugin`): spawn → port of the native plugin in each
 * packaging, measured side by side (interleaved rounds, medians), CPU time (user + system of the
 * plugin's process when it printed its port, from /proc) beside wall time, which load moves far more:
 *
 * - `executable`: the single executable (scripts/release/executables.ts) for this machine;
 * - `runtime_nodejs`: the `runtime: nodejs` directory as the Node.js language host starts it,
 *   `node <dir>/node_modules/@pulumi/pulumi/cmd/run-plugin <dir>` (the host's own start not counted);
 * - `bundle`: `node <dir>/index.js`, the same bundle with nothing around it.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildExecutables } from "../scripts/release/executables";
import type { Entry } from "./entry";
import { median } from "./median";

const ROOT = join(__dirname, "..");
/** The `runtime: nodejs` plugin directory `npm run build:plugin` writes (its index.js is the bundle). */
export const PLUGIN_DIR = join(ROOT, "dist/plugin/webhooks");
/** The single executable for this machine, built by `ensurePackagings` at each bench run. */
export const EXECUTABLE = join(ROOT, "dist/executables/linux-amd64/pulumi-resource-webhooks");
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

export const PACKAGINGS = ["executable", "runtime_nodejs", "bundle"] as const;
export type Packaging = (typeof PACKAGINGS)[number];

/** One start: wall ms from spawn to the port line, CPU ms the process had used by then. */
export interface Start {
  wallMs: number;
  cpuMs: number;
}

/** The command that starts `packaging` as the engine would (runtime_nodejs: as the Node.js language host would). */
export function command(packaging: Packaging): [string, string[]] {
  if (packaging === "executable") return [EXECUTABLE, []];
  if (packaging === "bundle") return [process.execPath, [join(PLUGIN_DIR, "index.js")]];
  return [process.execPath, [join(PLUGIN_DIR, "node_modules/@pulumi/pulumi/cmd/run-plugin"), PLUGIN_DIR]];
}

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // Fields 14 and 15 of the line (utime, stime) are 12 and 13 after the command's closing ")".
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

/** This bench run's build of the executable (ensurePackagings). */
let executableBuilt: Promise<void> | undefined;

/** Fails unless the plugin directory is built; builds the executable for this machine, once per bench run. */
export async function ensurePackagings(log: (line: string) => void): Promise<void> {
  if (!existsSync(join(PLUGIN_DIR, "index.js"))) throw new Error("plugin_start: run npm run build:plugin first");
  // Built once per bench run, from this tree: one left by an earlier build may predate the change measured.
  executableBuilt ??= (async () => {
    log("building the executable for linux-amd64 from this tree, with its trained code caches…");
    await buildExecutables([{ os: "linux", arch: "amd64" }], { archive: false });
  })();
  await executableBuilt;
}

/**
 * Starts `file <args>` (with `env` over this process's environment) and stops it once it has
 * printed its first output line: the wall ms until then, and the CPU ms it had used.
 */
export async function startToFirstLine(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Start> {
  const started = process.hrtime.bigint();
  const child = spawn(file, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  try {
    await new Promise<void>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`${file}: exited ${code} before printing its first line`)));
      child.stdout.once("data", () => resolve());
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { wallMs, cpuMs: cpuMs(child.pid!) };
  } finally {
    child.removeAllListeners("exit");
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill();
    await exited;
  }
}

function startOnce(packaging: Packaging): Promise<Start> {
  return startToFirstLine(...command(packaging));
}

/** `plugin_start` per packaging: median wall ms (value) and CPU ms, over `rounds` interleaved rounds. */
export async function measurePluginStart(
  rounds: number,
  log: (line: string) => void,
): Promise<Record<Packaging, Entry & { cpu_ms: number }>> {
  await ensurePackagings(log);
  const starts = Object.fromEntries(PACKAGINGS.map((p) => [p, [] as Start[]])) as Record<Packaging, Start[]>;
  for (let round = 0; round < rounds; round++)
    for (const packaging of PACKAGINGS) starts[packaging].push(await startOnce(packaging));
  return Object.fromEntries(
    PACKAGINGS.map((packaging) => {
      const wall = median(starts[packaging].map((s) => s.wallMs));
      const cpu = median(starts[packaging].map((s) => s.cpuMs));
      log(`plugin_start ${packaging}: wall ${wall.toFixed(0)} ms, cpu ${cpu.toFixed(0)} ms`);
      return [
        packaging,
        {
          value: Math.round(wall),
          unit: "ms",
          cpu_ms: Math.round(cpu),
          n: rounds,
          ...(packaging === "executable" ? { goal: "<= 300" } : {}),
        },
      ];
    }),
  ) as Record<Packaging, Entry & { cpu_ms: number }>;
}
