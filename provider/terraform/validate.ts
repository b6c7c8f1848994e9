/**
 * Validation of a `webhooks_subscription` configuration: the core's check (one failure per field,
 * every bad field at once) plus what only this front door needs:
 *
 * - `custom_header` must be written as the service saves it. The service turns spaces into
 *   hyphens; Terraform refuses an applied value that differs from the configuration, so the
 *   hyphenated form is asked for here rather than planned silently;
 * - the write-only header value needs a client that supports write-only attributes, and excludes
 *   `custom_header_value`.
 */
import { checkInputs, UNKNOWN } from "../core/inputs";
import { normalizeHeaderName } from "../wire";
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
  const header = config.custom_header;
  if (typeof header === "string" && header.includes(" "))
    diagnostics.push(
      attributeError(
        "custom_header",
        `custom_header ${JSON.stringify(header)} contains spaces, which the service saves as hyphens: write it as ${JSON.stringify(normalizeHeaderName(header))}.`,
      ),
    );
  const inputs = inputsOf(config);
  for (const failure of checkInputs(inputs).failures) {
    const field = failure.property === "customHeaderValue" && usesWriteOnly ? WRITE_ONLY_VALUE : failure.property;
    // An unknown value is checked once known; the space rule above already covers the header's form.
    if (inputs[failure.property] === UNKNOWN) continue;
    if (field === "customHeader" && typeof header === "string" && header.includes(" ")) continue;
    diagnostics.push(attributeError(field, failure.reason));
  }
  return diagnostics;
}

export { isUnknown };
