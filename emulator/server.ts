/**
 * The HTTP server: Fastify with every route of the emulator, and the framework defaults that
 * matter for fidelity replaced (body parsing, 404 and error bodies).
 */
import Fastify, { type FastifyInstance } from "fastify";
import { registerAdminRoutes } from "./adminRoutes";
import { registerApiRoutes } from "./apiRoutes";
import type { EmulatorContext } from "./context";
import { errorOutcome, sendOutcome } from "./outcome";
import { registerOAuthRoute } from "./oauthRoute";
import { registerSimulateEventRoute } from "./simulateEvent";
import { registerSwaggerRoutes } from "./swaggerRoutes";

/** Request bodies above this size get 413; subscription bodies are a few hundred bytes. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** Builds the server for one emulator; the caller listens and closes it. */
export function buildServer(context: EmulatorContext): FastifyInstance {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    // HEAD is not part of the API; auto-generated HEAD routes would run the operations.
    exposeHeadRoutes: false,
    // Tokens in the admin path can be long; the default 100 would turn them into 404s.
    routerOptions: { maxParamLength: 1000 },
    // Malformed URLs (bad percent-encoding and the like) get our error body, not Fastify's.
    frameworkErrors: (error, _request, reply) => {
      sendOutcome(reply, errorOutcome(400, error.message));
    },
  });

  // Every body is kept as raw text whatever its content type: the API reads it only after the
  // route, rate-limit, auth and fault checks, and a bad body must give the API's own 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  app.setNotFoundHandler((request, reply) => {
    sendOutcome(reply, errorOutcome(404, `No such resource: ${request.method} ${request.url.split("?")[0]}`));
  });
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    // 4xx framework errors come from the request (too large, bad length); anything else is ours.
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    sendOutcome(reply, errorOutcome(status, status === 500 ? `Emulator error: ${error.message}` : error.message));
  });

  registerApiRoutes(app, context);
  registerSimulateEventRoute(app, context);
  registerOAuthRoute(app, context);
  registerAdminRoutes(app, context);
  registerSwaggerRoutes(app, context);
  return app;
}
