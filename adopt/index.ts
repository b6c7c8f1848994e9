/**
 * Adoption (`webhook-subscriptions adopt`): an estate made by scripts, brought under code in one
 * command. Built on the drift review (what each source claims, what the instance holds) and the
 * team's own `pulumi` or `tofu`; the command line (cli/adopt.ts) reaches it only here.
 */
export { adopt, type AdoptInto, type AdoptOptions, type AdoptResult } from "./adopt";
export { AdoptError } from "./errors";
export { invalidMatchRule } from "./match";
export { removeCommand, type DuplicateGroup } from "./duplicates";
export { FOR_EACH_VARIABLE } from "./write/terraform";
export type { Adopted } from "./write/writer";
