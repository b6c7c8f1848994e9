/**
 * Between Terraform's values of a `webhooks_subscription` (snake_case attributes, the event by
 * name, unknowns) and the core's (camelCase inputs and outputs, the event as its integer, the
 * UNKNOWN sentinel). Configured attributes keep the configuration's own spelling in plan and state
 * whenever the service holds the same value once normalised (a GUID's case), since Terraform
 * refuses a planned or applied value that differs from the configuration.
 */
import { isDeepStrictEqual } from "node:util";
import { SUBSCRIPTION_FIELDS } from "../core/diff";
import { checkInputs, UNKNOWN } from "../core/inputs";
import type { SubscriptionOutputs } from "../core/outputs";
import { webhookName } from "../wire";
import { camelCase, snakeCase } from "../description/hclNames";
import { WRITE_ONLY_VALUE, WRITE_ONLY_VERSION } from "./schema";
import { Unknown, type Value } from "./values/codec";

/** A block's attribute values by HCL name. */
export type Attributes = Record<string, Value>;

/** The resource's own arguments, by their model name: what checkInputs takes. */
const ARGUMENTS = [...SUBSCRIPTION_FIELDS, "adoptGuid", "rotation"] as const;

/** Attributes only the service (or the provider) sets. */
const COMPUTED = ["id", "guid", "signature", "base_url"] as const;

/**
 * The core's raw inputs from a configuration: null is left out, unknown is the core's UNKNOWN, the
 * write-only header value stands in for `custom_header_value`.
 */
export function inputsOf(config: Attributes): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const field of ARGUMENTS) {
    const value = config[snakeCase(field)];
    if (value === null || value === undefined) continue;
    inputs[field] = value instanceof Unknown ? UNKNOWN : value;
  }
  const writeOnly = config[WRITE_ONLY_VALUE];
  if (writeOnly !== null && writeOnly !== undefined)
    inputs.customHeaderValue = writeOnly instanceof Unknown ? UNKNOWN : writeOnly;
  return inputs;
}

/** Whether an attribute value is not known yet. */
export const isUnknown = (value: Value | undefined): boolean => value instanceof Unknown;

/** The core's outputs (olds) from a state. */
export function outputsOf(state: Attributes): Partial<SubscriptionOutputs> {
  const checked = checkInputs(inputsOf(state)).inputs;
  const known = (value: Value | undefined) =>
    value === null || value === undefined || isUnknown(value) ? undefined : value;
  return {
    ...(checked as Partial<SubscriptionOutputs>),
    filterObjectGuid: (checked.filterObjectGuid as string | undefined) ?? null,
    customHeader: (checked.customHeader as string | undefined) ?? "",
    customHeaderValue: (checked.customHeaderValue as string | undefined) ?? null,
    adoptGuid: (checked.adoptGuid as string | undefined) ?? null,
    rotation: (checked.rotation as string | undefined) ?? null,
    ...(known(state.guid) ? { guid: state.guid as string } : {}),
    ...(known(state.signature) ? { signature: state.signature as string } : {}),
    ...(known(state.base_url) ? { baseUrl: state.base_url as string } : {}),
  };
}

/**
 * The state from the core's outputs. Each argument keeps the spelling of `written` (the plan, or the
 * prior state) when the service holds the same value once normalised; otherwise the service's
 * value shows (drift). The write-only value is never stored; its version is kept as written.
 */
export function stateOf(outs: Partial<SubscriptionOutputs>, written: Attributes): Attributes {
  const normalised = checkInputs(inputsOf(written)).inputs;
  const writeOnly = written[WRITE_ONLY_VERSION] !== null && written[WRITE_ONLY_VERSION] !== undefined;
  const state: Attributes = {};
  const service: Record<string, unknown> = {
    webhook: typeof outs.webhook === "number" ? (webhookName(outs.webhook) ?? String(outs.webhook)) : null,
    filterObjectType: outs.filterObjectType ?? null,
    filterObjectGuid: outs.filterObjectGuid ?? null,
    subscriberUrl: outs.subscriberUrl ?? null,
    customHeader: outs.customHeader ? outs.customHeader : null,
    // Held by the write-only attribute instead: never in state.
    customHeaderValue:
      writeOnly && (written.custom_header_value ?? null) === null ? null : (outs.customHeaderValue ?? null),
    adoptGuid: outs.adoptGuid ?? null,
    rotation: outs.rotation ?? null,
  };
  const liveOf: Record<string, unknown> = { ...outs, customHeader: service.customHeader };
  for (const field of ARGUMENTS) {
    const name = snakeCase(field);
    const own = written[name] ?? null;
    const same =
      own !== null &&
      !isUnknown(own) &&
      isDeepStrictEqual(
        normalised[field],
        field === "customHeaderValue" && writeOnly ? normalised[field] : liveOf[field],
      );
    state[name] = same ? own : ((service[field] ?? null) as Value);
  }
  // An adopted GUID is the subscription's own: what was written stays.
  if (outs.adoptGuid && written.adopt_guid) state.adopt_guid = written.adopt_guid;
  state[WRITE_ONLY_VALUE] = null;
  state[WRITE_ONLY_VERSION] = written[WRITE_ONLY_VERSION] ?? null;
  state.id = outs.guid ?? null;
  state.guid = outs.guid ?? null;
  state.signature = outs.signature ?? null;
  state.base_url = outs.baseUrl ?? null;
  return state;
}

/** A planned create: the configuration, with what only the service knows unknown. */
export function plannedCreate(config: Attributes): Attributes {
  const planned: Attributes = { ...config, [WRITE_ONLY_VALUE]: null };
  for (const name of COMPUTED) planned[name] = new Unknown();
  return planned;
}

/** The model field a changed property is in HCL (the write-only value changes through its version). */
export function attributeOfField(field: string, writeOnly: boolean): string {
  if (field === "customHeaderValue" && writeOnly) return WRITE_ONLY_VERSION;
  return field === "baseUrl" ? "base_url" : snakeCase(field);
}

export { camelCase };
