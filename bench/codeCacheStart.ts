/**
 * `plugin_start_code_cache` (`npm run bench -- --only cache`): spawn → port of the single
 * executable with and without V8's code cache in its SEA blob, side by side (interleaved rounds,
 * medians), on each platform this machine runs: linux-amd64 natively, linux-arm64 under qemu,
 * windows-amd64 under wine (scripts/release/targets.ts). CPU time is the started process's (and
 * its descendants') user + system from /proc when it printed its port: under qemu the guest runs
 * in that process; under wine it leaves out wineserver's share. Emulation inflates every absolute
 * figure (qemu translates each arm64 instruction; wine adds its own start), so the ratio is what
 * carries over to real hardware, not the milliseconds.
 */
import { spawn } from "node:child_process";
import { closeSync, copyFileSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildExecutables } from "../scripts/release/executables";
import { type Target, targetName } from "../scripts/release/nodeRuntime";
import { executableName } from "../scripts/release/release";
import { ensureTargetTools, runnableTargets, runOnTarget } from "../scripts/release/targets";
import type { Entry } from "./entry";
import { median } from "./median";

const ROOT = join(__dirname, "..");
const WORK = join(ROOT, ".work", "bench-code-cache");
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS = 100;
/** A start under emulation on a loaded machine can take a minute. */
const START_TIMEOUT_MS = 240_000;

const VARIANTS = ["with_cache", "without_cache"] as const;
type Variant = (typeof VARIANTS)[number];

/** user + system ms of `pid` and every process below it (found by their parent pids in /proc). */
function treeCpuMs(pid: number): number {
  const table = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync("/proc").filter((e) => /^\d+$/.test(e))) {
    try {
      // After the command's closing ")": state, ppid, … utime (12th), stime (13th).
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      table.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // exited meanwhile
    }
  }
  let ticks = 0;
  const walk = (p: number): void => {
    ticks += table.get(p)?.ticks ?? 0;
    for (const [child, info] of table) if (info.ppid === p) walk(child);
  };
  walk(pid);
  return (ticks * 1000) / TICKS;
}

/** One start of `binary` on `target`: wall ms to the port line and CPU ms by then. */
async function startOnce(target: Target, binary: string): Promise<{ wallMs: number; cpuMs: number }> {
  const how = runOnTarget(target, binary);
  // Files, not pipes, for every target alike: Node.js under wine cannot write to a pipe.
  const out = join(WORK, "stdout");
  const fds = [openSync(out, "w"), openSync(join(WORK, "stderr"), "w")];
  const started = process.hrtime.bigint();
  const child = spawn(how.command, how.args, { env: how.env, stdio: ["ignore", ...fds] });
  fds.forEach((fd) => closeSync(fd));
  let exited = false;
  child.once("exit", () => (exited = true));
  try {
    for (;;) {
      if (/^\d+\n/.test(readFileSync(out, "utf8"))) break;
      if (exited) throw new Error(`${targetName(target)}: exited before printing its port`);
      if (Number(process.hrtime.bigint() - started) / 1e6 > START_TIMEOUT_MS)
        throw new Error(`${targetName(target)}: no port after ${START_TIMEOUT_MS / 1000} s`);
      await sleep(5);
    }
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { wallMs, cpuMs: treeCpuMs(child.pid!) };
  } finally {
    if (!exited) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill();
      await gone;
    }
  }
}

/**
 * Each runnable target's executable built without and with the cache, copied aside (dist/release/
 * is left alone).
 */
async function buildVariants(): Promise<Record<string, Record<Variant, string>>> {
  rmSync(WORK, { recursive: true, force: true });
  const paths: Record<string, Record<Variant, string>> = {};
  for (const variant of [...VARIANTS].reverse()) {
    await buildExecutables(runnableTargets(), { codeCache: variant === "with_cache", archive: false });
    for (const target of runnableTargets()) {
      const dir = join(WORK, variant, targetName(target));
      mkdirSync(dir, { recursive: true });
      const binary = join(dir, executableName(target.os));
      copyFileSync(join(ROOT, "dist/executables", targetName(target), executableName(target.os)), binary);
      (paths[targetName(target)] ??= {} as Record<Variant, string>)[variant] = binary;
    }
  }
  return paths;
}

/**
 * Per runnable target: median CPU ms of a start with the cache (value) against without
 * (baseline), and the wall medians beside, over `rounds` interleaved rounds.
 */
export async function measureCodeCacheStart(
  rounds: number,
  log: (line: string) => void,
): Promise<Record<string, Entry & { wall_ms: number; baseline_wall_ms: number }>> {
  runnableTargets().forEach(ensureTargetTools);
  const paths = await buildVariants();
  const results: Record<string, Entry & { wall_ms: number; baseline_wall_ms: number }> = {};
  for (const target of runnableTargets()) {
    const name = targetName(target);
    const starts: Record<Variant, { wallMs: number; cpuMs: number }[]> = { with_cache: [], without_cache: [] };
    for (let round = 0; round < rounds; round++)
      for (const variant of VARIANTS) starts[variant].push(await startOnce(target, paths[name]![variant]));
    const [cpu, baseCpu, wall, baseWall] = [
      median(starts.with_cache.map((s) => s.cpuMs)),
      median(starts.without_cache.map((s) => s.cpuMs)),
      median(starts.with_cache.map((s) => s.wallMs)),
      median(starts.without_cache.map((s) => s.wallMs)),
    ];
    log(
      `${name}: cpu ${cpu.toFixed(0)} vs ${baseCpu.toFixed(0)} ms, wall ${wall.toFixed(0)} vs ${baseWall.toFixed(0)} ms`,
    );
    results[name] = {
      value: Math.round(cpu),
      unit: "cpu ms",
      baseline: Math.round(baseCpu),
      ratio: Number((cpu / baseCpu).toFixed(2)),
      n: rounds,
      wall_ms: Math.round(wall),
      baseline_wall_ms: Math.round(baseWall),
      goal: "diagnostic: with the cache / without it; under emulation only the ratio carries over",
    };
  }
  rmSync(WORK, { recursive: true, force: true });
  return results;
}
