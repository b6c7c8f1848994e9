/**
 * `--verify` for a Terraform/OpenTofu directory: the team's own `plan` with the adopted
 * configuration, never applied. It passes when every adopted address is imported with no change
 * and nothing else in the directory would change; otherwise each address and field is named.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, type PlanChange, type PlanJson, type TerraformCli } from "../../drift";
import type { Verification } from "./pulumiPreview";

/** The attributes a change would make differ, by name. */
function changedFields(change: PlanChange["change"]): string[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null) && key in after,
  );
}

/** Plans `absDir` with `cli` and checks it against `addresses` (the adopted resources). */
export async function verifyPlan(
  run: { readonly cli: TerraformCli; readonly dir: string; readonly absDir: string; readonly env: NodeJS.ProcessEnv },
  addresses: ReadonlySet<string>,
): Promise<Verification> {
  const scratch = mkdtempSync(join(tmpdir(), "webhooks-adopt-"));
  const planFile = join(scratch, "adopt.tfplan");
  try {
    await runCli(run, ["plan", "-input=false", "-no-color", "-lock=false", `-out=${planFile}`]);
    const text = await runCli(run, ["show", "-json", "-no-color", planFile]);
    const plan = JSON.parse(text.slice(Math.max(0, text.search(/^\{/m)))) as PlanJson;
    const problems: string[] = [];
    const adopted = new Set<string>();
    for (const rc of plan.resource_changes ?? []) {
      const actions = rc.change.actions.join(", ");
      const importing = rc.change.importing != null;
      if (addresses.has(rc.address) && importing) adopted.add(rc.address);
      if (actions === "no-op" || actions === "read") continue;
      const fields = changedFields(rc.change);
      problems.push(
        `${rc.address}: ${importing ? "import, then " : ""}${actions}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`,
      );
    }
    const missing = [...addresses].filter((a) => !adopted.has(a));
    if (missing.length > 0 && problems.length === 0)
      problems.push(
        `the plan imports ${adopted.size} of ${addresses.size}: ${missing.slice(0, 5).join(", ")} not imported`,
      );
    return { adopted: adopted.size, problems };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
