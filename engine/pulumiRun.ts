/**
 * One Pulumi CLI process as the Automation API runs one (`PulumiCommand.run`: non-interactive, the
 * CLI's folder first on PATH, PULUMI_AUTOMATION_API set, output streamed to callbacks), without
 * the `pulumi version` that `PulumiCommand.get` runs first (~0.15 s): `npm start` has checked its
 * engine already (engine/provision.ts). A failure throws an error carrying the command's result
 * as the API's CommandError does (`commandResult`: engine/output.ts reads its stderr).
 */
import { spawn } from "node:child_process";
import { delimiter, join } from "node:path";
import type { Engine } from "./provision";

/** What a finished CLI process printed, and its exit code. */
export interface CommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/**
 * Runs `pulumi <args>` in `cwd` with `env` over this process's environment; `input`, when given,
 * is its stdin (how `config set` takes a secret without putting it on a command line).
 */
export type PulumiRun = (
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  onOutput?: (text: string) => void,
  onError?: (text: string) => void,
  input?: string,
) => Promise<CommandResult>;

/** The engine's `pulumi` as a PulumiRun. */
export function pulumiRun(engine: Pick<Engine, "binDir">): PulumiRun {
  const command = join(engine.binDir, "pulumi");
  return (args, cwd, env, onOutput, onError, input) =>
    new Promise((resolve, reject) => {
      const fullArgs = args.includes("--non-interactive") ? [...args] : [...args, "--non-interactive"];
      const child = spawn(command, fullArgs, {
        cwd,
        env: {
          ...process.env,
          ...env,
          // The CLI's own folder first: its bundled plugins and language hosts are the ones that match it.
          PATH: `${engine.binDir}${delimiter}${env.PATH ?? process.env.PATH ?? ""}`,
          PULUMI_AUTOMATION_API: "true",
        },
        stdio: ["pipe", "pipe", "pipe"],
      });
      child.stdin.end(input); // without input, an empty stdin, as "ignore" gives

      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (text: string) => {
        stdout += text;
        onOutput?.(text);
      });
      child.stderr.setEncoding("utf8").on("data", (text: string) => {
        stderr += text;
        onError?.(text);
      });
      child.on("error", reject);
      child.on("close", (code, signal) => {
        const result = { stdout, stderr, code: code ?? -1 };
        if (code === 0) return resolve(result);
        const how = signal ? `signal ${signal}` : `exit ${code}`;
        const error = new Error(`pulumi ${fullArgs.join(" ")} failed (${how}):\n${stderr.trim()}`);
        reject(Object.assign(error, { commandResult: result }));
      });
    });
}
