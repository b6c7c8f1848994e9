/**
 * Enumeration names. The spec sends enumerations as integers only, but the vendor's public
 * documentation shows names in its request and response examples (`"Webhook": "PacketCreated"`,
 * `"FilterObjectType": "None"`), so responses are read with either, and the emulator's
 * `vendor-docs` dialect speaks names. Requests from the client stay integers (spec).
 * The choices are listed with their sources in docs/emulator.md.
 */
import { z } from "zod";
import { Webhook, WEBHOOK_NAMES, type WebhookId } from "./webhook";

/**
 * Other names the vendor's documentation uses for a Webhook member: its list of webhooks calls
 * member 5 `BusinessObjectUpdated` where the spec says `BusinessObjectTypeUpdated`.
 */
export const WEBHOOK_ALIASES: Readonly<Record<string, WebhookId>> = {
  BusinessObjectUpdated: Webhook.BusinessObjectTypeUpdated,
};

/**
 * The service object types whose names the documentation shows: 31 Company, 215 Contract and
 * 217 Service (integers given there), and `None` in the examples of an unset filter, which we
 * map to 0 (the zero value of a .NET enumeration; the documentation gives no integer for it).
 */
export const OBJECT_TYPE_NAMES: Readonly<Record<string, number>> = {
  None: 0,
  Company: 31,
  Contract: 215,
  Service: 217,
};

/** Looks a name up case-insensitively (.NET reads enumeration names that way). */
function lookup(table: Readonly<Record<string, number>>, name: string): number | undefined {
  const wanted = name.trim().toLowerCase();
  for (const [key, value] of Object.entries(table)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

const WEBHOOK_TABLE: Readonly<Record<string, number>> = { ...Webhook, ...WEBHOOK_ALIASES };

/** The Webhook integer of a name (spec names and documented aliases), or undefined. */
export function webhookFromName(name: string): WebhookId | undefined {
  return lookup(WEBHOOK_TABLE, name) as WebhookId | undefined;
}

/** The FilterObjectType integer of a documented name, or undefined. */
export function objectTypeFromName(name: string): number | undefined {
  return lookup(OBJECT_TYPE_NAMES, name);
}

/** The documented name of a FilterObjectType integer, or undefined when the documentation names none. */
export function objectTypeName(value: number): string | undefined {
  return Object.entries(OBJECT_TYPE_NAMES).find(([, id]) => id === value)?.[0];
}

/** Every Webhook name a response may carry, for messages. */
export const KNOWN_WEBHOOK_NAMES: readonly string[] = [...WEBHOOK_NAMES, ...Object.keys(WEBHOOK_ALIASES)];

/**
 * An enumeration field read as its integer (checked by `integer`) or as a name that `fromName`
 * maps to one; an unknown name is an issue quoting the value and the known names, plus `advice`.
 */
export function nameOrInteger(
  integer: z.ZodType<number>,
  fromName: (name: string) => number | undefined,
  known: readonly string[],
  advice: string,
) {
  return z.union([integer, z.string()]).transform((value, ctx) => {
    if (typeof value === "number") return value;
    const mapped = fromName(value);
    if (mapped !== undefined) return mapped;
    ctx.issues.push({
      code: "custom",
      input: value,
      message: `${JSON.stringify(value)} is a name this package cannot map to an integer (known names: ${known.join(", ")}); ${advice}`,
    });
    return z.NEVER;
  });
}
