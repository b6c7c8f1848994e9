/**
 * A finding's field values as text, for the renderers that print them (markdown, JUnit, HTML):
 * one place decides how a value reads and that a secret field reads "secret differs" and nothing
 * else, whatever the model holds.
 */
import { webhookName } from "../../provider/wire";
import type { FieldFinding, FieldValue } from "../review/model";

/** All a secret field ever shows. */
export const SECRET_DIFFERS = "secret differs";

/** The sides of a field, in the order a person reads them. */
export const SIDES = ["declared", "recorded", "live"] as const;

/**
 * One side's value: `—` when that side was not compared (or the subscription is gone), `none` for
 * an empty value, a webhook with its event's name, any other value as JSON would spell it.
 */
export function valueText(field: string, value: FieldValue | undefined): string {
  if (value === undefined) return "—";
  if (value === null || value === "") return "none";
  if (field === "webhook" && typeof value === "number") return `${value} (${webhookName(value) ?? "unknown event"})`;
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The field on one line: `subscriberUrl: declared …, recorded …, live …`, or `signature: secret differs`. */
export function fieldLine(field: FieldFinding): string {
  if (field.secret) return `${field.field}: ${SECRET_DIFFERS}`;
  const sides = SIDES.filter((side) => field[side] !== undefined);
  return `${field.field}: ${sides.map((side) => `${side} ${valueText(field.field, field[side])}`).join(", ")}`;
}
