/**
 * One bash session, used the way a person uses a terminal: blocks of commands run one after the
 * other in the same shell, so exported variables, the working directory and background processes
 * carry over from block to block. The first failing command ends the session (`set -e`), so a
 * broken step is never mistaken for a later one's.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** How long `close` lets the session's processes stop after SIGTERM before it sends SIGKILL. */
const STOP_GRACE_MS = 10_000;

/**
 * The environment of a fresh terminal: this process's, without what the test runner, npm and
 * earlier settings of this project put there (npm's INIT_CWD would even move the bin's `--cwd`).
 */
export function terminalEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const fromRunner = /^(npm_|VITEST|INIT_CWD$|NODE_OPTIONS$|NODE_ENV$|TEST$|PULUMI_)/.test(key);
    // The engine cache stays: it is where a user's earlier `webhook-subscriptions engine` put the CLI.
    const projectSetting = key.startsWith("WEBHOOKS_") && key !== "WEBHOOKS_ENGINE_CACHE";
    if (!fromRunner && !projectSetting) env[key] = value;
  }
  // npm puts the project's node_modules/.bin folders on PATH for its scripts; a terminal has none.
  env.PATH = (env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && !dir.includes("node_modules"))
    .join(delimiter);
  return { ...env, ...extra };
}

export class ShellSession {
  private output = "";
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;
  private readonly blocksDir = mkdtempSync(join(tmpdir(), "shell-blocks-"));
  private blocks = 0;

  private constructor(private readonly shell: ChildProcessWithoutNullStreams) {
    shell.stdout.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    shell.stderr.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) =>
      shell.on("exit", (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  /** Starts bash in `cwd`, in a process group of its own: `close` stops everything started in it. */
  static start(cwd: string, env: NodeJS.ProcessEnv): ShellSession {
    const shell = spawn("bash", ["--noprofile", "--norc"], { cwd, env, detached: true, stdio: "pipe" });
    const session = new ShellSession(shell);
    // One stream, in the order things happened; stop at the first failure.
    shell.stdin.write("exec 2>&1\nset -e -o pipefail\n");
    return session;
  }

  /** Everything the session printed so far. */
  get transcript(): string {
    return this.output;
  }

  /**
   * Runs `script` in the session and resolves with what it printed (background processes'
   * lines included). Rejects, with the transcript, when a command fails: the session has ended.
   */
  async run(script: string): Promise<string> {
    if (this.exit) throw new Error(`the shell has ended (${this.describeExit()}):\n${this.output}`);
    const start = this.output.length;
    const marker = `__block_${++this.blocks}_done__`;
    // Sourced from a file, so the shell has read the whole line before the block runs: a command
    // that reads stdin waits for input, as in a terminal, instead of eating the next commands.
    const file = join(this.blocksDir, `${this.blocks}.sh`);
    writeFileSync(file, `${script}\n`);
    this.shell.stdin.write(`source ${JSON.stringify(file)}; echo ${marker}\n`);
    const done = new Promise<void>((resolve) => {
      const check = () => {
        if (!this.output.includes(`${marker}\n`, start)) return;
        this.shell.stdout.off("data", check);
        resolve();
      };
      this.shell.stdout.on("data", check);
    });
    await Promise.race([done, this.exited]);
    if (!this.output.includes(`${marker}\n`, start))
      throw new Error(`a command failed and ended the shell (${this.describeExit()}):\n${this.output.slice(start)}`);
    return this.output.slice(start, this.output.indexOf(`${marker}\n`, start));
  }

  /** Stops the shell and every process started in it (SIGTERM, then SIGKILL after a grace period). */
  async close(): Promise<void> {
    signalGroup(this.shell.pid, "SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.exited, new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
    clearTimeout(timer);
    // Background processes that outlived the shell are in its group too.
    signalGroup(this.shell.pid, "SIGKILL");
    rmSync(this.blocksDir, { recursive: true, force: true });
  }

  /** `close`, then keeps what the session printed as `.work/e2e/<name>` for the run's reader. */
  async closeKeepingTranscript(name: string): Promise<void> {
    await this.close();
    const dir = join(__dirname, "..", "..", ".work", "e2e");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), this.transcript);
  }

  private describeExit(): string {
    return this.exit?.signal ? `signal ${this.exit.signal}` : `exit code ${this.exit?.code}`;
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch (err) {
    // ESRCH: the group has no process left.
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}
