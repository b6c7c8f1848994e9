/**
 * A Terraform/OpenTofu state file as a source of the review (`--terraform-state <file>`): a state
 * file (format 4) or the output of `tofu show -json`, read by drift/terraformState.ts. State only:
 * it claims the subscriptions it records and observes nothing (no CLI runs, nothing is refreshed),
 * so its findings are the classification's: unmanaged beside it, co-owned with another source.
 */
import { relative, sep } from "node:path";
import { DriftError, DriftErrorCode } from "../errors";
import { readTerraformState, TerraformStateError } from "../terraformState";
import type { SourceRef } from "../review/model";
import type { SourceResult } from "./source";
import { terraformInstances } from "./terraformDirectory";

export interface TerraformStateFileOptions {
  /** The file as given on the command line. */
  readonly file: string;
  readonly absFile: string;
  /** Where the review runs: the location is relative to it. */
  readonly cwd: string;
  /** The provider's `WEBHOOKS_*` variables: the instance its subscriptions live on. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Reads the state; one that cannot be read throws a DriftError (`TERRAFORM_STATE`) whose message
 * names the flag, the file and what to do, before anything is read from an instance.
 */
export function reviewTerraformStateFile(options: TerraformStateFileOptions): SourceResult {
  let state;
  try {
    state = readTerraformState(options.absFile, options.file);
  } catch (err) {
    if (err instanceof TerraformStateError)
      throw new DriftError(DriftErrorCode.TerraformState, err.message, { cause: err });
    throw err;
  }
  const source: SourceRef = {
    kind: "terraform-state",
    name: options.file,
    file: relative(options.cwd, options.absFile).split(sep).join("/") || ".",
  };
  const { instances, notes } = terraformInstances([{}], [], options.env, options.file);
  return {
    summary: { source, comparison: "state", status: "reviewed", claimed: state.subscriptions.length },
    claims: state.subscriptions.map((s) => ({ guid: s.guid, address: s.address, location: { file: source.file } })),
    observations: [],
    instances,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
