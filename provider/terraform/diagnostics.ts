/**
 * Terraform diagnostics from what the core says: a check's per-field failure (with the attribute's
 * path, so Terraform points at the line in the configuration), or any error. Every text is put in
 * HCL terms (snake_case attribute and setting names, provider/description/hclNames.ts); the core
 * never puts a secret's value in a message, so neither does this.
 */
import { SUBSCRIPTION_FIELDS } from "../core/diff";
import { SETTING_SOURCES } from "../core/settings";
import { inHclTerms, snakeCase } from "../description/hclNames";

/** Diagnostic.Severity of tfplugin6. */
export const ERROR = 1;
export const WARNING = 2;

/** A tfplugin6 Diagnostic, as the service's messages are written. */
export interface Diagnostic {
  severity: number;
  summary: string;
  detail: string;
  attribute?: { steps: { attribute_name: string }[] };
}

/** The model's names a message may use, besides the fields. */
const MODEL_NAMES = [...SUBSCRIPTION_FIELDS, ...Object.keys(SETTING_SOURCES), "adoptGuid", "baseUrl"];

/** A text of the core's in HCL terms. */
export function hclText(text: string): string {
  return inHclTerms(text, MODEL_NAMES);
}

/** The path of a top-level attribute. */
export function attributePath(name: string): Diagnostic["attribute"] {
  return { steps: [{ attribute_name: name }] };
}

/**
 * A diagnostic on the attribute `name` (an HCL name, or the model's, which is translated): the
 * summary names the attribute, the detail is the whole message.
 */
export function attributeError(name: string, message: string, severity = ERROR): Diagnostic {
  const attribute = name.includes("_") || !/[A-Z]/.test(name) ? name : snakeCase(name);
  return {
    severity,
    summary: `Invalid ${attribute}`,
    detail: hclText(message),
    ...(attribute ? { attribute: attributePath(attribute) } : {}),
  };
}

/** An error diagnostic for anything thrown: its message, no stack. */
export function errorDiagnostic(summary: string, err: unknown): Diagnostic {
  const message = err instanceof Error ? err.message : String(err);
  return { severity: ERROR, summary, detail: hclText(message) };
}

/** A warning, as the core's warnings are (whole sentences). */
export function warningDiagnostic(message: string): Diagnostic {
  const text = hclText(message);
  return { severity: WARNING, summary: text.split(/[.:](\s|$)/)[0]!.slice(0, 120), detail: text };
}
