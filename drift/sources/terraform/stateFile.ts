/**
 * A Terraform/OpenTofu state file as a source of the review (`--terraform-state <file>`): a state
 * file (format 4) or the output of `tofu show -json`, read by stateParsing.ts. State only: it
 * claims the subscriptions it records and observes nothing (no CLI runs, nothing is refreshed),
 * so its findings are the classification's: unmanaged beside it, co-owned with another source.
 * A saved plan's JSON is read as the plan it is (readPlan.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { DriftError, DriftErrorCode } from "../../errors";
import type { SourceRef } from "../../review/model";
import { relativeFile } from "../relativeFile";
import type { SourceResult } from "../source";
import { terraformInstances } from "./instances";
import type { PlanJson } from "./planJson";
import { readPlan } from "./readPlan";
import { readTerraformState, TerraformStateError } from "./stateParsing";

/** A state file to review. */
export interface TerraformStateFileOptions {
  /** The file as given on the command line. */
  readonly file: string;
  readonly absFile: string;
  /** Where the review runs: the location is relative to it. */
  readonly cwd: string;
  /** The provider's `WEBHOOKS_*` variables: the instance its subscriptions live on. */
  readonly env: NodeJS.ProcessEnv;
}

/** The plan `text` is, when it is what `show -json` prints for a saved plan (it holds the state the plan started from). */
function planJson(text: string): PlanJson | undefined {
  try {
    const json = JSON.parse(text) as PlanJson & { planned_values?: unknown };
    return json && typeof json === "object" && ("prior_state" in json || "planned_values" in json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads the state; a saved plan's JSON (`tofu show -json review.tfplan`, made in another job of a
 * pipeline) is read as that directory's plan, its differences from the state and, unless it was a
 * `-refresh-only` plan, from the configuration included. One that cannot be read throws a
 * DriftError (`TERRAFORM_STATE`) whose message names the flag, the file and what to do, before
 * anything is read from an instance.
 */
export function readTerraformStateFile(options: TerraformStateFileOptions): SourceResult {
  const source: SourceRef = {
    kind: "terraform-state",
    name: options.file,
    file: relativeFile(options.absFile, options.cwd),
  };
  const plan = existsSync(options.absFile) ? planJson(readFileSync(options.absFile, "utf8")) : undefined;
  if (plan)
    return readPlan(plan, {
      ref: source,
      dir: options.file,
      absDir: dirname(options.absFile),
      cwd: options.cwd,
      cli: { name: "tofu" },
      // A -refresh-only plan has no resource_changes: it compared the state alone.
      stateOnly: plan.resource_changes === undefined,
      env: options.env,
    });
  let subscriptions;
  try {
    subscriptions = readTerraformState(options.absFile, options.file);
  } catch (err) {
    if (err instanceof TerraformStateError)
      throw new DriftError(DriftErrorCode.TerraformState, err.message, { cause: err });
    throw err;
  }
  const { instances, notes } = terraformInstances([{}], [], options.env, options.file);
  return {
    // Its claims alone: nothing of it is compared with the instance.
    report: { source, status: "reviewed", compared: [], instances },
    claims: subscriptions.map((s) => ({
      guid: s.guid,
      address: s.address,
      name: s.address,
      location: { file: source.file },
    })),
    observations: [],
    instances,
    ...(notes.length > 0 ? { notes } : {}),
  };
}
