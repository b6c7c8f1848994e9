/**
 * The typed client of the webhook subscription API: the five operations, version-aware,
 * with requests encoded and responses decoded through the wire layer's schemas and codec.
 * Sending, retries, rate limiting and auth live in the sender and connection; this class
 * only maps operations to requests and responses to results or typed errors.
 */
import type { z } from "zod";
import {
  CONFIGURATION_PATH,
  LEGACY_OPERATIONS,
  LEGACY_PATH,
  WireGuid,
  WireSubscribeRequest,
  WireUpdateRequest,
  decodeSubscription,
  decodeSubscriptionList,
  encodeSubscribe,
  encodeUpdate,
  isEnvelope,
  isGuid,
  isLegacy,
  normalizeGuid,
  parseSubscriptionResponse,
  singleSubscriptionBody,
  subscriptionListBody,
  type ApiVersion,
  type Operation,
  type Subscription,
  type SubscriptionList,
  type SubscriptionSpec,
} from "../wire";
import { liveSecrets } from "./auth";
import { secretTexts } from "./redact";
import { Connection } from "./connection";
import { errorFromResponse, type ResponseErrorContext } from "./errorFromResponse";
import { NotFoundError, UnexpectedResponseError, UnreadableRequestError, UnsupportedOperationError } from "./errors";
import { parseJson } from "./json";
import { RequestSender, type Reply } from "./sender";
import { resolveApiVersion, resolveSettings, type ClientSettings, type ResolvedSettings } from "./settings";

/** The parameter name of the subscription GUID, spelled per operation exactly as the spec does. */
const GUID_PARAMETER: Partial<Record<Operation, string>> = {
  GetWebhookSubscription: "webhookSubscriptionGUID",
  Unsubscribe: "webHookSubscriptionGUID",
};

/**
 * Client of one instance's webhook subscription API.
 *
 * ```ts
 * const client = new WebhookSubscriptionClient({ baseUrl, token });
 * const sub = await client.subscribe({ webhook: Webhook.PacketCreated, filterObjectType: 2, filterObjectGuid, subscriberUrl });
 * await client.close();
 * ```
 *
 * Responses are read liberally (wire/responses.ts): enumeration names or integers, and one
 * subscription as an envelope, a bare object or a one-element array, as the spec and the
 * vendor's documentation show them. Requests are always sent exactly as the spec says.
 *
 * Every method rejects with a `WebhookApiError` subclass; see `errors.ts`. Subscribe and
 * Update are never repeated after a failure that may have taken effect: they reject with
 * `AmbiguousResultError`, and the caller reconciles by listing.
 */
export class WebhookSubscriptionClient {
  /** api-version sent on every call. */
  readonly apiVersion: ApiVersion;
  /** True for `2024.1`, the legacy API: subscribe and unsubscribe only. */
  readonly legacy: boolean;
  /** The instance's base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The word in the `x-<product>-signature` header of delivered messages. */
  readonly productName: string;

  private readonly settings: ResolvedSettings;
  private readonly connection: Connection;
  private readonly sender: RequestSender;
  /** `{basePath}{api path}/` of this client's API; fixed per client, so built once. */
  private readonly pathPrefix: string;
  /** `api-version=…`, sent on every call. */
  private readonly versionQuery: string;

  /**
   * @param settings how to reach the instance; checked at once (`ConfigurationError`).
   * @param shared internal: the connection of the client this one is a sibling of.
   */
  constructor(settings: ClientSettings, shared?: Connection) {
    this.settings = resolveSettings(settings);
    this.apiVersion = this.settings.apiVersion;
    this.legacy = isLegacy(this.apiVersion);
    this.baseUrl = this.settings.baseUrl;
    this.productName = this.settings.productName;
    this.connection = shared ?? new Connection(this.settings);
    this.sender = new RequestSender(this.connection, this.settings);
    this.pathPrefix = `${this.settings.basePath}${this.legacy ? LEGACY_PATH : CONFIGURATION_PATH}/`;
    this.versionQuery = `api-version=${encodeURIComponent(this.apiVersion)}`;
  }

  /**
   * A client of the same instance calling `apiVersion`, sharing this one's transport,
   * credentials and rate limiter (e.g. to confirm a legacy create through the configuration API).
   */
  withApiVersion(apiVersion: ApiVersion): WebhookSubscriptionClient {
    return new WebhookSubscriptionClient(
      { ...this.settings, apiVersion: resolveApiVersion(apiVersion) },
      this.connection,
    );
  }

  /**
   * Every subscription the configured account can see: the spec says the whole instance, the
   * vendor's documentation says subscriptions are per user. Entries that cannot be read are left
   * out; `listWithProblems` reports them.
   */
  async list(): Promise<Subscription[]> {
    return (await this.listWithProblems()).subscriptions;
  }

  /**
   * Like `list`, and also the entries that could not be read (e.g. an enumeration name this
   * package cannot map), each naming its GUID, field and value: one bad entry fails only itself.
   */
  async listWithProblems(): Promise<SubscriptionList> {
    const context = this.context("GetAllWebhookSubscriptions");
    const reply = await this.send(context, "GET");
    const json = parseJson(reply.text);
    const entries = subscriptionListBody(json);
    if (entries === undefined)
      throw this.unexpected(
        context,
        reply,
        json === undefined ? "the response is not JSON" : "the response is not a list of subscriptions",
      );
    return decodeSubscriptionList(entries);
  }

  /**
   * One subscription. Rejects with `NotFoundError` when no subscription has `guid` (a 404, or
   * the empty array some instances answer). Some instances answer 400 instead: see `mayMeanGone`.
   */
  async get(guid: string): Promise<Subscription> {
    const context = this.context("GetWebhookSubscription", guid);
    const reply = await this.send(context, "GET");
    return this.decodeSingle(context, reply);
  }

  /**
   * Creates a subscription; returns it with its new GUID and Signature. In legacy mode a
   * PacketUpdated subscription on a Closed work item is answered as created but is not
   * saved (spec): confirm with `withApiVersion("3").get(guid)`.
   */
  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    const context = this.context("SubscribeToWebhook", undefined, spec);
    const body = this.encode(context, WireSubscribeRequest, encodeSubscribe(spec));
    return this.decodeSingle(context, await this.send(context, "POST", body));
  }

  /** Replaces the fields of subscription `guid`; its GUID and Signature stay. Not in legacy mode. */
  async update(guid: string, spec: SubscriptionSpec): Promise<Subscription> {
    const context = this.context("UpdateWebhookSubscription", guid, spec);
    const body = this.encode(context, WireUpdateRequest, encodeUpdate(context.guid ?? guid, spec));
    return this.decodeSingle(context, await this.send(context, "POST", body));
  }

  /**
   * Deletes subscription `guid` permanently. Rejects with `NotFoundError` when it does not
   * exist; a 404 that follows an attempt which may have deleted it counts as success.
   */
  async unsubscribe(guid: string): Promise<void> {
    const context = this.context("Unsubscribe", guid);
    const reply = await this.send(context, "POST");
    if (reply.alreadyDone) return;
    // The documentation does not show this response, and instances answer 200 with an empty
    // body: a success status means done unless the body is an envelope that says otherwise.
    const json = parseJson(reply.text);
    if (isEnvelope(json) && json.Result !== true) throw errorFromResponse(context, reply.status, reply.text);
  }

  /** Closes the transport shared with sibling clients (if the client created it). */
  close(): Promise<void> {
    return this.connection.close();
  }

  private context(operation: Operation, guid?: string, spec?: SubscriptionSpec): ResponseErrorContext {
    if (this.legacy && !LEGACY_OPERATIONS.includes(operation)) {
      throw new UnsupportedOperationError({ operation, apiVersion: this.apiVersion, guid });
    }
    const { credentials } = this.connection;
    return {
      operation,
      apiVersion: this.apiVersion,
      guid: guid === undefined ? undefined : normalizeGuid(guid),
      filterObjectGuid: spec?.filterObjectGuid,
      auth: credentials.kind,
      credentialSource: credentials.source,
      // Live, so that an error also hides an OAuth token issued after this context was made.
      // Every text the header value holds, whatever its type: a program may pass the wrong one.
      secrets: liveSecrets(credentials, secretTexts(spec?.customHeaderValue)),
    };
  }

  /** Validates a request body with its wire schema; a body the service could not read is never sent. */
  private encode<T>(context: ResponseErrorContext, schema: z.ZodType<T>, body: T): string {
    const parsed = schema.safeParse(body, { reportInput: true });
    if (!parsed.success) throw new UnreadableRequestError({ ...context, issues: parsed.error.issues });
    return JSON.stringify(parsed.data);
  }

  private send(context: ResponseErrorContext, method: "GET" | "POST", body?: string): Promise<Reply> {
    const { operation, guid } = context;
    const parameter = GUID_PARAMETER[operation];
    let query = this.versionQuery;
    if (parameter !== undefined && guid !== undefined) {
      if (!isGuid(guid)) {
        // Parsed again only on failure: reporting the input costs time on every call.
        const issues = (WireGuid.safeParse(guid, { reportInput: true }).error?.issues ?? []).map((issue) => ({
          ...issue,
          path: [parameter],
        }));
        throw new UnreadableRequestError({ ...context, issues });
      }
      query = `${parameter}=${encodeURIComponent(guid)}&${query}`;
    }
    const path = `${this.pathPrefix}${operation}?${query}`;
    return this.sender.send({ method, path, body, context });
  }

  /**
   * The one subscription of a successful Get, Subscribe or Update response, in any documented
   * shape. A refusal envelope becomes its typed error; an empty array, `NotFoundError`;
   * anything else that is not a readable subscription, `UnexpectedResponseError` with the zod
   * issues (naming the field and the value).
   */
  private decodeSingle(context: ResponseErrorContext, reply: Reply): Subscription {
    const json = parseJson(reply.text);
    const body = singleSubscriptionBody(json);
    switch (body.kind) {
      case "refused":
        throw errorFromResponse(context, reply.status, reply.text);
      case "none":
        if (context.operation === "GetWebhookSubscription")
          throw new NotFoundError({ ...context, status: reply.status, body: reply.text, attempts: reply.attempts });
        throw this.unexpected(context, reply, "the response is an empty list instead of the subscription");
      case "unrecognised":
        throw this.unexpected(
          context,
          reply,
          json === undefined ? "the response is not JSON" : "the response does not hold one subscription",
        );
      case "one": {
        const parsed = parseSubscriptionResponse(body.value);
        if (parsed.success) return decodeSubscription(parsed.data);
        throw this.unexpected(context, reply, "the response does not match the API contract", parsed.error.issues);
      }
    }
  }

  private unexpected(
    context: ResponseErrorContext,
    reply: Reply,
    detail: string,
    issues?: readonly z.core.$ZodIssue[],
  ): UnexpectedResponseError {
    return new UnexpectedResponseError({
      ...context,
      status: reply.status,
      body: reply.text,
      attempts: reply.attempts,
      issues,
      detail,
    });
  }
}
