/**
 * The comparison with the program: a preview of the stack's program with a refresh, applying
 * nothing and writing nothing to the state (`pulumi preview --refresh`). The engine refreshes every
 * resource from the instance, runs the program, and diffs what it declares against the live values,
 * through the provider's own diff (so "X Api Key" and "X-Api-Key", or an event by name and by
 * number, are equal exactly as `pulumi up` finds them). Every language and both front doors go
 * through it alike: it is the program's own language host (or, for Node.js, the program in-process)
 * that declares the resources.
 */
import type { Stack } from "@pulumi/pulumi/automation";
import { DriftError, DriftErrorCode, failureDetail } from "./errors";
import { programDifferences } from "./programDifferences";
import { ProgramObserver } from "./programObserver";
import type { ProgramDifference } from "./report";

/**
 * The subscriptions whose live values differ from what `stack`'s program declares.
 * @param runProgram refresh with the providers the program configures (`--run-program`), not the
 *   state's: when the state records a credential the instance now refuses.
 */
export async function previewProgram(
  stack: Stack,
  stackName: string,
  runProgram = false,
): Promise<ProgramDifference[]> {
  const observer = new ProgramObserver();
  try {
    await stack.preview({ refresh: true, onEvent: observer.onEvent, ...(runProgram ? { runProgram } : {}) });
  } catch (err) {
    const reason = observer.errors.length > 0 ? observer.errors.join("; ") : failureDetail(err);
    throw new DriftError(
      DriftErrorCode.ProgramPreviewFailed,
      `The preview of stack "${stackName}"'s program, to compare the live subscriptions with what it declares, failed: ${reason}. ` +
        "Nothing was applied. Run the review where the program runs (its language and dependencies installed, as for `pulumi preview`), " +
        "or pass --state-only to compare with the state alone.",
      { cause: err },
    );
  }
  return programDifferences(observer.all());
}
