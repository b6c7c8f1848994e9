/**
 * The comparison with the program: a preview of the stack's program with a refresh, applying
 * nothing and writing nothing to the state (`pulumi preview --refresh`). The engine refreshes every
 * resource from the instance, runs the program, and diffs what it declares against the live values,
 * through the provider's own diff (so "X Api Key" and "X-Api-Key", or an event by name and by
 * number, are equal exactly as `pulumi up` finds them). Every language and both front doors go
 * through it alike: it is the program's own language host that declares the resources, in a process
 * of its own with the program's own `@pulumi/pulumi`, exactly as for `pulumi preview`
 * (openStack.ts). When the program cannot run at all, `programCannotRun` says why and
 * what to install, instead of the engine's words.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { EngineEvent, ProjectSettings, Stack, Workspace } from "@pulumi/pulumi/automation";
import { findProgramEntry } from "../../../engine/automation";
import { filesOnPath, PULUMI_INSTALL_URL } from "../../../engine/pulumiOnPath";
import { commandStderr, DriftError, DriftErrorCode, failureDetail } from "../../errors";
import { programDifferences, type ProgramDifference } from "./programDifferences";
import { ProgramObserver } from "./programObserver";
import { refreshProgressReporter } from "./progress";
import { RefreshObserver } from "./refreshObserver";
import { refreshFailure, type RefreshingRun, type RefreshPreview, withCurrentCredential } from "./refreshPreview";

/** What the preview of the program saw: the refresh of every managed subscription, and the program's steps. */
export interface ProgramPreview extends RefreshPreview {
  /** The subscriptions whose live values differ from what the program declares. */
  readonly differences: ProgramDifference[];
}

/**
 * Previews `stack`'s program with a refresh (see the module comment): one run that both refreshes
 * the `managed` subscriptions, as a refresh preview would (its refresh steps), and compares the
 * program with the live values (its program steps). When the provider refuses the credential the
 * state recorded, it runs again refreshing with the providers the program configures
 * (`--run-program`: refreshPreview.ts's withCurrentCredential).
 */
export async function previewProgram(
  stack: Stack,
  stackName: string,
  managed: number,
  progress: (line: string) => void,
): Promise<ProgramPreview> {
  // An inline program (readStack's `program`) is served from this process: nothing to find on disk.
  if (!stack.workspace.program) await expectProgramOnDisk(stack, stackName);
  const run = await withCurrentCredential(
    (runProgram) => previewOnce(stack, managed, progress, runProgram),
    progress,
    "preview again, refreshing with the providers the program configures",
  );
  if (run.failure !== undefined) throw previewFailure(stack, stackName, managed, run);
  return { observer: run.refresh, differences: programDifferences(run.program.all()) };
}

/** One preview's observers, and its failure if it failed. */
interface PreviewRun extends RefreshingRun {
  readonly program: ProgramObserver;
}

async function previewOnce(
  stack: Stack,
  managed: number,
  progress: (line: string) => void,
  runProgram: boolean,
): Promise<PreviewRun> {
  const refresh = new RefreshObserver(refreshProgressReporter(managed, progress), "program-preview");
  const program = new ProgramObserver();
  const onEvent = (event: EngineEvent) => {
    refresh.onEvent(event);
    program.onEvent(event);
  };
  try {
    await stack.preview({ refresh: true, onEvent, ...(runProgram ? { runProgram } : {}) });
    return { refresh, program };
  } catch (failure) {
    return { refresh, program, failure: failure ?? new Error("the preview failed") };
  }
}

/**
 * Why the preview failed: the program could not run (what to install), the refresh failed (a
 * managed subscription it could not read), or the program's preview did.
 */
function previewFailure(stack: Stack, stackName: string, managed: number, run: PreviewRun): DriftError {
  const { failure, program } = run;
  const cannotRun = programCannotRun(stack, stackName, failure, program.errors);
  if (cannotRun) return cannotRun;
  if (run.refresh.finished < managed) return refreshFailure(stackName, failure, run.refresh.errors);
  const reason = program.errors.length > 0 ? program.errors.join("; ") : failureDetail(failure);
  return new DriftError(
    DriftErrorCode.ProgramPreviewFailed,
    `The preview of stack "${stackName}"'s program, to compare the live subscriptions with what it declares, failed: ${reason}. ` +
      "Nothing was applied. Run the review where the program runs (its language and dependencies installed, as for `pulumi preview`), " +
      "or pass --state-only to compare with the state alone.",
    { cause: failure },
  );
}

/** The project's runtime from Pulumi.yaml (`runtime: yaml`, or `runtime: { name: nodejs, options }`). */
export function runtimeName(project: ProjectSettings): string | undefined {
  return typeof project.runtime === "string" ? project.runtime : project.runtime?.name;
}

/** What the Automation API records as an update's `exec.kind` when it served an inline program. */
const INLINE_EXEC_KIND = "auto.inline";

/**
 * Fails, before any preview, when a Node.js project has no program on disk: no entry where the Node.js language host
 * looks (Pulumi.yaml's `main`, package.json's `main`, index.ts, index.js). The directory decides,
 * because a program on disk is what the language host would run. The stack's last update only
 * words the message: the Automation API records `exec.kind: auto.inline` for an inline program (so
 * does this package's in-process runner, which is why it cannot decide alone: those stacks have
 * their program on disk). Other runtimes' hosts say themselves what they miss.
 */
async function expectProgramOnDisk(stack: Stack, stackName: string): Promise<void> {
  const workDir = stack.workspace.workDir;
  const runtime = runtimeName(await stack.workspace.projectSettings());
  if (runtime !== "nodejs" || findProgramEntry(workDir) !== undefined) return;
  const lastUpdate = await stack.history(1, 1, false).then(
    (updates) => updates[0],
    () => undefined,
  );
  const stateOnly = "Pass --state-only to compare the live subscriptions with the state alone";
  if (lastUpdate?.environment?.["exec.kind"] === INLINE_EXEC_KIND)
    throw new DriftError(
      DriftErrorCode.InlineProgram,
      `Stack "${stackName}" was deployed by an Automation API inline program (its last ${lastUpdate.kind} ran one), ` +
        `so it has no program on disk to compare the live subscriptions with: ${workDir} holds no index.ts or index.js, and no \`main\` in Pulumi.yaml or package.json names a file. ` +
        `${stateOnly}, or review it in the code that deploys it, where its program is: ` +
        '`reviewDrift({ stacks: [{ name, workDir, program }] })` from "pulumi-webhook-subscriptions/drift".',
    );
  throw new DriftError(
    DriftErrorCode.NoProgram,
    `No program in ${workDir} to compare stack "${stackName}" with: its Pulumi.yaml says runtime nodejs, ` +
      "but there is no index.ts or index.js, and no `main` in Pulumi.yaml or package.json names a file. " +
      `Point --cwd at the stack's program directory. ${stateOnly}.`,
  );
}

/** What a project directory installs its dependencies with, by its lockfile. */
function installCommand(workDir: string): string {
  if (existsSync(join(workDir, "pnpm-lock.yaml"))) return "pnpm install";
  if (existsSync(join(workDir, "yarn.lock"))) return "yarn install";
  return "npm install";
}

/**
 * Why `stack`'s program could not run at all, as a DriftError that says what to install or run;
 * undefined when the failure is of another kind (the program ran, and the preview failed). The
 * engine's own words for these (a gRPC serialization failure, "no language plugin found") name no
 * remedy, so they are replaced, never passed on.
 * @param diagnostics the engine's error diagnostics of the failed operation
 */
export function programCannotRun(
  stack: Stack,
  stackName: string,
  err: unknown,
  diagnostics: readonly string[],
): DriftError | undefined {
  const workDir = stack.workspace.workDir;
  const said = [...diagnostics, commandStderr(err) ?? (err instanceof Error ? err.message : String(err))].join("\n");
  const why = programFailureReason(said, workDir);
  if (why === undefined) return undefined;
  return cannotRun(
    stackName,
    workDir,
    `${why} Nothing was applied. Or pass --state-only to compare with the state alone.`,
    err,
  );
}

/**
 * Fails when a Node.js program on disk cannot run for want of `node` on the engine's PATH or of
 * its dependencies (`@pulumi/pulumi` must resolve from its directory): the language host runs it
 * there, and the engine runs the dynamic provider there with `node`. Without them the refresh
 * preview, which comes first, would already fail on the dynamic provider, in words that name no
 * remedy ("could not read plugin …: EOF", "Cannot find module '@pulumi/pulumi/cmd/dynamic-provider'"),
 * so this is asked before anything is read from the instance (openReviewStack). A project without a
 * program on disk is left to `previewProgram`, which says why it has none.
 */
export async function expectRunnableProgram(workspace: Workspace, stackName: string): Promise<void> {
  const runtime = runtimeName(await workspace.projectSettings());
  const entry = runtime === "nodejs" ? findProgramEntry(workspace.workDir) : undefined;
  if (entry === undefined) return;
  const nothingRead = "Nothing was read from the instance.";
  if (filesOnPath("node", workspace.envVars.PATH ?? process.env.PATH).length === 0)
    throw cannotRun(stackName, workspace.workDir, `${NODE_MISSING} ${nothingRead}`);
  try {
    // createRequire, not require.resolve: in the single executable, require loads built-ins only.
    createRequire(entry).resolve("@pulumi/pulumi");
  } catch {
    throw cannotRun(stackName, workspace.workDir, `${dependenciesMissing(workspace.workDir)} ${nothingRead}`);
  }
}

/** Why a Node.js program cannot run without `node`, and what to install. */
const NODE_MISSING =
  "Node.js is not on PATH: the Node.js language host runs the program with `node`, and the engine the dynamic provider. " +
  "Install Node.js (https://nodejs.org/), as for `pulumi preview`.";

/** The review's error for a program that cannot run; `why` ends with what to do. */
function cannotRun(stackName: string, workDir: string, why: string, cause?: unknown): DriftError {
  return new DriftError(
    DriftErrorCode.ProgramCannotRun,
    `The program of stack "${stackName}" (${workDir}) cannot run, so the live subscriptions cannot be compared with it: ${why}`,
    cause === undefined ? undefined : { cause },
  );
}

/** Why a Node.js program cannot run when its dependencies are missing, and what to run. */
function dependenciesMissing(workDir: string): string {
  return (
    `its dependencies are not installed: no @pulumi/pulumi can be found from ${workDir}. ` +
    `Run \`${installCommand(workDir)}\` in ${workDir}, as for \`pulumi preview\`.`
  );
}

/** The reason and remedy for an engine's output that says the program could not run; else undefined. */
export function programFailureReason(said: string, workDir: string): string | undefined {
  const host = /no language plugin '(pulumi-language-[\w-]+)' found/.exec(said)?.[1];
  if (host)
    return (
      `the language host \`${host}\` that runs it is not installed. It comes with the Pulumi CLI ` +
      `(${PULUMI_INSTALL_URL}), in the directory that holds \`pulumi\`: install the CLI that way, or put ${host} on PATH.`
    );
  if (said.includes("It looks like the Pulumi SDK has not been installed")) return dependenciesMissing(workDir);
  const runtime = /could not find (\S+) on the \$PATH/.exec(said)?.[1];
  if (runtime === "node") return NODE_MISSING;
  if (runtime)
    return `\`${runtime}\` is not on PATH: the language host runs the program with it. Install it, as for \`pulumi preview\`.`;
  if (said.includes("Request message serialization failure"))
    return (
      "it loaded two copies of @pulumi/pulumi, and the engine refused what one of them sent. " +
      `\`npm ls @pulumi/pulumi\` in ${workDir} lists them: install one that every package shares (\`npm dedupe\`).`
    );
  return undefined;
}
