/**
 * The drift review (`pulumi-webhook-subscriptions/drift`): **sources → findings → renderers**.
 * `reviewDrift` reads any mix of sources (Pulumi stacks, Terraform/OpenTofu working directories and
 * state files, drift/sources/), classifies what they claim against the live instances into
 * findings (drift/review/), and returns the one model (drift/review/model.ts), which `render`
 * prints in each format `webhook-subscriptions drift` offers (drift/render/). Built on the client,
 * the resource's public model (provider/model.ts), the wire vocabulary, and the team's own
 * `pulumi`, `tofu` or `terraform`. The command line (cli/drift.ts) reaches the review only here.
 */
export * from "./review/model";
export { reviewDrift } from "./review/review";
export type { ReviewOptions, StackToReview } from "./review/review";
export { reviewSources, type ReviewSourcesOptions, type SourceReader, type SourcesRead } from "./review/reviewSources";
export { readBaseline } from "./review/baseline";
export { checkParts, mergeReviews, MergeError, type MergePart } from "./review/merge";
export { readParts, type PartFile } from "./review/readParts";
export { readIgnoreFile } from "./review/ignoreFile";
export { invalidIgnoreRule } from "./review/ignore";
export { readPolicyFile, type PolicyInput } from "./review/policy";
export { shellWord } from "./review/shellWord";
export type { AdoptionTarget, Claim, Observation, ReachedInstance, SourceResult } from "./sources/source";
export { legacyReason } from "./sources/pulumi/readStack";
export { findTerraformCli, type TerraformCli } from "./sources/terraform/cli";
export { checkTerraformDirectory } from "./sources/terraform/workingDirectory";
export { readTerraformStateFile } from "./sources/terraform/stateFile";
export { DriftError, DriftErrorCode, toDriftError } from "./errors";
export { EXTENSIONS, FORMATS, formatOfFile, render, type Format, type RenderOptions } from "./render";
export { FOOTER_LINE } from "./render/markdown";
export { sourcesHash } from "./render/sourcesHash";
export { adoptionNames, takenNames, wordsOfGivenName, type AdoptionName } from "./review/adoptionNames";
export { adoptSnippet, headerValueConfigKey } from "./sources/pulumi/adoptionSnippet";
export { reviewEngine } from "./sources/pulumi/openStack";
export { runCli, credentialsIn } from "./sources/terraform/runCli";
export { chdirCommand } from "./sources/terraform/cli";
export type { PlanChange, PlanJson } from "./sources/terraform/planJson";
export { guidKey, isGuid, isUrlPrefix, matchesGuidOrPrefix } from "./review/guid";
export { describeLive } from "./review/liveSubscription";
export { plural } from "./review/plural";
