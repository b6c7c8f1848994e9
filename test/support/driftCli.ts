/** Runs `webhook-subscriptions <command>` from source, as a pipeline would: with the team's `pulumi` on PATH. */
import { execFile } from "node:child_process";
import { delimiter } from "node:path";
import { REPO_ROOT, requireEngine } from "./engine";

/** Runs the drift subcommand with `args`; resolves with its exit code and both streams. */
export function runDriftCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli("drift", args, env);
}

/** Runs `command` with `args`; resolves with its exit code and both streams. */
export function runCli(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "npx",
      ["tsx", "cli/index.ts", command, ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, PATH: `${requireEngine().binDir}${delimiter}${process.env.PATH ?? ""}`, ...env },
        timeout: 300_000,
        maxBuffer: 10 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
