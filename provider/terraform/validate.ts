/**
 * Validation of a `webhooks_subscription` configuration: the core's check (one failure per field,
 * every bad field at once) plus what only this front door needs:
 *
 * - every value must be written as the service saves it (the core's normalised form): a header
 *   name's spaces become hyphens, a GUID is saved in lower case. Terraform refuses a planned or
 *   applied value that differs from the configuration, and a state that differs only in spelling
 *   would plan an update forever, so the saved form is asked for here;
 * - the write-only header value needs a client that supports write-only attributes, and excludes
 *   `custom_header_value`.
 */
import { checkInputs, UNKNOWN } from "../core/inputs";
import { attributeError, type Diagnostic } from "./diagnostics";
import { WRITE_ONLY_VALUE, WRITE_ONLY_VERSION } from "./schema";
import { inputsOf, isUnknown, type Attributes } from "./state";

/** What the client said it supports (tfplugin6 ClientCapabilities). */
export interface ClientCapabilities {
  readonly write_only_attributes_allowed?: boolean;
}

/** The diagnostics of a configuration; none when it is valid (or not known enough to tell). */
export function validateSubscription(
  config: Attributes,
  capabilities: ClientCapabilities | null | undefined,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const writeOnly = config[WRITE_ONLY_VALUE] ?? null;
  const usesWriteOnly = writeOnly !== null;
  if (usesWriteOnly && !capabilities?.write_only_attributes_allowed)
    diagnostics.push(
      attributeError(
        WRITE_ONLY_VALUE,
        `${WRITE_ONLY_VALUE} is write-only, which this Terraform or OpenTofu does not support (it needs 1.11 or later). ` +
          "Upgrade, or set custom_header_value instead (sensitive: kept out of the output, but stored in state).",
      ),
    );
  if (usesWriteOnly && (config.custom_header_value ?? null) !== null)
    diagnostics.push(
      attributeError(
        WRITE_ONLY_VALUE,
        `${WRITE_ONLY_VALUE} and custom_header_value are both set: set only one (${WRITE_ONLY_VALUE} keeps the value out of state).`,
      ),
    );
  if (usesWriteOnly && (config[WRITE_ONLY_VERSION] ?? null) === null)
    diagnostics.push(
      attributeError(
        WRITE_ONLY_VERSION,
        `${WRITE_ONLY_VERSION} is required with ${WRITE_ONLY_VALUE}: Terraform never stores the value, so it cannot see it change. ` +
          "Set it to a number (e.g. 1) and change it whenever the value changes.",
      ),
    );
  const inputs = inputsOf(config);
  const { failures } = checkInputs(inputs);
  for (const failure of failures) {
    const field = failure.property === "customHeaderValue" && usesWriteOnly ? WRITE_ONLY_VALUE : failure.property;
    // An unknown value is checked once known.
    if (inputs[failure.property] !== UNKNOWN) diagnostics.push(attributeError(field, failure.reason));
  }
  // The saved forms of the fields that passed: those that failed are set aside (as not known yet).
  const passed = { ...inputs, ...Object.fromEntries(failures.map((f) => [f.property, UNKNOWN])) };
  const saved = checkInputs(passed).inputs;
  for (const [field, written] of Object.entries(inputs)) {
    const form = saved[field];
    // Not the event (a name, saved as its number), nor a secret (never shown; saved as written).
    if (typeof written !== "string" || typeof form !== "string" || written === form || form === UNKNOWN) continue;
    if (field === "webhook" || field === "customHeaderValue") continue;
    const why = field === "customHeader" ? "spaces become hyphens" : "in lower case";
    diagnostics.push(
      attributeError(
        field,
        `${field} ${JSON.stringify(written)} is saved by the service as ${JSON.stringify(form)} (${why}): write it as ${JSON.stringify(form)}.`,
      ),
    );
  }
  return diagnostics;
}

export { isUnknown };
