/**
 * A command run as a user pastes it into a new terminal: `bash` with only HOME and a PATH without
 * this test run's node_modules/.bin — none of the PULUMI_*, WEBHOOKS_* or npm_* variables the
 * test runner has. What a printed or documented command needs, it must say itself.
 */
import { execFile } from "node:child_process";
import { delimiter } from "node:path";

export interface ShellResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a new login: HOME, and PATH without project-local tool folders. */
export function freshEnv(): NodeJS.ProcessEnv {
  const path = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && !dir.includes("node_modules"))
    .join(delimiter);
  return { HOME: process.env.HOME, PATH: path, LANG: "C.UTF-8" };
}

/** Runs `script` (lines of shell) in `cwd` with a fresh environment; resolves with its exit code and output. */
export function freshShell(script: string, cwd: string, timeoutMs = 600_000): Promise<ShellResult> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { cwd, env: freshEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
