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

/** What a user brings to the terminal besides the commands. */
export interface ShellInput {
  /** Variables the user set in that terminal (e.g. a passphrase exported before `npm start`). */
  readonly env?: Record<string, string>;
  /** What the user types when a command asks (stdin; closed after it). */
  readonly typed?: string;
}

/** Runs `script` (lines of shell) in `cwd` with a fresh environment; resolves with its exit code and output. */
export function freshShell(
  script: string,
  cwd: string,
  timeoutMs = 600_000,
  { env = {}, typed = "" }: ShellInput = {},
): Promise<ShellResult> {
  return new Promise((resolve) => {
    const child = execFile(
      "bash",
      ["-c", script],
      { cwd, env: terminalEnv(env), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(typed);
  });
}
