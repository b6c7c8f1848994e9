/**
 * The stack's refresh preview (`pulumi refresh --preview-only`): the provider's own `read` decides
 * what changed and what is gone, and nothing is written to the state. When the provider refuses
 * the credential the state recorded while the current one works (the list before it was accepted),
 * the preview runs again with the program (`--run-program`), which configures the providers from
 * the current settings, as `pulumi up` would.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { statusLine } from "../../../provider/client";
import { DriftError, DriftErrorCode, failureDetail } from "../../errors";
import { refreshProgressReporter } from "./progress";
import { RefreshObserver } from "./refreshObserver";

/** What the refresh preview saw. */
export interface RefreshPreview {
  readonly observer: RefreshObserver;
}

/** Runs the refresh preview of `stack` (`managed` subscriptions, for progress); see the module comment. */
export async function refreshPreview(
  stack: Stack,
  stackName: string,
  managed: number,
  progress: (line: string) => void,
): Promise<RefreshPreview> {
  const run = await withCurrentCredential(
    async (runProgram) => {
      const refresh = new RefreshObserver(refreshProgressReporter(managed, progress));
      try {
        await stack.previewRefresh({ onEvent: refresh.onEvent, ...(runProgram ? { runProgram } : {}) });
        return { refresh };
      } catch (failure) {
        return { refresh, failure: failure ?? new Error("the refresh preview failed") };
      }
    },
    progress,
    "refresh preview again, running the program",
  );
  if (run.failure !== undefined) throw refreshFailure(stackName, run.failure, run.refresh.errors);
  return { observer: run.refresh };
}

/** One run of a preview that refreshes: what its refresh saw, and its failure if it failed. */
export interface RefreshingRun {
  readonly refresh: RefreshObserver;
  readonly failure?: unknown;
}

/**
 * `attempt(false)`, and when it failed because the provider refused the credential the state
 * recorded (a 401 among its refresh's errors), `attempt(true)`: with the program run
 * (`--run-program`), which configures the providers from the current settings, as `pulumi up`
 * would. `again` says what runs the second time.
 */
export async function withCurrentCredential<R extends RefreshingRun>(
  attempt: (runProgram: boolean) => Promise<R>,
  progress: (line: string) => void,
  again: string,
): Promise<R> {
  const first = await attempt(false);
  if (first.failure === undefined || !first.refresh.errors.some(isUnauthorized)) return first;
  progress(
    "the credential the state recorded at the last `pulumi up` was refused, the current one works: " +
      `${again} (\`--run-program\`)`,
  );
  return attempt(true);
}

/** The refresh's failure, with the engine's own diagnostics as the reason. */
export function refreshFailure(stackName: string, err: unknown, diagnostics: readonly string[]): DriftError {
  const reason = diagnostics.length > 0 ? diagnostics.join("; ") : failureDetail(err);
  return new DriftError(
    DriftErrorCode.RefreshFailed,
    `The refresh preview of stack "${stackName}" failed: ${reason}. Nothing was written to the state.`,
    { cause: err },
  );
}

/** Whether an engine diagnostic is a provider's 401 (the client's message starts with the status line). */
export function isUnauthorized(diagnostic: string): boolean {
  return diagnostic.includes(statusLine(401));
}
