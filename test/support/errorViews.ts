/**
 * Every way a user, a logger or a CI log can look at an error, and the leak test that the
 * redaction policy of `provider/client/redact.ts` promises to pass: a known secret of 4+
 * characters appears in no view (any letter case); a shorter one appears in no view as a
 * whole word. Stack frames (lines `    at file:line`) name code locations and are left out.
 */
import { inspect } from "node:util";

/** Every own property (enumerable or not) of an error and of its cause chain, as text. */
function allFields(error: unknown, depth = 0): string {
  if (typeof error !== "object" || error === null || depth > 6) return String(error);
  const parts: string[] = [];
  for (const key of Object.getOwnPropertyNames(error)) {
    const value = (error as Record<string, unknown>)[key];
    parts.push(`${key}=${typeof value === "object" && value !== null ? allFields(value, depth + 1) : String(value)}`);
  }
  return parts.join("\n");
}

/** The views of `error`, by name: message, stack, String, JSON, util.inspect, toJSON, every field, the cause chain. */
export function errorViews(error: unknown): Record<string, string> {
  const err = error as Error & { toJSON?: () => unknown };
  const causes: string[] = [];
  for (let cause = err.cause, depth = 0; cause !== undefined && depth < 6; depth++) {
    causes.push(String(cause), inspect(cause, { depth: Infinity }), JSON.stringify(cause) ?? "");
    cause = (cause as { cause?: unknown }).cause;
  }
  const views: Record<string, string> = {
    message: err.message,
    stack: String(err.stack),
    string: String(err),
    json: JSON.stringify(err),
    inspect: inspect(err, { depth: Infinity }),
    toJSON: JSON.stringify(err.toJSON?.() ?? null),
    fields: allFields(err),
    causes: causes.join("\n"),
  };
  for (const name of Object.keys(views)) {
    views[name] = views[name]!.split("\n")
      .filter((line) => !/^\s+at /.test(line))
      .join("\n");
  }
  return views;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `view` shows `secret` under the redaction policy (see the file comment). */
export function shows(view: string, secret: string): boolean {
  if (secret.length >= 4) return view.toLowerCase().includes(secret.toLowerCase());
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(secret)}(?![\\p{L}\\p{N}])`, "iu").test(view);
}

/** The views of `error` that show any of `secrets`, as `"view: secret"` lines; empty when none leaks. */
export function leaksOf(error: unknown, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const [name, view] of Object.entries(errorViews(error))) {
    for (const secret of secrets) if (shows(view, secret)) found.push(`${name}: ${JSON.stringify(secret)}`);
  }
  return found;
}
