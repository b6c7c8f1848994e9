/**
 * The drift review (`pulumi-webhook-subscriptions/drift`): `reviewSources` reviews any mix of
 * sources (Pulumi stacks, Terraform/OpenTofu directories and state files) in one report, which
 * `render` prints in each format `webhook-subscriptions drift` offers; `reviewDrift` reviews one
 * stack and returns its own report. Built on the client, the resource's public model
 * (provider/model.ts), the wire vocabulary, and the team's own `pulumi`, `tofu` or `terraform`.
 */
export { reviewDrift, legacyReason, type ReviewDriftOptions } from "./reviewDrift";
export { StackStates } from "./stackStates";
export * from "./report";
export type { SnippetKind } from "./snippet";
export { DriftError, DriftErrorCode } from "./errors";
export { formatReport } from "./format";
export { formatMarkdown, type MarkdownOptions } from "./markdown";
export type { Invocation } from "./invocation";
export type { PolicyReview, PolicyViolation } from "./policyReview";
export * from "./review/model";
export {
  reviewSources,
  type ReviewSourcesOptions,
  type StackReader,
  type TerraformReader,
} from "./review/reviewSources";
export type { Claim, Observation, SourceInstance, SourceResult } from "./sources/source";
export { stackRef, stackSource } from "./sources/pulumiStack";
export { findTerraformCli, reviewTerraformDirectory, type TerraformCli } from "./sources/terraformDirectory";
export { reviewTerraformStateFile } from "./sources/terraformStateFile";
export { EXTENSIONS, FORMATS, render, type Format, type RenderOptions } from "./render";
