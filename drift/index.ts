/**
 * The drift review (`pulumi-webhook-subscriptions/drift`): `reviewDrift`, the report it returns,
 * and the formats `webhook-subscriptions drift` prints. Built on the client, the resource's
 * public model (provider/model.ts), the wire vocabulary and the Automation API.
 */
export { reviewDrift, legacyReason, type ReviewDriftOptions } from "./reviewDrift";
export * from "./report";
export type { SnippetKind } from "./snippet";
export { DriftError, DriftErrorCode } from "./errors";
export { formatReport, FORMATS, type Format } from "./format";
export { formatMarkdown } from "./markdown";
export type { PolicyReview, PolicyViolation } from "./policyReview";
