/** Verifying the messages the service delivers, for the people who receive them. */
export { verifySignature, assertSignature, createVerifier } from "./verifySignature";
export { signatureHeaderName, type ExpectedSignature, type VerifySignatureOptions } from "./options";
export {
  SignatureVerificationError,
  SignatureErrorCode,
  SignatureOptionsError,
  SignatureOptionsErrorCode,
} from "./errors";
export type { HeadersLike, HeaderRecord, HeadersReader } from "./headers";
export { RepeatFilter, RepeatFilterOptionsError, messageKey, type RepeatFilterOptions } from "./repeatFilter";
