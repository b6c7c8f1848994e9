/**
 * The stack's refresh preview (`pulumi refresh --preview-only`): the provider's own `read` decides
 * what changed and what is gone, and nothing is written to the state. When the provider refuses
 * the credential the state recorded while the current one works (the list before it was accepted),
 * the preview runs again with the program (`--run-program`), which configures the providers from
 * the current settings, as `pulumi up` would.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { statusLine } from "../provider/client";
import { DriftError, DriftErrorCode, failureDetail } from "./errors";
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
  let observer = new RefreshObserver(refreshProgressReporter(managed, progress));
  try {
    await stack.previewRefresh({ onEvent: observer.onEvent });
    return { observer };
  } catch (err) {
    if (!observer.errors.some(isUnauthorized)) throw refreshFailure(stackName, err, observer.errors);
  }
  progress(
    "the credential the state recorded at the last `pulumi up` was refused, the current one works: " +
      "refresh preview again, running the program (`--run-program`)",
  );
  observer = new RefreshObserver(refreshProgressReporter(managed, progress));
  try {
    await stack.previewRefresh({ onEvent: observer.onEvent, runProgram: true });
  } catch (again) {
    throw refreshFailure(stackName, again, observer.errors);
  }
  return { observer };
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
