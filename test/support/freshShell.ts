/**
 * A command run as a user pastes it into a new terminal (`terminalEnv`: none of the PULUMI_*,
 * WEBHOOKS_* or npm_* variables the test runner has): what a printed or documented command
 * needs, it must say itself. For several blocks in one session, see ShellSession.
 */
import { execFile } from "node:child_process";
import { terminalEnv } from "./shellSession";

export interface ShellResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` (lines of shell) in `cwd` with a fresh environment; resolves with its exit code and output. */
export function freshShell(script: string, cwd: string, timeoutMs = 600_000): Promise<ShellResult> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { cwd, env: terminalEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
