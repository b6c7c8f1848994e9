/**
 * A plan's change as the fields that differ, each named as the configuration writes it
 * (`subscriber_url`): a Terraform user reads the review in HCL, as they read their plan. A secret
 * (one the plan marks sensitive, or one of the model's secret fields, the write-only header value
 * included) is reported by name alone: no value of the plan reaches a finding.
 */
import { SECRET_OUTPUTS, snakeCase } from "../../../provider/model";
import type { FieldFinding, FieldValue } from "../../review/model";
import type { Json, PlanChange } from "./planJson";

/** Attributes that name the subscription rather than describe it. */
const IDENTITY = new Set(["id", "guid"]);
/** Attributes only the provider sets: unknown after a replace, which is no difference of theirs. */
const COMPUTED = new Set(["id", "guid", "signature", "base_url"]);
/** The model's secret outputs, as attributes (`custom_header_value`, `signature`). */
const SECRET_ATTRIBUTES: ReadonlySet<string> = new Set(SECRET_OUTPUTS.map(snakeCase));
/** The write-only header value (`custom_header_value_wo`) and the version that sends it again. */
const WRITE_ONLY = `${snakeCase("customHeaderValue")}_wo`;

/**
 * The field a finding names for an attribute: the attribute itself, but the write-only value's
 * version, a number that changes only to send the value again, is the write-only value's change.
 */
export function fieldOf(attribute: string): string {
  return attribute.startsWith(WRITE_ONLY) ? WRITE_ONLY : attribute;
}

/** Whether the plan marks `attribute` sensitive on one side (`true` marks the whole object). */
function marked(marks: Json | undefined, attribute: string): boolean {
  if (marks === true) return true;
  if (marks === null || typeof marks !== "object" || Array.isArray(marks)) return false;
  const mark = marks[attribute];
  return mark !== undefined && mark !== false && mark !== null;
}

const shown = (value: Json | undefined): FieldValue =>
  value === undefined || value === null || typeof value !== "object" ? (value ?? null) : JSON.stringify(value);

/**
 * The fields whose values differ between `before` and `after`, each as a `FieldFinding`:
 * `beforeAs`/`afterAs` say which side is recorded, live or declared.
 */
export function differingFields(
  change: PlanChange["change"],
  beforeAs: "recorded" | "live",
  afterAs: "live" | "declared",
): FieldFinding[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const unknown = change.after_unknown;
  const fields = new Map<string, FieldFinding>();
  for (const attribute of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (IDENTITY.has(attribute)) continue;
    const isUnknown = marked(unknown, attribute);
    if (isUnknown && COMPUTED.has(attribute)) continue;
    if (!isUnknown && JSON.stringify(before[attribute] ?? null) === JSON.stringify(after[attribute] ?? null)) continue;
    const field = fieldOf(attribute);
    const secret =
      SECRET_ATTRIBUTES.has(field) ||
      field === WRITE_ONLY ||
      marked(change.before_sensitive, attribute) ||
      marked(change.after_sensitive, attribute);
    if (secret) {
      fields.set(field, { field, secret: true });
      continue;
    }
    if (fields.has(field)) continue;
    fields.set(field, {
      field,
      secret: false,
      [beforeAs]: shown(before[attribute]),
      [afterAs]: isUnknown ? "(known after apply)" : shown(after[attribute]),
    });
  }
  return [...fields.values()];
}

/** The fields' names for a sentence: `custom_header_value, subscriber_url`. */
export const fieldNames = (fields: readonly FieldFinding[]): string => fields.map((f) => f.field).join(", ");
