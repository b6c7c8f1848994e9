/**
 * Opens the stack to review, read-only. Unlike `openStack` (engine/automation.ts), which
 * creates a missing stack, this only selects: a review must never create a stack in someone's
 * backend, and a mistyped name must be an error that says where it looked.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { LOCAL_PASSPHRASE, projectWorkspace } from "../engine/automation";
import type { Engine } from "../engine/provision";
import { displayBackend, type Backend } from "../engine/backend";
import { existingStacksSentence, stackNames } from "../engine/stackNames";
import { DriftError, DriftErrorCode, commandStderr, engineErrorLines } from "./errors";

export interface ReviewStackOptions {
  readonly engine: Engine;
  readonly stackName: string;
  /** The program directory, holding Pulumi.yaml. */
  readonly workDir: string;
  /** Overrides PULUMI_BACKEND_URL and the project's backend. */
  readonly backendUrl?: string;
  /** Environment overrides for the engine and the provider, over `process.env` (which they inherit). */
  readonly env: Readonly<Record<string, string | undefined>>;
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

  // The program itself never runs: a refresh preview reads state and the instance only. A review
  // writes nothing, so without a passphrase in the environment it may try the local stacks' one.
  const { workspace, backend } = await projectWorkspace({
    ...options,
    env: { PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? LOCAL_PASSPHRASE, ...options.env },
  });
  try {
    return { stack: await Stack.select(options.stackName, workspace), backend };
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
          " Correct --stack (or --cwd); the review never creates a stack.",
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
}
