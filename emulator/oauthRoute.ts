/**
 * `POST /oauth/token`: an OAuth2 client-credentials token endpoint (RFC 6749 §4.4), because the
 * spec leaves how a token is obtained "not shown". The client authenticates with form fields
 * or HTTP Basic; errors use the RFC's `{"error": ...}` body, not the API's `{"Error": ...}`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sameSecret } from "./auth";
import type { EmulatorContext } from "./context";
import { sendOutcome, type Outcome } from "./outcome";

/** The only client the emulator knows. */
export const DEV_CLIENT_ID = "dev-client";
export const DEV_CLIENT_SECRET = "dev-secret";

export const TOKEN_PATH = "/oauth/token";

function oauthError(status: number, error: string, description: string): Outcome {
  return { status, json: { error, error_description: description } };
}

/** Client id and secret from an `Authorization: Basic` header, if one is sent. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^basic +(\S+)$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  // RFC 6749 §2.3.1: both parts are form-urlencoded inside the Basic credentials.
  const part = (value: string) => {
    try {
      return decodeURIComponent(value.replace(/\+/g, " "));
    } catch {
      return value;
    }
  };
  return { id: part(decoded.slice(0, colon)), secret: part(decoded.slice(colon + 1)) };
}

function issueToken(context: EmulatorContext, request: FastifyRequest): Outcome {
  const contentType = request.headers["content-type"] ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
    return oauthError(400, "invalid_request", "Send the parameters as application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(typeof request.body === "string" ? request.body : "");
  const credentials = basicCredentials(request.headers.authorization) ?? {
    id: form.get("client_id") ?? "",
    secret: form.get("client_secret") ?? "",
  };
  // dev-client authenticates with dev-secret when the dev credentials are on, else with the admin token.
  const { devTokens, adminToken } = context.options;
  const secrets = [devTokens ? DEV_CLIENT_SECRET : null, adminToken].filter((s): s is string => s !== null);
  if (credentials.id !== DEV_CLIENT_ID || !secrets.some((secret) => sameSecret(credentials.secret, secret))) {
    return oauthError(401, "invalid_client", "Unknown client or wrong secret.");
  }
  const grantType = form.get("grant_type");
  if (grantType === null) return oauthError(400, "invalid_request", "grant_type is required.");
  if (grantType !== "client_credentials") {
    return oauthError(400, "unsupported_grant_type", `Only client_credentials is supported, got "${grantType}".`);
  }
  const { token, expiresIn } = context.tokens.issue();
  return { status: 200, json: { access_token: token, token_type: "Bearer", expires_in: expiresIn } };
}

export function registerOAuthRoute(app: FastifyInstance, context: EmulatorContext): void {
  app.post(TOKEN_PATH, async (request, reply) => {
    // Tokens must never be cached by intermediaries (RFC 6749 §5.1).
    reply.header("cache-control", "no-store");
    return sendOutcome(reply, issueToken(context, request));
  });
}
