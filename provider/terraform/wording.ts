/**
 * How the Terraform front door's messages name a setting and its knobs (the core's
 * FrontDoorWording): the provider block's snake_case argument, or the variable it falls back to;
 * `-parallelism=N` for fewer operations at once; the `signature` attribute for the receivers.
 */
import type { FrontDoorWording } from "../core/settingWording";
import { snakeCase } from "../description/hclNames";

export const TERRAFORM_WORDING: FrontDoorWording = {
  setting: ({ name, envVar, source }) => {
    if (source === "env") return envVar;
    if (source === "config") return `${snakeCase(name)} in the provider block`;
    return `${snakeCase(name)} in the provider block (or ${envVar})`;
  },
  parallelism: "`-parallelism=N` on plan and apply",
  receiverAdvice:
    "receivers must accept both the old and the new Signature during the overlap (the new one is the resource's signature attribute)",
};
