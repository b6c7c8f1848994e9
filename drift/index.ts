/** Drift review: `reviewDrift` and the report it returns, plus the formats `npm run drift` prints. */
export { reviewDrift, legacyReason, type ReviewDriftOptions } from "./reviewDrift";
export * from "./report";
export { DriftError, DriftErrorCode } from "./errors";
export { formatReport, FORMATS, type Format } from "./format";
export { formatMarkdown } from "./markdown";
