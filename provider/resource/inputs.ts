/**
 * Validation and normalisation of WebhookSubscription inputs: the `check` step.
 * Pure functions, no API calls. Every failure names the field, shows the bad value and says
 * what to do; normalised inputs equal what the service returns, so diffs stay quiet.
 */
import {
  Webhook,
  WEBHOOK_NAMES,
  isObjectScoped,
  isHeaderName,
  isWebhookId,
  normalizeGuid,
  normalizeHeaderName,
  webhookName,
  type SubscriptionSpec,
  type WebhookId,
} from "../wire";

/** Placeholder the engine sends for values not known yet (during preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** Inputs as stored in state after check: normalised, enums as integers, absent fields left out. */
export interface SubscriptionInputs {
  webhook: WebhookId;
  filterObjectType: number;
  filterObjectGuid?: string;
  subscriberUrl: string;
  customHeader?: string;
  customHeaderValue?: string;
  adoptGuid?: string;
}

export interface CheckFailure {
  property: string;
  reason: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Headers the service sets itself or that HTTP reserves; a custom header must not clash with them. */
const RESERVED_HEADERS = new Set(["content-type", "content-length", "host", "transfer-encoding", "connection"]);

/** JSON rendering of a bad value for messages; secrets are never passed here. */
function show(value: unknown): string {
  return value === undefined ? "nothing" : JSON.stringify(value);
}

function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/**
 * Validates and normalises raw inputs. Unknown values (preview) pass through untouched and
 * the rules that depend on them are skipped; they are checked again once known.
 */
export function checkInputs(raw: Record<string, unknown>): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const failures: CheckFailure[] = [];
  const fail = (property: string, reason: string) => failures.push({ property, reason });
  const inputs: Record<string, unknown> = {};

  const webhook = normalizeWebhook(raw.webhook, fail);
  if (webhook !== undefined) inputs.webhook = webhook;

  const objectType = raw.filterObjectType;
  if (isUnknown(objectType)) inputs.filterObjectType = objectType;
  else if (typeof objectType === "number" && Number.isInteger(objectType) && objectType >= 0)
    inputs.filterObjectType = objectType;
  else if (objectType === undefined || objectType === null)
    fail(
      "filterObjectType",
      "filterObjectType is required: the service object type integer of the object the subscription filters by (e.g. 2).",
    );
  else
    fail(
      "filterObjectType",
      `filterObjectType must be a non-negative integer (a service object type), got: ${show(objectType)}.`,
    );

  const filter = raw.filterObjectGuid;
  if (isUnknown(filter)) inputs.filterObjectGuid = filter;
  else if (filter !== undefined && filter !== null && filter !== "") {
    if (typeof filter === "string" && GUID.test(filter)) inputs.filterObjectGuid = normalizeGuid(filter);
    else
      fail(
        "filterObjectGuid",
        `filterObjectGuid must be a GUID like "6f1c2a3b-0000-4000-8000-000000000001", got: ${show(filter)}.`,
      );
  }
  if (typeof webhook === "number") {
    const name = webhookName(webhook);
    if (
      isObjectScoped(webhook) &&
      inputs.filterObjectGuid === undefined &&
      !failures.some((f) => f.property === "filterObjectGuid")
    )
      fail(
        "filterObjectGuid",
        `filterObjectGuid is required for ${name}: it scopes the subscription to one object. Set it to that object's GUID.`,
      );
    if (!isObjectScoped(webhook) && inputs.filterObjectGuid !== undefined && !isUnknown(inputs.filterObjectGuid))
      fail(
        "filterObjectGuid",
        `filterObjectGuid is not used for ${name}, which is type-scoped (it fires for every object of the type), got: ${show(filter)}. Remove it.`,
      );
  }

  const url = raw.subscriberUrl;
  if (isUnknown(url)) inputs.subscriberUrl = url;
  else {
    const problem = subscriberUrlProblem(url);
    if (problem) fail("subscriberUrl", problem);
    else inputs.subscriberUrl = url;
  }

  const header = raw.customHeader;
  if (isUnknown(header)) inputs.customHeader = header;
  else if (header !== undefined && header !== null && header !== "") {
    if (typeof header !== "string")
      fail("customHeader", `customHeader must be a string (an HTTP header name), got: ${show(header)}.`);
    else {
      const saved = normalizeHeaderName(header);
      if (!isHeaderName(saved))
        fail(
          "customHeader",
          `customHeader must be a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~-; spaces become hyphens), got: ${show(header)}.`,
        );
      else if (RESERVED_HEADERS.has(saved.toLowerCase()) || /^x-[^-]+-signature$/i.test(saved))
        fail(
          "customHeader",
          `customHeader must not replace a header the service sets itself, got: ${show(header)}. Choose another name, e.g. "X-Api-Key".`,
        );
      else inputs.customHeader = saved;
    }
  }

  const value = raw.customHeaderValue;
  if (isUnknown(value)) inputs.customHeaderValue = value;
  else if (value !== undefined && value !== null) {
    // The value is a secret: describe it, never show it.
    if (typeof value !== "string")
      fail("customHeaderValue", `customHeaderValue must be a string, got a ${typeof value}.`);
    else if (
      inputs.customHeader === undefined &&
      !isUnknown(header) &&
      !failures.some((f) => f.property === "customHeader")
    )
      fail(
        "customHeaderValue",
        "customHeaderValue is set but customHeader is not: set customHeader to the header name the value goes in, or remove customHeaderValue.",
      );
    else if (/[\r\n\0]/.test(value))
      fail(
        "customHeaderValue",
        "customHeaderValue must not contain line breaks or NUL characters (it is sent as an HTTP header value).",
      );
    else inputs.customHeaderValue = value;
  }

  const adopt = raw.adoptGuid;
  if (isUnknown(adopt)) inputs.adoptGuid = adopt;
  else if (adopt !== undefined && adopt !== null && adopt !== "") {
    if (typeof adopt === "string" && GUID.test(adopt)) inputs.adoptGuid = normalizeGuid(adopt);
    else
      fail(
        "adoptGuid",
        `adoptGuid must be the GUID of an existing subscription (see \`npm run drift\` for unmanaged ones), got: ${show(adopt)}.`,
      );
  }

  const known = new Set([
    "webhook",
    "filterObjectType",
    "filterObjectGuid",
    "subscriberUrl",
    "customHeader",
    "customHeaderValue",
    "adoptGuid",
    "__provider",
  ]);
  for (const key of Object.keys(raw)) {
    if (!known.has(key))
      fail(
        key,
        `${key} is not a WebhookSubscription argument. Known arguments: ${[...known].filter((k) => k !== "__provider").join(", ")}.`,
      );
  }
  return { inputs, failures };
}

function normalizeWebhook(value: unknown, fail: (property: string, reason: string) => void): unknown {
  if (isUnknown(value)) return value;
  const choices = `one of ${WEBHOOK_NAMES.map((n) => `"${n}"`).join(", ")} or its integer 0..5 (use the Webhook object)`;
  if (value === undefined || value === null) {
    fail("webhook", `webhook is required: ${choices}.`);
    return undefined;
  }
  if (typeof value === "string") {
    if (value in Webhook) return Webhook[value as keyof typeof Webhook];
    const match = WEBHOOK_NAMES.find((n) => n.toLowerCase() === value.toLowerCase());
    fail(
      "webhook",
      `webhook ${show(value)} is not a known event${match ? ` (did you mean "${match}"?)` : ""}; use ${choices}.`,
    );
    return undefined;
  }
  if (isWebhookId(value)) return value;
  fail("webhook", `webhook ${show(value)} is not a known event; use ${choices}.`);
  return undefined;
}

/** Why a subscriber URL is unusable, or undefined when it is an absolute http(s) URL. */
export function subscriberUrlProblem(url: unknown): string | undefined {
  if (url === undefined || url === null || url === "")
    return 'subscriberUrl is required: the absolute http(s) URL that receives the messages, e.g. "https://hooks.example.com/orders".';
  if (typeof url !== "string") return `subscriberUrl must be a string, got: ${show(url)}.`;
  if (/\s/.test(url))
    return `subscriberUrl must not contain spaces or line breaks, got: ${show(url)}. Percent-encode them.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `subscriberUrl must be an absolute http(s) URL, got: ${show(url)}. Include the scheme and host, e.g. "https://hooks.example.com/orders".`;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    return `subscriberUrl must be an absolute http(s) URL, got: ${show(url)} (scheme ${parsed.protocol.replace(":", "")}).`;
  if (!parsed.hostname) return `subscriberUrl must name a host, got: ${show(url)}.`;
  if (parsed.username || parsed.password)
    return "subscriberUrl must not embed credentials (user:password@); send a secret with customHeader and customHeaderValue instead.";
  return undefined;
}

/** The API request spec from checked inputs. */
export function specOf(inputs: SubscriptionInputs): SubscriptionSpec {
  return {
    webhook: inputs.webhook,
    filterObjectType: inputs.filterObjectType,
    filterObjectGuid: inputs.filterObjectGuid ?? null,
    subscriberUrl: inputs.subscriberUrl,
    customHeader: inputs.customHeader ?? null,
    customHeaderValue: inputs.customHeaderValue ?? null,
  };
}
