import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  AmbiguousResultError,
  ClosedWorkItemError,
  ConfigurationError,
  ErrorCode,
  ForbiddenError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  StoppedError,
  TransportError,
  UnauthorizedError,
  UnexpectedResponseError,
  UnreadableRequestError,
  UnsupportedOperationError,
  ValidationFailedError,
  VersionCannotRepresentError,
  WebhookApiError,
  errorFromResponse,
  redact,
  type ResponseErrorContext,
} from "../../provider/client";
import { CLOSED_PACKET_TEXT, MessageId, versionCannotRepresentText } from "../../provider/wire";

const GUID = "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b";
const WORK_ITEM = "11111111-2222-4333-8444-555555555555";
const get: ResponseErrorContext = { operation: "GetWebhookSubscription", apiVersion: "3", guid: GUID };
const subscribe: ResponseErrorContext = {
  operation: "SubscribeToWebhook",
  apiVersion: "1",
  filterObjectGuid: WORK_ITEM,
};

const validationBody = JSON.stringify({
  Result: null,
  Messages: [
    {
      IsError: true,
      MessageDescription: "SubscriberURL must be an absolute http or https URL, got: ftp://x",
      Parameters: ["ftp://x"],
      RelatedObjectGUID: GUID.toUpperCase(),
      RelatedObjectType: 990,
      MessageID: MessageId.SubscriberUrlInvalid,
    },
  ],
});

describe("errorFromResponse picks the class by status first, then body", () => {
  it("401 → UnauthorizedError, advice depends on how the call was authenticated", () => {
    const error = errorFromResponse({ ...get, auth: "none" }, 401, "");
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ name: "UnauthorizedError", code: "UNAUTHORIZED", status: 401, guid: GUID });
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 401 Unauthorized: no credential was sent. Set a token (webhooks:token / WEBHOOKS_TOKEN) or OAuth client credentials (webhooks:clientId, webhooks:clientSecret, webhooks:tokenUrl)."`,
    );
    expect(errorFromResponse(get, 401, "").message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 401 Unauthorized: the instance refused the bearer token. Replace it with a valid, unexpired token for this instance, or use OAuth client credentials so that tokens are renewed automatically."`,
    );
    // A credential was sent and refused: the message says so, and names where it was read.
    expect(errorFromResponse({ ...get, credentialSource: "webhooks:token" }, 401, "").message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 401 Unauthorized: the instance refused the bearer token from webhooks:token. Replace it with a valid, unexpired token for this instance, or use OAuth client credentials so that tokens are renewed automatically."`,
    );
    expect(
      errorFromResponse(
        { ...get, auth: "oauth", credentialSource: "WEBHOOKS_CLIENT_ID and WEBHOOKS_CLIENT_SECRET" },
        401,
        "",
      ).message,
    ).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 401 Unauthorized: the instance refused a freshly issued OAuth token (client credentials from WEBHOOKS_CLIENT_ID and WEBHOOKS_CLIENT_SECRET). Check that the OAuth client and its tokenUrl belong to this instance."`,
    );
  });

  it("403 → ForbiddenError naming the Builder role", () => {
    const error = errorFromResponse(subscribe, 403, '{"Error":"no role"}');
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.code).toBe("FORBIDDEN");
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 403 Forbidden: the account is authenticated but lacks the Builder role, which every subscription operation requires. Ask an administrator of the instance to grant the Builder role to the account or OAuth client behind the token."`,
    );
  });

  it("404 → NotFoundError, about the GUID when there is one, else about the endpoint", () => {
    const error = errorFromResponse(get, 404, "");
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 404 Not Found: no subscription has GUID 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b. It may have been deleted outside this program: run \`pulumi refresh\` to forget it, or correct the GUID."`,
    );
    const noEndpoint = errorFromResponse({ operation: "GetAllWebhookSubscriptions", apiVersion: "3" }, 404, "");
    expect(noEndpoint.message).toMatchInlineSnapshot(
      `"GetAllWebhookSubscriptions (api-version 3) failed: 404 Not Found: the instance has no such endpoint. Check webhooks:baseUrl, and that the instance offers this api-version (a legacy-only instance answers only 2024.1)."`,
    );
  });

  it("429 → RateLimitedError with the attempts it took", () => {
    const error = errorFromResponse({ ...subscribe, attempts: 9 }, 429, "");
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ code: "RATE_LIMITED", attempts: 9 });
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 429 Too Many Requests after 9 attempts: the instance's rate limit was still exceeded when the retry deadline ran out. Lower maxRequestsPerSecond, run fewer operations at once, or raise retry.deadlineMs."`,
    );
    // Whoever hosts the client names its own settings, and the deadline that ran out.
    const named = errorFromResponse(
      {
        ...subscribe,
        attempts: 9,
        deadlineMs: 120_000,
        limitNames: { retryDeadline: "RETRY", maxRequestsPerSecond: "RPS", parallelism: "PARALLEL" },
      },
      429,
      "",
    );
    expect(named.message).toBe(
      "SubscribeToWebhook (api-version 1) failed: 429 Too Many Requests after 9 attempts: the instance's rate limit " +
        "was still exceeded when the retry deadline (120 s without progress) ran out. " +
        "Lower RPS, run fewer operations at once (PARALLEL), or raise RETRY.",
    );
  });

  it("5xx → ServerError", () => {
    const error = errorFromResponse(get, 503, "<html>down</html>");
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: "SERVER_ERROR", status: 503, body: "<html>down</html>" });
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 503 Service Unavailable: the service failed to handle the request. Try again later; if it persists, report it to the operator of the instance with err.body."`,
    );
  });

  it("400 with the closed-packet text → ClosedWorkItemError naming the work item", () => {
    const error = errorFromResponse(subscribe, 400, CLOSED_PACKET_TEXT);
    expect(error).toBeInstanceOf(ClosedWorkItemError);
    expect(error).toMatchObject({ code: "CLOSED_WORK_ITEM", workItemGuid: WORK_ITEM });
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 400 Bad Request: work item 11111111-2222-4333-8444-555555555555 is Closed, and the service refuses PacketUpdated subscriptions on closed work items ("Cannot create subscription for a closed packet."). Scope the subscription to an open work item (filterObjectGuid), reopen this one, or remove the subscription."`,
    );
  });

  it("400 with a validation envelope → ValidationFailedError carrying the messages", () => {
    const error = errorFromResponse(subscribe, 400, validationBody) as ValidationFailedError;
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.messages).toEqual([
      {
        messageId: 1001,
        description: "SubscriberURL must be an absolute http or https URL, got: ftp://x",
        parameters: ["ftp://x"],
        isError: true,
        relatedObjectGuid: GUID,
        relatedObjectType: 990,
      },
    ]);
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 400 Bad Request: the service rejected the request: [1001] SubscriberURL must be an absolute http or https URL, got: ftp://x. Correct the fields named above and try again."`,
    );
  });

  it("a validation message with a RelatedObjectType unknown to us is still read", () => {
    const body = validationBody.replace("990", "123456");
    const error = errorFromResponse(subscribe, 400, body) as ValidationFailedError;
    expect(error.messages[0]?.relatedObjectType).toBe(123456);
  });

  it("400 without Messages → UnreadableRequestError listing the spec's causes", () => {
    const error = errorFromResponse(subscribe, 400, '{"Error":"Request body is unreadable: Webhook: expected number"}');
    expect(error).toBeInstanceOf(UnreadableRequestError);
    expect(error).toMatchObject({ code: "UNREADABLE_REQUEST", sent: true });
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 400 Bad Request without validation messages: the service could not read the request. Possible causes (spec): malformed JSON, an enumeration sent as a string, an unrecognised field, an unknown enumeration value, an incorrect GUID value. The service said: "Request body is unreadable: Webhook: expected number". Check the values sent (webhook 0..5, GUIDs in 8-4-4-4-12 form); if they are right, this api-version may not accept them, so report it with err.body."`,
    );
  });

  it("400 saying the version lacks an enumeration member → VersionCannotRepresentError suggesting newer versions", () => {
    const error = errorFromResponse(subscribe, 400, versionCannotRepresentText("1", "Webhook", 6));
    expect(error).toBeInstanceOf(VersionCannotRepresentError);
    expect(error.code).toBe("VERSION_CANNOT_REPRESENT");
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: 400 Bad Request: api-version 1 has no enumeration member for a value the service must return (for example an event added in a later version), so it refused to answer. Call a newer api-version (2, 3, 4-preview) via webhooks:apiVersion."`,
    );
    const newest = errorFromResponse({ ...subscribe, apiVersion: "4-preview" }, 400, "enum member missing");
    expect(newest.message).toContain("upgrade pulumi-webhook-subscriptions");
  });

  it("anything else → UnexpectedResponseError", () => {
    const error = errorFromResponse(get, 409, "conflict");
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 409 Conflict: unexpected status. The service said: "conflict". The instance may not follow the API contract for this api-version; report it with err.body."`,
    );
    const nullResult = errorFromResponse(subscribe, 200, '{"Result":null,"Messages":[]}');
    expect(nullResult).toBeInstanceOf(UnexpectedResponseError);
  });

  it("a 200 envelope with a null Result and messages is a validation failure", () => {
    expect(errorFromResponse(subscribe, 200, validationBody)).toBeInstanceOf(ValidationFailedError);
  });
});

describe("errors built without a response", () => {
  it("TransportError says what failed on the network", () => {
    const error = new TransportError({
      ...get,
      attempts: 4,
      networkCode: "ECONNREFUSED",
      detail: "the connection was refused",
      url: "http://127.0.0.1:1",
    });
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: no response from http://127.0.0.1:1 after 4 attempts: the connection was refused (ECONNREFUSED). Nothing accepts connections at that address: check the host and port of webhooks:baseUrl, and that the instance is running."`,
    );
  });

  it("AmbiguousResultError wraps the failure and says to reconcile", () => {
    const cause = errorFromResponse(subscribe, 503, "");
    const error = new AmbiguousResultError({ ...subscribe, cause });
    expect(error).toMatchObject({ code: "AMBIGUOUS_RESULT", status: 503, cause });
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: the request was sent but its outcome is unknown (503 Service Unavailable: the service failed to handle the request), so the subscription may or may not have been created. It was not retried, to avoid a duplicate. List the subscriptions to find out before trying again (the Pulumi provider does this itself)."`,
    );
  });

  it("UnsupportedOperationError points to a configuration api-version", () => {
    const error = new UnsupportedOperationError({
      operation: "UpdateWebhookSubscription",
      apiVersion: "2024.1",
      guid: GUID,
    });
    expect(error.code).toBe("LEGACY_UNSUPPORTED");
    expect(error.message).toMatchInlineSnapshot(
      `"UpdateWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 2024.1) failed: the legacy API (2024.1) has no UpdateWebhookSubscription operation; it offers only SubscribeToWebhook and Unsubscribe. Use a configuration api-version (1, 2, 3, 4-preview) for this, e.g. client.withApiVersion("3")."`,
    );
  });

  it("UnreadableRequestError from the wire schema, not sent", () => {
    const issues = z.object({ Webhook: z.int().max(5) }).safeParse({ Webhook: 9 }).error!.issues;
    const error = new UnreadableRequestError({ ...subscribe, issues });
    expect(error.sent).toBe(false);
    expect(error.message).toMatchInlineSnapshot(
      `"SubscribeToWebhook (api-version 1) failed: the request was not sent, because the service could not read it: Webhook: Too big: expected number to be <=5. Correct the values named above."`,
    );
  });

  it("UnexpectedResponseError carries the zod issues", () => {
    const issues = z.object({ GUID: z.guid() }).safeParse({ GUID: "x" }).error!.issues;
    const error = new UnexpectedResponseError({
      ...get,
      status: 200,
      issues,
      detail: "the response does not match the API contract",
    });
    expect(error.issues).toHaveLength(1);
    expect(error.message).toMatchInlineSnapshot(
      `"GetWebhookSubscription of subscription 6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b (api-version 3) failed: 200 OK: the response does not match the API contract: GUID: Invalid GUID. The instance may not follow the API contract for this api-version; report it with err.body."`,
    );
  });

  it("ConfigurationError names the field and value", () => {
    const error = new ConfigurationError("baseUrl", "must be an absolute http(s) URL", '"ftp://x"');
    expect(error).toMatchObject({ code: "CONFIGURATION", field: "baseUrl", operation: "Configure" });
    expect(error.message).toMatchInlineSnapshot(
      `"Client settings are invalid: baseUrl must be an absolute http(s) URL, got: "ftp://x"."`,
    );
  });

  it("every class sets its own name and a code from ErrorCode", () => {
    const errors: WebhookApiError[] = [
      errorFromResponse(get, 401, ""),
      errorFromResponse(get, 403, ""),
      errorFromResponse(get, 404, ""),
      errorFromResponse(subscribe, 400, validationBody),
      errorFromResponse(subscribe, 400, CLOSED_PACKET_TEXT),
      errorFromResponse(subscribe, 400, ""),
      errorFromResponse(subscribe, 400, versionCannotRepresentText("2", "Webhook", 7)),
      errorFromResponse(get, 429, ""),
      new TransportError({ ...get, networkCode: "X", detail: "x" }),
      errorFromResponse(get, 500, ""),
      errorFromResponse(get, 302, ""),
      new AmbiguousResultError({ ...subscribe, cause: errorFromResponse(subscribe, 500, "") }),
      new UnsupportedOperationError({ ...get, apiVersion: "2024.1" }),
      new ConfigurationError("x", "is wrong"),
      new StoppedError({ ...subscribe, attempts: 2, rateLimited: true }),
    ];
    expect(new Set(errors.map((e) => e.name)).size).toBe(errors.length);
    expect(new Set(errors.map((e) => e.code))).toEqual(new Set(Object.values(ErrorCode)));
    for (const error of errors) {
      expect(error).toBeInstanceOf(WebhookApiError);
      expect(error).toBeInstanceOf(Error);
      expect(error.stack?.startsWith(`${error.name}: `)).toBe(true);
    }
  });
});

describe("redaction", () => {
  const token = "eyJhbGciOi.secret-token-value";

  it("removes bearer headers, OAuth fields and known secret values", () => {
    expect(redact(`Authorization: Bearer ${token}`)).toBe("Authorization: Bearer [REDACTED]");
    expect(redact('{"access_token":"abc.def","expires_in":3600}')).toBe(
      '{"access_token":"[REDACTED]","expires_in":3600}',
    );
    expect(redact("grant_type=client_credentials&client_id=me&client_secret=s3cr3t")).toBe(
      "grant_type=client_credentials&client_id=me&client_secret=[REDACTED]",
    );
    expect(redact(`echo ${token} back`, [token])).toBe("echo [REDACTED] back");
  });

  it("removes the secrets of subscriptions quoted from a response body, even a truncated one", () => {
    const body =
      '[{"GUID":"a","Signature":"9f1c\\"x","CustomHeader":"X-Key","CustomHeaderValue":"hv-1"},{"GUID":"b","Signature":"trunc';
    expect(redact(body)).toBe(
      '[{"GUID":"a","Signature":"[REDACTED]","CustomHeader":"X-Key","CustomHeaderValue":"[REDACTED]"},{"GUID":"b","Signature":"[REDACTED]"',
    );
  });

  it("redacts message, body and JSON of an error; the secret appears nowhere", () => {
    const body = `{"Error":"token ${token} expired","header":"Bearer ${token}"}`;
    const error = errorFromResponse({ ...get, secrets: [token, "header-value-secret"] }, 400, body);
    const serialised = JSON.stringify(error);
    for (const text of [error.message, error.body ?? "", serialised, String(error.stack)]) {
      expect(text).not.toContain(token);
    }
    expect(error.body).toContain("[REDACTED]");
    expect(JSON.parse(serialised)).toMatchObject({
      name: "UnreadableRequestError",
      code: "UNREADABLE_REQUEST",
      status: 400,
    });
  });
});

describe("redaction leaves prose alone", () => {
  it("does not mistake the words 'bearer token' or a placeholder for a credential", () => {
    expect(redact("A valid bearer token is required: send Authorization: Bearer <token>.")).toBe(
      "A valid bearer token is required: send Authorization: Bearer <token>.",
    );
    expect(redact("authorization: bearer dev-builder")).toBe("authorization: bearer [REDACTED]");
  });
});
