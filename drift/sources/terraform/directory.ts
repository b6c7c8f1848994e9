/**
 * A Terraform/OpenTofu working directory as a source of the review (`--terraform <dir>`): live,
 * state and configuration compared by ONE plan that is never applied and writes no state,
 *
 *   <cli> plan -input=false -no-color -lock=false -out=<tmp> [-refresh-only]   (in the directory)
 *   <cli> show -json <tmp>                                                      (then the file is deleted)
 *
 * read back by readPlan.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DriftError, DriftErrorCode } from "../../errors";
import type { SourceResult } from "../source";
import { chdirCommand } from "./cli";
import type { PlanJson } from "./planJson";
import { readPlan } from "./readPlan";
import { runCli, type CliRun } from "./runCli";
import { checkTerraformDirectory } from "./workingDirectory";

/** A working directory to review, and how. */
export interface TerraformDirectoryOptions extends CliRun {
  /** `--state-only`: live against the state alone (`plan -refresh-only`), no configuration. */
  readonly stateOnly: boolean;
  /** Where the review runs: locations are relative to it. */
  readonly cwd: string;
}

/**
 * Reviews the directory: checks it (bad input throws before anything runs), plans it once with the
 * team's CLI, and reads the plan back. The plan file (it holds the state's values) lives in a
 * private temporary directory, removed whatever happens. Throws a DriftError when the directory
 * cannot be reviewed.
 */
export async function readTerraformDirectory(options: TerraformDirectoryOptions): Promise<SourceResult> {
  const ref = checkTerraformDirectory({ ...options, cli: options.cli.name });
  const tmp = mkdtempSync(join(tmpdir(), "webhooks-drift-plan-"));
  try {
    const planFile = join(tmp, "review.tfplan");
    // -lock=false: a plan writes no state, so it needs no lock. Taking it would make an apply
    // started during the review fail ("Error acquiring the state lock") and a review during an
    // apply fail or wait; a scheduled review must never break a deploy. It also needs only read
    // access to the backend (no lock table). What a review sees during an apply is the state as
    // far as that apply wrote it: a subscription created but not yet recorded shows as unmanaged.
    await runCli(options, [
      "plan",
      "-input=false",
      "-no-color",
      "-lock=false",
      `-out=${planFile}`,
      ...(options.stateOnly ? ["-refresh-only"] : []),
    ]);
    const text = await runCli(options, ["show", "-json", "-no-color", planFile]);
    let plan: PlanJson;
    try {
      plan = JSON.parse(text.slice(Math.max(0, text.search(/^\{/m)))) as PlanJson;
    } catch (err) {
      throw new DriftError(
        DriftErrorCode.TerraformPlanFailed,
        `--terraform ${options.dir}: \`${options.cli.name} show -json\` printed no JSON (${(err as Error).message}). Run ${chdirCommand(options.cli.name, options.dir, "version")} to check the CLI.`,
        { cause: err },
      );
    }
    return readPlan(plan, { ...options, ref });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
