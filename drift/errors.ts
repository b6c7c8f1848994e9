/**
 * Why a drift review failed, said plainly: one error class with a stable `code`, and one
 * factory that turns whatever was thrown (client errors, Automation API command errors,
 * settings errors) into it, with credentials removed.
 */
import { failureDetail } from "../engine/output";
import { redact, WebhookApiError } from "../provider/client";

export { commandStderr, engineErrorLines, failureDetail } from "../engine/output";

/** Stable kinds of failure of the review itself; API failures keep the client's code (UNAUTHORIZED, TRANSPORT, …). */
export const DriftErrorCode = {
  /** The directory holds no Pulumi.yaml. */
  NoProject: "NO_PROJECT",
  /** The backend has no stack of that name. */
  StackNotFound: "STACK_NOT_FOUND",
  /** The engine could not be provisioned or the backend could not be opened. */
  Engine: "ENGINE",
  /** No `pulumi` on PATH: the review uses the team's own CLI and never builds one. */
  PulumiNotFound: "PULUMI_NOT_FOUND",
  /** The stack was deployed by an Automation API inline program: no program on disk to compare with. */
  InlineProgram: "INLINE_PROGRAM",
  /** The project directory holds no program to compare with (a Node.js project without an entry file). */
  NoProgram: "NO_PROGRAM",
  /** The program could not run at all: its language host, runtime or dependencies are missing. */
  ProgramCannotRun: "PROGRAM_CANNOT_RUN",
  /** The refresh preview failed. */
  RefreshFailed: "REFRESH_FAILED",
  /** The preview of the stack's program (to compare the live instance with it) failed. */
  ProgramPreviewFailed: "PROGRAM_PREVIEW_FAILED",
  /** The refresh preview left a managed subscription unreported. */
  RefreshIncomplete: "REFRESH_INCOMPLETE",
  /** `--terraform <dir>` names no initialised Terraform/OpenTofu working directory. */
  TerraformDirectory: "TERRAFORM_DIRECTORY",
  /** Neither `tofu` nor `terraform` is on PATH, or `--terraform-cli` names no executable. */
  TerraformCliMissing: "TERRAFORM_CLI_MISSING",
  /** The directory's plan (or its `show -json`) failed. */
  TerraformPlanFailed: "TERRAFORM_PLAN_FAILED",
  /** `--terraform-state <file>` cannot be read as a state. */
  TerraformState: "TERRAFORM_STATE",
  /** Something not foreseen; the message says what. */
  Unexpected: "UNEXPECTED",
} as const;

/** A failed review. `message` is meant for the person running the pipeline. */
export class DriftError extends Error {
  override readonly name = "DriftError";
  /** A `DriftErrorCode` or, for API failures, the client's error code. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** Where the failure happened, for the message. */
export interface FailureContext {
  readonly stack: string;
  /** Values that must never appear in a message (token, client secret). */
  readonly secrets: readonly (string | undefined)[];
}

/** Turns anything thrown during a review into a DriftError whose message names the stack and holds no secret. */
export function toDriftError(err: unknown, context: FailureContext): DriftError {
  const clean = (text: string) => redact(text, context.secrets);
  if (err instanceof DriftError) return new DriftError(err.code, clean(err.message), { cause: err });
  if (err instanceof WebhookApiError) {
    return new DriftError(err.code, clean(`Cannot review drift of stack "${context.stack}": ${err.message}`), {
      cause: err,
    });
  }
  return new DriftError(
    DriftErrorCode.Unexpected,
    clean(`Drift review of stack "${context.stack}" failed: ${failureDetail(err)}`),
    { cause: err },
  );
}
