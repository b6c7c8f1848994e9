/**
 * Routes of the configuration API (all five operations, versions 1 to 4-preview) and of the
 * legacy 2024.1 API (Subscribe and Unsubscribe only). Every request passes the same checks in
 * the same order: route and version, rate limit, auth, faults, then the operation itself
 * (body and rules). Each step can end the request; the order is documented in docs/emulator.md.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  CONFIGURATION_API_VERSIONS,
  CONFIGURATION_PATH,
  DEFAULT_API_VERSION,
  LEGACY_API_VERSION,
  LEGACY_OPERATIONS,
  LEGACY_PATH,
  OPERATIONS,
  type Operation,
} from "../provider/wire";
import type { EmulatorContext } from "./context";
import { OPERATION_DEFINITIONS } from "./operations";
import { errorOutcome, resetConnection, sendOutcome, type Outcome } from "./outcome";

/** One of the two APIs the emulator serves. */
interface Api {
  readonly path: string;
  readonly legacy: boolean;
  readonly versions: readonly string[];
  /** Applied when `api-version` is omitted. */
  readonly defaultVersion: string;
  readonly operations: readonly Operation[];
}

const CONFIGURATION_API: Api = {
  path: CONFIGURATION_PATH,
  legacy: false,
  versions: CONFIGURATION_API_VERSIONS,
  defaultVersion: DEFAULT_API_VERSION,
  operations: OPERATIONS,
};

const LEGACY_API: Api = {
  path: LEGACY_PATH,
  legacy: true,
  versions: [LEGACY_API_VERSION],
  defaultVersion: LEGACY_API_VERSION,
  operations: LEGACY_OPERATIONS,
};

/** Null when the requested version is served on this API, else the 400 to send. */
function checkVersion(api: Api, query: Record<string, unknown>): Outcome | null {
  const requested = query["api-version"] ?? api.defaultVersion;
  if (typeof requested === "string" && api.versions.includes(requested)) return null;
  const shown = Array.isArray(requested) ? requested.join(",") : String(requested);
  return errorOutcome(
    400,
    `Unsupported api-version "${shown}": use one of ${CONFIGURATION_API_VERSIONS.join(", ")} (or ${LEGACY_API_VERSION} on /legacy)`,
  );
}

/** Null when the caller may proceed, else the 401 or 403 to send. */
function checkAuth(context: EmulatorContext, request: FastifyRequest): Outcome | null {
  switch (context.tokens.identify(request.headers.authorization)) {
    case "builder":
      return null;
    case "reader":
      return errorOutcome(403, "The bearer token is valid but lacks the Builder role.");
    case "anonymous":
      return errorOutcome(401, "A valid bearer token is required: send Authorization: Bearer <token>.");
  }
}

/** Sends an outcome and counts its status. */
export function answer(context: EmulatorContext, reply: FastifyReply, outcome: Outcome): FastifyReply {
  context.stats.status(outcome.status);
  return sendOutcome(reply, outcome);
}

/** A fault's forced answer: its body as JSON when it parses as JSON, else as plain text. */
function forcedOutcome(status: number, body = ""): Outcome {
  try {
    return { status, json: JSON.parse(body) };
  } catch {
    return { status, text: body };
  }
}

/** The answer of the first check that refuses the request (version, rate limit, auth), or null. */
export function refusal(
  context: EmulatorContext,
  request: FastifyRequest,
  api: Api = CONFIGURATION_API,
): Outcome | null {
  return (
    checkVersion(api, request.query as Record<string, unknown>) ??
    (context.limiter.tryTake() ? null : errorOutcome(429, "Too many requests: slow down and retry.")) ??
    checkAuth(context, request)
  );
}

/** One API request through the checks in order (module comment), then the operation. */
async function handle(
  context: EmulatorContext,
  api: Api,
  operation: Operation,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  context.stats.request(operation);
  const query = request.query as Record<string, unknown>;
  const refused = refusal(context, request, api);
  if (refused) return answer(context, reply, refused);

  const fault = context.faults.pick(operation);
  if (fault) context.stats.fault(fault.kind);
  if (fault?.kind === "reset-before-commit") return resetConnection(reply);
  if (fault?.kind === "status" && fault.status !== undefined)
    return answer(context, reply, forcedOutcome(fault.status, fault.body));
  if (fault?.kind === "delay" && fault.delayMs !== undefined) {
    try {
      await context.delay(fault.delayMs);
    } catch {
      // Reset or shutting down: drop the delayed request rather than let it commit afterwards
      // (or hold up close()).
      return resetConnection(reply);
    }
  }

  const outcome = await OPERATION_DEFINITIONS[operation].handle(context.store, {
    query,
    body: request.body,
    contentType: request.headers["content-type"],
    legacy: api.legacy,
    dialect: context.dialect,
    account: context.tokens.account(request.headers.authorization),
  });
  // The operation has committed (state saved); the client never learns of it.
  if (fault?.kind === "reset-after-commit") return resetConnection(reply);
  return answer(context, reply, outcome);
}

/** Registers the API routes; with `legacyOnly`, configuration-API paths stay unrouted (404). */
export function registerApiRoutes(app: FastifyInstance, context: EmulatorContext): void {
  const apis = context.options.legacyOnly ? [LEGACY_API] : [CONFIGURATION_API, LEGACY_API];
  for (const api of apis) {
    for (const operation of api.operations) {
      app.route({
        method: OPERATION_DEFINITIONS[operation].method,
        url: `${api.path}/${operation}`,
        handler: (request, reply) => handle(context, api, operation, request, reply),
      });
    }
  }
}
