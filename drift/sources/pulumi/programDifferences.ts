/**
 * Turns what the program's preview would do (programObserver.ts) into the stack's differences from
 * the program: per subscription, the fields whose live value is not the declared one,
 * with both values, and a secret by name alone ("secret differs").
 */
import { changedFields, UNKNOWN } from "../../../provider/model";
import type { FieldFinding, FieldValue, ProgramStep } from "../../review/model";
import { COMPARED_FIELDS, MASKED, SECRET_FIELDS, unwrapValue } from "./fields";
import type { ObservedStep } from "./programObserver";
import { resourceName } from "./stateSnapshot";

/**
 * A subscription whose live values differ from what the program declares, and what `pulumi up`
 * would do: `update` or `replace` the `fields`, `create` one the instance does not hold (no
 * fields), or `delete` one the program no longer declares (no fields).
 */
export interface ProgramDifference {
  readonly urn: string;
  /** The resource's name in the program. */
  readonly name: string;
  /** Null for `create`. */
  readonly guid: string | null;
  readonly step: ProgramStep;
  /** Each field with its `declared` and `live` value (a secret by name alone). */
  readonly fields: readonly FieldFinding[];
}

/** How a declared value that depends on another resource's output reads in the report. */
export const KNOWN_AFTER_APPLY = "(known after apply)";

const COMPARED: ReadonlySet<string> = new Set(COMPARED_FIELDS);

/** A value from a preview event, for the report; undefined when masked (a secret) or absent. */
function shown(value: unknown): FieldValue | undefined {
  const unwrapped = unwrapValue(value);
  if (unwrapped === MASKED) return undefined;
  return unwrapped === UNKNOWN ? KNOWN_AFTER_APPLY : unwrapped;
}

/**
 * Values of a preview event, comparable. Secret fields are left out: events mask them (a null
 * secret output too), so the two sides cannot be compared.
 */
function comparable(values: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values ?? {})
      .filter(([key]) => !SECRET_FIELDS.has(key))
      .map(([key, value]) => [key, unwrapValue(value)]),
  );
}

/**
 * The stored fields a step changes: those the provider's diff names, else those whose declared
 * value differs from the live one. A change no visible field explains is the masked secret's.
 */
function changedStoredFields(step: ObservedStep): string[] {
  // `__provider` (the dynamic provider's serialized code) and other program-side inputs are no
  // live value: a step that changes only them is no difference from the instance.
  if (step.named) return step.fields.filter((field) => COMPARED.has(field));
  const fields: string[] = changedFields(comparable(step.live), comparable(step.declared));
  return fields.length > 0 ? fields : ["customHeaderValue"];
}

/** The fields of one step, as the report shows them; fields the API does not store are left out. */
function fieldDifferences(step: ObservedStep): FieldFinding[] {
  return changedStoredFields(step)
    .sort()
    .map((field) => {
      if (SECRET_FIELDS.has(field)) return { field, secret: true };
      const live = shown(step.live?.[field]);
      const declared = shown(step.declared?.[field]);
      return {
        field,
        secret: false,
        ...(live === undefined ? { live: null } : { live }),
        ...(declared === undefined ? { declared: null } : { declared }),
      };
    });
}

/** The subscriptions whose live values differ from the program, one entry per subscription. */
export function programDifferences(steps: readonly ObservedStep[]): ProgramDifference[] {
  return steps.flatMap((step): ProgramDifference[] => {
    const base = { urn: step.urn, name: resourceName(step.urn), guid: step.id ?? null, step: step.op };
    if (step.op === "create" || step.op === "delete") return [{ ...base, fields: [] }];
    const fields = fieldDifferences(step);
    return fields.length === 0 ? [] : [{ ...base, fields }];
  });
}
