/**
 * Opens the stack to review, read-only. Unlike `openStack` (engine/automation.ts), which
 * creates a missing stack, this only selects: a review must never create a stack in someone's
 * backend, and a mistyped name must be an error that says where it looked.
 *
 * The engine is the team's own `pulumi` from PATH (`reviewEngine`), never one built for them, and
 * the program runs through its language host, as `pulumi preview` runs it: never in this process,
 * where a program with its own install of `@pulumi/pulumi` would meet this package's copy.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Stack, StackNotFoundError, type PulumiFn } from "@pulumi/pulumi/automation";
import { inProcess, localPassphraseDefault, projectWorkspace } from "../../../engine/automation";
import type { Engine } from "../../../engine/provision";
import { displayBackend, type Backend } from "../../../engine/backend";
import { PULUMI_INSTALL_URL, pulumiOnPath } from "../../../engine/pulumiOnPath";
import { existingStacksSentence, stackNames } from "../../../engine/stackNames";
import { DriftError, DriftErrorCode, commandStderr, engineErrorLines } from "../../errors";
import { expectRunnableProgram } from "./previewProgram";

export interface ReviewStackOptions {
  readonly engine: Engine;
  readonly stackName: string;
  /** The flag that named it, as messages say. @default "--stack" */
  readonly flag?: string;
  /** The program directory, holding Pulumi.yaml. */
  readonly workDir: string;
  /** Overrides PULUMI_BACKEND_URL and the project's backend. */
  readonly backendUrl?: string;
  /** Environment overrides for the engine and the provider, over `process.env` (which they inherit). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The stack's Automation API inline program, run in this process; none: the program on disk. */
  readonly program?: PulumiFn;
  /**
   * The review will run the program on disk (it is not `--state-only`): a Node.js program needs
   * `node` and its dependencies, or the review fails now, before the instance is read.
   * @default false
   */
  readonly runsProgram?: boolean;
}

export interface ReviewStack {
  readonly stack: Stack;
  readonly backend: Backend;
}

/** Selects `stackName` in the project at `workDir`; see the module comment. */
export async function openReviewStack(options: ReviewStackOptions): Promise<ReviewStack> {
  const workDir = resolve(options.workDir);
  if (!existsSync(join(workDir, "Pulumi.yaml")))
    throw new DriftError(
      DriftErrorCode.NoProject,
      `No Pulumi.yaml in ${workDir}: point --cwd at the program directory of stack "${options.stackName}".`,
    );

  // A review writes nothing, so without a passphrase in the environment it may try the local stacks' one.
  const { workspace, backend } = await projectWorkspace({
    engine: options.engine,
    workDir: options.workDir,
    ...(options.backendUrl === undefined ? {} : { backendUrl: options.backendUrl }),
    env: { ...localPassphraseDefault({ ...process.env, ...options.env }), ...options.env },
    nodeProgram: "language-host",
  });
  if (options.program) workspace.program = inProcess(options.program);
  let stack: Stack;
  try {
    stack = await Stack.select(options.stackName, workspace);
  } catch (err) {
    // Without a URL the backend is the CLI's login, which displayBackend already says.
    const where = backend.url ? `${displayBackend(backend)} (backend from ${backend.source})` : displayBackend(backend);
    if (err instanceof StackNotFoundError) {
      const names = await stackNames(workspace).catch(() => undefined);
      const list =
        backend.url && backend.source !== "Pulumi.yaml"
          ? `PULUMI_BACKEND_URL=${displayBackend(backend)} pulumi stack ls`
          : "pulumi stack ls";
      throw new DriftError(
        DriftErrorCode.StackNotFound,
        `No stack named "${options.stackName}" in ${where} for the project in ${workDir}. ` +
          (names === undefined
            ? `Run \`${list}\` in that directory to see the stacks it has.`
            : existingStacksSentence(names, "pulumi up")) +
          ` Correct ${options.flag ?? "--stack"} (or --cwd); the review never creates a stack.`,
        { cause: err },
      );
    }
    const stderr = commandStderr(err) ?? String(err);
    throw new DriftError(
      DriftErrorCode.Engine,
      `Cannot open stack "${options.stackName}" in ${where}: ${engineErrorLines(stderr).join("; ") || stderr.trim()}`,
      { cause: err },
    );
  }
  if (options.runsProgram && !options.program) await expectRunnableProgram(workspace, options.stackName);
  return { stack, backend };
}

/**
 * The review's engine: the first `pulumi` on the environment's PATH. None is an error that says
 * what to install, thrown before anything is read from the instance; the review never builds one.
 */
export async function reviewEngine(env: Readonly<Record<string, string | undefined>>): Promise<Engine> {
  const engine = await pulumiOnPath(env.PATH);
  if (engine) return engine;
  throw new DriftError(
    DriftErrorCode.PulumiNotFound,
    "The drift review of a Pulumi stack runs the Pulumi CLI, and there is no `pulumi` on PATH. " +
      `Install it (${PULUMI_INSTALL_URL}; it comes with the language hosts that run programs) ` +
      "or put the directory that holds it on PATH, then run the review again.",
  );
}
