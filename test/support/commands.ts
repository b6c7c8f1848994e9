/**
 * Commands as a user runs them in a shell — `pulumi`, `npm`, `git` — for the end-to-end tests
 * that drive the real CLI and language hosts in a project directory.
 */
import { execFile } from "node:child_process";

/** A finished command. */
export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; rejects (with its output) unless it exits with `expected` within `timeoutMs`. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
  expected = 0,
  timeoutMs = 600_000,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...cleanEnv(), ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        if (code === expected) resolve({ code, stdout, stderr });
        else
          reject(
            new Error(
              `${command} ${args.join(" ")} (in ${cwd}) exited ${code}, expected ${expected}:\n${stdout}\n${stderr}`,
            ),
          );
      },
    );
  });
}

/** The test runner's environment without what npm or vitest put there for this repository. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith("npm_") || key === "INIT_CWD" || key.startsWith("VITEST") || key === "NODE_OPTIONS")
      delete env[key];
  return env;
}

/**
 * The last `Resources:` block of a `pulumi` transcript on one line, e.g. "+ 2 created, 1
 * unchanged" (`up` prints the preview's block first); undefined when there is none.
 */
export function resourcesSummary(stdout: string): string | undefined {
  const block = [...stdout.matchAll(/\nResources:\n((?: {4}.*\n)+)/g)].pop()?.[1];
  return block
    ?.trim()
    .split(/\s*\n\s*/)
    .join(", ");
}

/** Exit code of `pulumi preview --expect-no-changes` when the preview proposes changes. */
export const UNEXPECTED_CHANGES_EXIT = 7;
