/**
 * Runs `webhook-subscriptions emulator` in a child process, for benchmarks (the load generator must not
 * share the emulator's event loop) and for tests of crashes and signals. Works from the
 * TypeScript sources (through tsx) and from the compiled `dist/` alike.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** A running emulator process. */
export interface EmulatorProcess {
  /** Base URL from the line the command printed. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Sends `signal` (default SIGTERM) and resolves with the exit code (null if killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Node arguments that run the command in ONE process. The tsx CLI would fork a second node
 * process, which survives a SIGKILL sent to the first; loading tsx as a loader avoids that, so
 * `stop("SIGKILL")` really kills the emulator.
 */
function command(): string[] {
  const compiled = join(__dirname, "..", "cli", "index.js");
  if (existsSync(compiled)) return [compiled, "emulator"];
  return ["--import", pathToFileURL(require.resolve("tsx")).href, join(__dirname, "..", "cli", "index.ts"), "emulator"];
}

/** How a run of the command ended: for a start that must fail (a bad flag, a held state file). */
export interface EmulatorRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `webhook-subscriptions emulator` with `args` to its end. */
export function runEmulatorToEnd(args: readonly string[]): Promise<EmulatorRun> {
  const child = spawn(process.execPath, [...command(), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** The command's one line: its address, and the page's under it. */
const LISTENING = /^webhook emulator listening on (\S+) \(API description: \1\/swagger\)$/m;

/**
 * Starts `webhook-subscriptions emulator` with `args` (and `env`, e.g. to pass the admin token
 * out of sight of `ps`) and resolves once it prints its listening line; rejects with its stderr
 * if it exits first or takes longer than `timeoutMs`.
 */
export function spawnEmulator(
  args: readonly string[],
  timeoutMs = 30_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [...command(), ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`emulator did not start within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`emulator exited with code ${code} before listening: ${stderr.trim()}`));
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
      const match = LISTENING.exec(stdout);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        stderr: () => stderr,
        stop(signal = "SIGTERM") {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}
