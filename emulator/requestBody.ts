/**
 * Reading request bodies. The server keeps bodies as raw text (see server.ts) so that the API
 * can check route, rate limit, auth and faults before it even looks at the body, and so that
 * every unreadable body gets the same `{"Error": ...}` 400 rather than a framework error.
 */
import type { z } from "zod";

/** A body that was read, or the status and reason to refuse it with. */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; status: 400 | 415; error: string };

/** `application/json` or any `application/<x>+json`, whatever the parameters. */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** One line per zod issue, naming the field, e.g. `Webhook: Invalid input: expected number, received string`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
      // The commonest mistake against this API: enumerations go on the wire as integers.
      const hint =
        issue.code === "invalid_type" && issue.expected === "number" && /received string/.test(issue.message)
          ? " (enumerations are sent as integers, never as names)"
          : "";
      return `${where}${issue.message}${hint}`;
    })
    .join("; ");
}

/** Parses a raw JSON body and checks it against `schema`; the content type is not looked at. */
export function readJsonBody<T>(raw: unknown, schema: z.ZodType<T>): ReadResult<T> {
  if (typeof raw !== "string" || raw.trim() === "") {
    return { ok: false, status: 400, error: "Request body is missing: send a JSON object." };
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ok: false, status: 400, error: `Request body is not valid JSON: ${(error as Error).message}` };
  }
  return checkValue(json, schema, "Request body is unreadable");
}

/**
 * Like readJsonBody, but as the service reads an API body: a body labelled with a non-JSON
 * Content-Type (or none) is refused with 415, as ASP.NET-style services do, so a client that
 * forgets the header fails here rather than against the real instance.
 */
export function readJsonRequest<T>(raw: unknown, contentType: string | undefined, schema: z.ZodType<T>): ReadResult<T> {
  const present = typeof raw === "string" && raw.trim() !== "";
  if (present && !JSON_MEDIA_TYPE.test(contentType ?? "")) {
    return {
      ok: false,
      status: 415,
      error: `Content-Type must be application/json, got ${JSON.stringify(contentType ?? null)}.`,
    };
  }
  return readJsonBody(raw, schema);
}

/** Checks an already-parsed value (e.g. a query parameter); `what` starts the error message. */
export function checkValue<T>(value: unknown, schema: z.ZodType<T>, what: string): ReadResult<T> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, status: 400, error: `${what}: ${describeIssues(parsed.error)}` };
}
