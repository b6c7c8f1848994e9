/**
 * The admin API under `/_emulator`: emulator-only controls that tests, benchmarks and users
 * drive (product.md). No rate limit, not counted in the stats: it is not part of the emulated
 * service. Open on a loopback-only emulator; when an admin token is configured (required off
 * loopback) every admin request must carry `Authorization: Bearer <admin token>`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { WireGuid } from "../provider/wire";
import { bearerToken, sameSecret } from "./auth";
import type { EmulatorContext } from "./context";
import { deliverEvent, EventRequest } from "./events";
import { FaultConfiguration } from "./faults";
import { ADMIN_TOKEN_ENV, resolveRateLimit } from "./options";
import { errorOutcome, sendOutcome, type Outcome } from "./outcome";
import { checkValue, readJsonBody } from "./requestBody";

const WorkItemBody = z.strictObject({ Closed: z.boolean() });
const RateLimitBody = z.strictObject({ requestsPerSecond: z.number(), burst: z.number().optional() }).nullable();

/** The admin prefix; nothing of the emulated service lives under it. */
export const ADMIN_PATH = "/_emulator";

const OK: Outcome = { status: 200, json: { ok: true } };

/** 401 for an admin request without the admin token; it never says what was presented. */
const ADMIN_UNAUTHORIZED = errorOutcome(
  401,
  "The admin API needs Authorization: Bearer <admin token>, the token the emulator was started with " +
    `(--admin-token-file, ${ADMIN_TOKEN_ENV} or --admin-token).`,
);

/** Whether an admin request may proceed: always without an admin token, else only with it. */
function adminAllowed(context: EmulatorContext, request: FastifyRequest): boolean {
  const expected = context.options.adminToken;
  if (expected === null) return true;
  const presented = bearerToken(request.headers.authorization);
  return presented !== undefined && sameSecret(presented, expected);
}

/** Reads a JSON body with `schema` and passes it on, or answers 400 saying what is wrong. */
function withBody<T>(
  request: FastifyRequest,
  schema: z.ZodType<T>,
  use: (value: T) => Outcome | Promise<Outcome>,
): Outcome | Promise<Outcome> {
  const body = readJsonBody(request.body, schema);
  return body.ok ? use(body.value) : errorOutcome(body.status, body.error);
}

export function registerAdminRoutes(app: FastifyInstance, context: EmulatorContext): void {
  /** Adds an admin route whose handler returns an Outcome. */
  const route = (
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    handle: (request: FastifyRequest) => Outcome | Promise<Outcome>,
  ) =>
    app.route({
      method,
      url: `${ADMIN_PATH}${path}`,
      handler: async (request, reply) =>
        sendOutcome(reply, adminAllowed(context, request) ? await handle(request) : ADMIN_UNAUTHORIZED),
    });

  route("POST", "/reset", async () => {
    await context.reset();
    return OK;
  });

  route("GET", "/stats", () => ({ status: 200, json: context.stats.snapshot() }));

  route("PUT", "/work-items/:guid", (request) => {
    const guid = checkValue((request.params as { guid: string }).guid, WireGuid, "Work item GUID in the path");
    if (!guid.ok) return errorOutcome(guid.status, guid.error);
    return withBody(request, WorkItemBody, async ({ Closed }) => {
      await context.store.setWorkItem(guid.value, Closed);
      return { status: 200, json: { GUID: guid.value.toLowerCase(), Closed } };
    });
  });

  route("POST", "/events", (request) =>
    withBody(request, EventRequest, async (event) => {
      const deliveries = await deliverEvent(event, context.store.list(), context.deliverySettings);
      return { status: 200, json: { deliveries } };
    }),
  );

  route("PUT", "/rate-limit", (request) =>
    withBody(request, RateLimitBody, (settings) => {
      if (settings === null) {
        context.limiter.configure(null);
      } else {
        const resolved = resolveRateLimit(settings);
        if (!resolved.ok) return errorOutcome(400, `Rate limit not changed: ${resolved.error}`);
        context.limiter.configure(resolved.value);
      }
      return { status: 200, json: { rateLimit: context.limiter.current() } };
    }),
  );

  route("PUT", "/faults", (request) =>
    withBody(request, FaultConfiguration, (configuration) => {
      context.faults.configure(configuration);
      return OK;
    }),
  );

  route("DELETE", "/faults", () => {
    context.faults.clear();
    return OK;
  });

  route("POST", "/tokens/:token/expire", (request) => {
    context.tokens.expire((request.params as { token: string }).token);
    return OK;
  });
}
