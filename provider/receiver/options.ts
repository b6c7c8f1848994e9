/**
 * What a receiver configures: the accepted signatures, the product word, the custom header.
 * Checked here (once per call, or once by `createVerifier`), so that a configuration mistake
 * fails loudly with a `SignatureOptionsError` instead of rejecting every genuine message.
 * Messages describe a bad value (its type, "undefined", "an empty array"), never show it.
 */
import { PRODUCT_PATTERN, isHeaderName, normalizeHeaderName } from "../wire/predicates";
import { SignatureOptionsError, SignatureOptionsErrorCode } from "./errors";

/**
 * The subscription's Signature, or several: while an old and a new subscription overlap
 * (a replacement creates the new one before deleting the old), accept both.
 */
export type ExpectedSignature = string | readonly string[];

/** Options of `verifySignature` and `assertSignature`. */
export interface VerifySignatureOptions {
  /**
   * The word in the `x-<product>-signature` header; the same as the provider's
   * `webhooks:productName`. Letters, digits and hyphens; matched case-insensitively.
   * @default "service"
   */
  readonly product?: string;
  /**
   * The subscription's custom header, checked like the signature when given. `name` as in
   * the subscription's `customHeader` (spaces become hyphens, as the service saves it);
   * `value` as in `customHeaderValue`, or several values while an update rolls out.
   * @default undefined (the custom header is not checked)
   */
  readonly customHeader?: {
    readonly name: string;
    readonly value: string | readonly string[];
  };
}

/** Options checked and normalised. */
export interface ResolvedOptions {
  /** Lower-case, e.g. `"x-service-signature"`. */
  readonly signatureHeader: string;
  readonly signatures: readonly string[];
  readonly customHeader: { readonly name: string; readonly values: readonly string[] } | null;
}

/**
 * The service's default product word (the client's DEFAULT_PRODUCT_NAME too; not imported from
 * there so that a receiver does not load the HTTP client).
 */
const DEFAULT_PRODUCT = "service";

/** The signature header for a product word, e.g. `signatureHeaderName("acme")` → `"x-acme-signature"`. */
export function signatureHeaderName(product: string = DEFAULT_PRODUCT): string {
  if (typeof product !== "string" || !PRODUCT_PATTERN.test(product)) {
    throw new SignatureOptionsError(
      SignatureOptionsErrorCode.InvalidProduct,
      `product must be letters, digits and hyphens (the word in x-<product>-signature), got ${JSON.stringify(product)}`,
    );
  }
  return `x-${product.toLowerCase()}-signature`;
}

/** How one list of secrets (signatures, custom header values) is checked. */
interface SecretListRule {
  /** The option as the caller wrote it, e.g. `"expectedSignature"`. */
  readonly option: string;
  /** Names one value in messages, e.g. `"expected signature"` (`"expected signature #2"` in a list). */
  readonly what: string;
  readonly missing: SignatureOptionsErrorCode;
  readonly invalid: SignatureOptionsErrorCode;
  /** What to do when the list is empty. */
  readonly hint: string;
  /** Whether `""` is a value (a custom header may be sent empty; a signature never is). */
  readonly allowEmpty: boolean;
}

/** What a value that holds nothing is, for a message: `undefined`, `null`, an empty string or array. */
function nothing(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  return Array.isArray(value) && value.length === 0 ? "an empty array" : "an empty string";
}

/** The value(s) as an array of strings; messages name a value's position, never the value. */
function secretList(value: unknown, rule: SecretListRule): string[] {
  const list: unknown[] = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  if (list.length === 0 || (!rule.allowEmpty && list.length === 1 && list[0] === "")) {
    throw new SignatureOptionsError(rule.missing, `${rule.option} is ${nothing(value)}: ${rule.hint}`);
  }
  return list.map((item, index) => {
    const position = list.length === 1 ? rule.what : `${rule.what} #${index + 1}`;
    const invalid = (problem: string) => new SignatureOptionsError(rule.invalid, `${position} ${problem}`);
    if (typeof item !== "string") throw invalid(`must be a string, got ${item === null ? "null" : typeof item}`);
    if (item === "" && !rule.allowEmpty) throw invalid("is empty (a stray comma in a list?): remove it");
    // HTTP strips surrounding whitespace from header values, so a padded value could never match.
    if (item.trim() !== item)
      throw invalid("has leading or trailing whitespace (a newline read from a file?): trim it");
    return item;
  });
}

/** Checks and normalises the options; throws `SignatureOptionsError` naming what to fix. */
export function resolveOptions(
  expectedSignature: ExpectedSignature,
  options: VerifySignatureOptions | null = {},
): ResolvedOptions {
  const { product, customHeader: custom } = options ?? {};
  const signatureHeader = signatureHeaderName(product ?? DEFAULT_PRODUCT);
  const signatures = secretList(expectedSignature, {
    option: "expectedSignature",
    what: "expected signature",
    missing: SignatureOptionsErrorCode.NoExpectedSignature,
    invalid: SignatureOptionsErrorCode.InvalidExpectedSignature,
    hint:
      "no message could ever be accepted. Pass the subscription's Signature (`pulumi stack output signature --show-secrets`); " +
      "if the receiver reads it from an environment variable (such as WEBHOOK_SIGNATURE), that variable is not set where it runs.",
    allowEmpty: false,
  });
  if (custom === undefined || custom === null) return { signatureHeader, signatures, customHeader: null };

  const name = typeof custom.name === "string" ? normalizeHeaderName(custom.name.trim()) : "";
  if (!isHeaderName(name)) {
    throw new SignatureOptionsError(
      SignatureOptionsErrorCode.InvalidCustomHeader,
      `customHeader.name must be a header name (the subscription's customHeader), got ${JSON.stringify(custom.name)}`,
    );
  }
  const values = secretList(custom.value, {
    option: "customHeader.value",
    what: "customHeader.value",
    missing: SignatureOptionsErrorCode.InvalidCustomHeader,
    invalid: SignatureOptionsErrorCode.InvalidCustomHeader,
    hint: "pass the subscription's customHeaderValue, or leave customHeader out",
    // The service sends the custom header empty when the subscription has a name but no value.
    allowEmpty: true,
  });
  return { signatureHeader, signatures, customHeader: { name, values } };
}
