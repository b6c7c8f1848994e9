/**
 * Taking over an unmanaged subscription on an instance a Terraform/OpenTofu directory reaches:
 * the `import` block to paste into that directory's configuration, and the advice after a killed
 * `apply`, whose creates that were never recorded are unmanaged.
 */
import type { Subscription } from "../../../provider/wire";
import type { AdoptionName } from "../../review/adoptionNames";
import type { AdoptionTarget } from "../source";
import { chdirCommand, type TerraformCli } from "./cli";
import { TERRAFORM_SUBSCRIPTION_TYPE } from "./stateParsing";

/**
 * The `import` block that takes `live` over into the directory's configuration (Terraform 1.5+,
 * every OpenTofu): its `apply` records the subscription in the state without changing it, once a
 * `resource` block of that name declares it.
 */
export function terraformAdoption(
  live: Subscription,
  _target: Extract<AdoptionTarget, { kind: "terraform-directory" }>,
  name: AdoptionName,
): { kind: "terraform-import"; snippet: string } {
  const snippet = [
    "import {",
    `  to = ${TERRAFORM_SUBSCRIPTION_TYPE}.${name.snake}`,
    `  id = ${JSON.stringify(live.guid)}`,
    "}",
  ].join("\n");
  return { kind: "terraform-import", snippet };
}

/**
 * What to do about an unmanaged subscription on an instance a Terraform directory reaches: after
 * a killed `tofu apply`, its creates that were never recorded are unmanaged, and
 * `adopt_identical = true` in the provider block makes the next apply's create take each over
 * (an identical one: same event, scope, URL and header name) instead of creating a second.
 */
export function terraformAdoptionAdvice(dir: string, guid?: string, cli: TerraformCli["name"] = "tofu"): string {
  const id = guid ?? "<guid>";
  return (
    `If a killed \`${cli} apply\` in ${dir} created it, set \`adopt_identical = true\` in the \`provider "webhooks"\` block ` +
    `and run ${chdirCommand(cli, dir, "apply")}: the create takes over this identical subscription instead of making a second ` +
    `(then remove the setting again: an identical subscription may be another configuration's). ` +
    `To manage it from ${dir} otherwise, declare it and import it: an \`import\` block with \`to = ${TERRAFORM_SUBSCRIPTION_TYPE}.<name>\` ` +
    `and \`id = "${id}"\`, or ${chdirCommand(cli, dir, `import ${TERRAFORM_SUBSCRIPTION_TYPE}.<name> ${id}`)}.`
  );
}
