/**
 * One request to a platform's API (GitHub's REST API, GitLab's v4), through undici: the token in
 * the Authorization header and nowhere else, JSON both ways, and an error that names the
 * operation, the status, the API's own message and what to check, with the token redacted.
 * A page link is followed only on the API's own origin, so the token never leaves for another host.
 */
import { request, type Dispatcher } from "undici";
import { PipelineApiError, redact } from "./errors";

/** Where and as whom requests go. */
export interface ApiTarget {
  /** The API's base URL, without a trailing slash: `https://api.github.com`, `https://gitlab.com/api/v4`. */
  readonly apiUrl: string;
  readonly token: string;
  /** Where the token came from (`GITHUB_TOKEN`, the `--token-env` name): errors point at it, never at its value. */
  readonly tokenVariable: string;
  /** The variable the API URL came from, for an unreachable API. */
  readonly apiVariable: string;
  /** Extra headers every request carries (GitHub's Accept and API version). */
  readonly headers?: Readonly<Record<string, string>>;
  /** undici's dispatcher; default: undici's own. */
  readonly dispatcher?: Dispatcher;
}

/** One call: what it is for (named in errors), and what to check when it is refused. */
export interface ApiCall {
  readonly method: "GET" | "POST" | "PATCH" | "PUT";
  /** A path below the API's base URL, or an absolute URL on its origin (a page link). */
  readonly path: string;
  readonly body?: unknown;
  /** `list the comments of pull request #7`. */
  readonly operation: string;
  /** What to check for a 403 or 404: the permission or the names the call used. */
  readonly check: string;
}

/** An answer: its status, headers (lower-case names) and parsed JSON body. */
export interface ApiAnswer<T> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly json: T;
}

/** The API's own words in an error body: GitHub's and GitLab's `message`, GitLab's `error`. */
function apiMessage(text: string): string {
  try {
    const json = JSON.parse(text) as { message?: unknown; error?: unknown };
    const said = json.message ?? json.error;
    if (said !== undefined) return typeof said === "string" ? said : JSON.stringify(said);
  } catch {
    // not JSON: its first line, short
  }
  return text.split("\n")[0]!.slice(0, 200) || "(no message)";
}

/** What to check for a refused request. */
function hint(status: number, call: ApiCall, target: ApiTarget): string {
  if (status === 401) return `check that ${target.tokenVariable} holds a valid, unexpired token`;
  if (status === 403 || status === 404) return `check ${call.check}`;
  if (status === 422 || status === 400) return "check the request's content (the report, --label)";
  return `the API at ${target.apiVariable} may be unavailable; try again`;
}

/** The URL `path` names: below the API's base, or an absolute link that must stay on its origin. */
function urlOf(path: string, target: ApiTarget): URL {
  const base = new URL(target.apiUrl);
  const url = /^https?:\/\//.test(path) ? new URL(path) : new URL(`${target.apiUrl}${path}`);
  if (url.origin !== base.origin)
    throw new PipelineApiError(`the API linked to ${url.origin}, not ${base.origin}: refusing to send the token there`);
  return url;
}

/** Sends `call`; resolves with a 2xx answer, else rejects with a PipelineApiError. */
export async function callApi<T>(call: ApiCall, target: ApiTarget): Promise<ApiAnswer<T>> {
  const url = urlOf(call.path, target);
  let answer: Dispatcher.ResponseData;
  try {
    answer = await request(url, {
      method: call.method,
      headers: {
        authorization: `Bearer ${target.token}`,
        accept: "application/json",
        "user-agent": "webhook-subscriptions",
        ...(call.body === undefined ? {} : { "content-type": "application/json" }),
        ...target.headers,
      },
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      ...(target.dispatcher ? { dispatcher: target.dispatcher } : {}),
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new PipelineApiError(
      redact(`${call.operation}: cannot reach ${url.origin} (${code}); check ${target.apiVariable}.`, target.token),
    );
  }
  const text = await answer.body.text();
  if (answer.statusCode < 200 || answer.statusCode > 299)
    throw new PipelineApiError(
      redact(
        `${call.operation}: the API answered ${answer.statusCode}: ${apiMessage(text)}; ${hint(answer.statusCode, call, target)}.`,
        target.token,
      ),
      answer.statusCode,
    );
  let json: T;
  try {
    json = (text ? JSON.parse(text) : null) as T;
  } catch {
    throw new PipelineApiError(
      `${call.operation}: the API answered ${answer.statusCode} with no JSON; check ${target.apiVariable}.`,
      answer.statusCode,
    );
  }
  return { status: answer.statusCode, headers: answer.headers, json };
}

/** The first value of a header. */
export function headerOf(answer: ApiAnswer<unknown>, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
