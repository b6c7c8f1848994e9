/**
 * The WebhookSubscription input model: one camelCase zod schema, the `check` step built on it,
 * and the one place that says how "none" is written. Pure, no API calls. The field rules are the
 * wire layer's predicates, so `check`, the client and the emulator agree; every failure names
 * the field, shows the bad value (never a secret's) and says what to do.
 */
import { z } from "zod";
import {
  EMPTY_GUID,
  Webhook,
  WEBHOOK_NAMES,
  WireGuid,
  WireObjectType,
  headerNameSpacesProblem,
  headerValueProblem,
  isGuid,
  isHeaderName,
  isObjectScoped,
  isWebhookId,
  normalizeGuid,
  normalizeHeaderName,
  reservedHeaderReason,
  subscriberUrlProblem,
  webhookName,
  type Subscription,
} from "../wire";

/** Placeholder the engine sends for values not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** JSON rendering of a bad value for messages; secrets are never passed here. */
function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

/** People write "not set" as absent, null or "". */
const isUnset = (value: unknown): boolean => value === null || value === "";

/** A field that must be set: null and "" count as missing. */
function required<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (isUnset(value) ? undefined : value), schema);
}

/** A field that may be left unset (absent, null or ""): it is then left out. */
function optional<T extends z.ZodType>(schema: T, isNone = isUnset) {
  return z.preprocess((value) => (isNone(value) ? undefined : value), schema.optional());
}

/** A header name is checked as the service saves it (spaces become hyphens); the message shows what was written. */
const customHeader = z
  .string()
  .superRefine((name, ctx) => {
    const saved = normalizeHeaderName(name);
    const spaces = headerNameSpacesProblem(name);
    if (spaces !== undefined)
      ctx.addIssue({
        code: "custom",
        message:
          `customHeader has leading, trailing or repeated spaces, got: ${show(name)}, which the service would save as ${show(saved)}. ` +
          (spaces.suggested === ""
            ? 'Write the header name, e.g. "X Api Key" (saved as "X-Api-Key"), or remove customHeader.'
            : `Write ${show(spaces.suggested)} instead (saved as ${show(normalizeHeaderName(spaces.suggested))}).`),
      });
    else if (!isHeaderName(saved))
      ctx.addIssue({
        code: "custom",
        message: `customHeader must be a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~-; spaces become hyphens), got: ${show(name)}.`,
      });
    else {
      const reserved = reservedHeaderReason(saved);
      if (reserved !== undefined)
        ctx.addIssue({
          code: "custom",
          message: `customHeader must not replace a header the service sets itself (${reserved}), got: ${show(name)}. Choose another name, e.g. "X-Api-Key".`,
        });
    }
  })
  .transform(normalizeHeaderName);

/** The value is a secret: a failure describes it, never shows it. */
const customHeaderValue = z.string().superRefine((value, ctx) => {
  const problem = headerValueProblem(value);
  if (problem !== undefined)
    ctx.addIssue({
      code: "custom",
      message: `customHeaderValue must not contain line breaks, NUL or other control characters, or characters beyond Latin-1 (it is sent as an HTTP header value); it contains ${problem}.`,
    });
});

const subscriberUrl = z.string().superRefine((url, ctx) => {
  const problem = subscriberUrlProblem(url);
  if (problem === undefined) return;
  const message = {
    whitespace: `subscriberUrl must not contain spaces or line breaks, got: ${show(url)}. Percent-encode them.`,
    credentials:
      "subscriberUrl must not embed credentials (user:password@); send a secret with customHeader and customHeaderValue instead.",
    scheme: `subscriberUrl must be an absolute http(s) URL, got: ${show(url)} (scheme ${problem.kind === "scheme" ? problem.scheme : ""}).`,
    "not-absolute": `subscriberUrl must be an absolute http(s) URL, got: ${show(url)}. Include the scheme and host, e.g. "https://hooks.example.com/orders".`,
  }[problem.kind];
  ctx.addIssue({ code: "custom", message });
});

/** The fields, as they are once known. */
const FIELDS = {
  webhook: z.preprocess(
    (value) =>
      typeof value === "string" && Object.hasOwn(Webhook, value) ? Webhook[value as keyof typeof Webhook] : value,
    // `id` names the enum, so the native plugin's schema declares it as the type `Webhook`.
    z.enum(Webhook).meta({ id: "Webhook" }),
  ),
  filterObjectType: WireObjectType,
  // The all-zero GUID is how some instances write "no filter"; the service reads it so too.
  filterObjectGuid: optional(WireGuid.transform(normalizeGuid), (value) => isUnset(value) || value === EMPTY_GUID),
  subscriberUrl: required(subscriberUrl),
  customHeader: optional(customHeader),
  // "" is a value (an empty header); only null means none.
  customHeaderValue: optional(customHeaderValue, (value) => value === null),
  adoptGuid: optional(WireGuid.transform(normalizeGuid)),
  rotation: optional(z.string()),
};
type Field = keyof typeof FIELDS;

/** Inputs as stored in state after check: normalised, enums as integers, absent fields left out. */
export type SubscriptionInputs = z.output<z.ZodObject<typeof FIELDS>>;

const WEBHOOK_CHOICES = `one of ${WEBHOOK_NAMES.map((n) => `"${n}"`).join(", ")} or its integer 0..5 (use the Webhook object)`;

/** The message for a value that fails a field's type or format, by field (refinements carry their own). */
const FIELD_MESSAGES: Record<Field, (input: unknown) => string> = {
  webhook(input) {
    if (input === undefined || input === null) return `webhook is required: ${WEBHOOK_CHOICES}.`;
    const match =
      typeof input === "string" ? WEBHOOK_NAMES.find((n) => n.toLowerCase() === input.toLowerCase()) : undefined;
    return `webhook ${show(input)} is not a known event${match ? ` (did you mean "${match}"?)` : ""}; use ${WEBHOOK_CHOICES}.`;
  },
  filterObjectType: (input) =>
    input === undefined || input === null
      ? "filterObjectType is required: the service object type integer of the object the subscription filters by (e.g. 2)."
      : `filterObjectType must be a non-negative integer (a service object type), got: ${show(input)}.`,
  filterObjectGuid: (input) =>
    `filterObjectGuid must be a GUID like "6f1c2a3b-0000-4000-8000-000000000001", got: ${show(input)}.`,
  subscriberUrl: (input) =>
    input === undefined || isUnset(input)
      ? 'subscriberUrl is required: the absolute http(s) URL that receives the messages, e.g. "https://hooks.example.com/orders".'
      : `subscriberUrl must be a string, got: ${show(input)}.`,
  customHeader: (input) => `customHeader must be a string (an HTTP header name), got: ${show(input)}.`,
  customHeaderValue: (input) => `customHeaderValue must be a string, got a ${typeof input}.`,
  adoptGuid: (input) =>
    `adoptGuid must be the GUID of an existing subscription (\`npx webhook-subscriptions drift --stack <stack>\` lists the unmanaged ones), got: ${show(input)}.`,
  rotation: (input) =>
    `rotation must be a string (any label; changing it replaces the subscription, which rotates its Signature), got: ${show(input)}.`,
};

/** During preview a value may be unknown: it passes through and is checked once known. */
function orUnknown<T extends z.ZodType>(schema: T) {
  return z.union([z.literal(UNKNOWN), schema]);
}

/** Rules between fields. Runs even when a field failed, so every bad field is reported at once. */
function crossFieldRules(data: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const { webhook, filterObjectGuid: filter, customHeader: header, customHeaderValue: value } = data;
  if (isWebhookId(webhook)) {
    const name = webhookName(webhook);
    if (isObjectScoped(webhook) && filter === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["filterObjectGuid"],
        message: `filterObjectGuid is required for ${name}: it scopes the subscription to one object. Set it to that object's GUID.`,
      });
    if (!isObjectScoped(webhook) && isGuid(filter) && filter !== UNKNOWN)
      ctx.addIssue({
        code: "custom",
        path: ["filterObjectGuid"],
        message: `filterObjectGuid is not used for ${name}, which is type-scoped (it fires for every object of the type), got: ${show(filter)}. Remove it.`,
      });
  }
  if (typeof value === "string" && value !== UNKNOWN && header === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["customHeaderValue"],
      message:
        "customHeaderValue is set but customHeader is not: set customHeader to the header name the value goes in, or remove customHeaderValue.",
    });
}

/** The one input schema: every field may be unknown at preview, unknown arguments are refused. */
export const SubscriptionInputSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(FIELDS).map(([key, schema]) => [key, orUnknown(schema)])) as Record<
      string,
      z.core.$ZodType
    >,
  )
  .superRefine(crossFieldRules, { when: () => true });

export interface CheckFailure {
  property: string;
  reason: string;
}

/**
 * Our message for a zod issue on a field. A refinement's own message (every one starts with the
 * field's name) wins, also from inside the union that admits UNKNOWN; any other issue — wrong
 * type, format or range — gets the field's message, which shows the value.
 */
function messageFor(issue: z.core.$ZodRawIssue): string | undefined {
  const field = issue.path?.[0];
  if (typeof field !== "string" || !(field in FIELD_MESSAGES)) return undefined;
  const nested = issue.code === "invalid_union" ? (issue.errors as z.core.$ZodIssue[][]).flat() : [];
  const own = nested.find((inner) => inner.message.startsWith(`${field} `));
  return own?.message ?? FIELD_MESSAGES[field as Field](issue.input);
}

const KNOWN_ARGUMENTS = Object.keys(FIELDS).join(", ");

/** What checkInputs finds: the normalised inputs, or one failure per bad field. */
export interface CheckedInputs {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
}

/**
 * The results for the inputs checked last, by `recentKey`: Terraform and OpenTofu check one
 * configuration again in each call of a resource (validate, plan, apply), and the schema and the
 * URL parsing were 11% of the provider's CPU in a 500-subscription apply (docs/benchmarks.md).
 */
const recent = new Map<string, CheckedInputs>();
const RECENT_LIMIT = 256;

/** A key for inputs whose values are all plain (a string, a finite number, a boolean or null); else none. */
function recentKey(args: Record<string, unknown>): string | undefined {
  const entries = Object.entries(args);
  for (const [, value] of entries) {
    const plain =
      value === null ||
      typeof value === "string" ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0));
    if (!plain) return undefined;
  }
  return JSON.stringify(entries);
}

/**
 * Validates and normalises raw inputs: parse with the schema, then one failure per bad field.
 * Unknown values (preview) pass through untouched and the rules that depend on them are skipped.
 * Each call gets its own copy of the result.
 */
export function checkInputs(raw: Record<string, unknown>): CheckedInputs {
  // The engine's own property: it carries the provider module, not an argument.
  const { __provider: _provider, ...args } = raw;
  const key = recentKey(args);
  let checked = key === undefined ? undefined : recent.get(key);
  if (!checked) {
    checked = parseInputs(args);
    if (key !== undefined) {
      if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value!);
      recent.set(key, checked);
    }
  }
  return { inputs: { ...checked.inputs }, failures: checked.failures.map((failure) => ({ ...failure })) };
}

function parseInputs(args: Record<string, unknown>): CheckedInputs {
  const parsed = SubscriptionInputSchema.safeParse(args, { error: messageFor });
  if (parsed.success)
    return {
      // Never `undefined` in state (the engine rejects it): an absent field is left out.
      inputs: Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined)),
      failures: [],
    };
  const failures = new Map<string, string>();
  for (const issue of parsed.error.issues) {
    if (issue.code === "unrecognized_keys")
      for (const key of issue.keys)
        failures.set(key, `${key} is not a WebhookSubscription argument. Known arguments: ${KNOWN_ARGUMENTS}.`);
    else {
      const field = String(issue.path[0]);
      if (!failures.has(field)) failures.set(field, issue.message);
    }
  }
  return { inputs: {}, failures: [...failures].map(([property, reason]) => ({ property, reason })) };
}

/**
 * How the service says "none" for each optional stored field; state, diffs and the API use
 * these, inputs leave the field out.
 */
const NONE = { filterObjectGuid: null, customHeader: "", customHeaderValue: null } as const;

/** A subscription as the service will hold it: every stored field, "none" as the service writes it. */
export type DesiredSubscription = ReturnType<typeof desiredOf>;

/** The desired subscription (also the API request spec) from checked inputs. */
export function desiredOf(
  inputs: Pick<SubscriptionInputs, keyof typeof NONE | "webhook" | "filterObjectType" | "subscriberUrl">,
) {
  return {
    webhook: inputs.webhook,
    filterObjectType: inputs.filterObjectType,
    filterObjectGuid: inputs.filterObjectGuid ?? NONE.filterObjectGuid,
    subscriberUrl: inputs.subscriberUrl,
    customHeader: inputs.customHeader ?? NONE.customHeader,
    customHeaderValue: inputs.customHeaderValue ?? NONE.customHeaderValue,
  };
}

/**
 * Inputs that describe a live subscription (for refresh): fields the service holds as "none"
 * are left out, as a program would write them.
 */
export function inputsOf(live: Subscription, extra: { adoptGuid: string | null }): Record<string, unknown> {
  const { guid: _guid, signature: _signature, ...fields } = live;
  const all: Record<string, unknown> = { ...fields, ...extra };
  const isNone = (key: string, value: unknown) =>
    value === null || (key in NONE && value === NONE[key as keyof typeof NONE]);
  return Object.fromEntries(Object.entries(all).filter(([key, value]) => !isNone(key, value)));
}
