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
  WireSubscription,
  WireSubscriptionEnvelope,
  WireSubscriptionList,
  WireUnsubscribeEnvelope,
  WireUpdateRequest,
  decodeSubscription,
  encodeSubscribe,
  encodeUpdate,
  isLegacy,
  normalizeGuid,
  unwrapSingle,
  type ApiVersion,
  type Operation,
  type Subscription,
  type SubscriptionSpec,
} from "../wire";
import { liveSecrets } from "./auth";
import { Connection } from "./connection";
import { errorFromResponse, type ResponseErrorContext } from "./errorFromResponse";
import { UnexpectedResponseError, UnreadableRequestError, UnsupportedOperationError } from "./errors";
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

  /** Every subscription of the instance (not only this caller's). */
  async list(): Promise<Subscription[]> {
    const context = this.context("GetAllWebhookSubscriptions");
    const reply = await this.send(context, "GET");
    return this.decode(context, reply, WireSubscriptionList, (wire) => wire.map(decodeSubscription));
  }

  /** One subscription. Rejects with `NotFoundError` when no subscription has `guid`. */
  async get(guid: string): Promise<Subscription> {
    const context = this.context("GetWebhookSubscription", guid);
    const reply = await this.send(context, "GET");
    // Some instances answer with a one-element array; the codec decides what that means.
    return this.decode(context, reply, WireSubscription, decodeSubscription, unwrapSingle);
  }

  /**
   * Creates a subscription; returns it with its new GUID and Signature. In legacy mode a
   * PacketUpdated subscription on a Closed work item is answered as created but is not
   * saved (spec): confirm with `withApiVersion("3").get(guid)`.
   */
  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    const context = this.context("SubscribeToWebhook", undefined, spec);
    const body = this.encode(context, WireSubscribeRequest, encodeSubscribe(spec));
    return this.decodeSubscriptionEnvelope(context, await this.send(context, "POST", body));
  }

  /** Replaces the fields of subscription `guid`; its GUID and Signature stay. Not in legacy mode. */
  async update(guid: string, spec: SubscriptionSpec): Promise<Subscription> {
    const context = this.context("UpdateWebhookSubscription", guid, spec);
    const body = this.encode(context, WireUpdateRequest, encodeUpdate(context.guid ?? guid, spec));
    return this.decodeSubscriptionEnvelope(context, await this.send(context, "POST", body));
  }

  /**
   * Deletes subscription `guid` permanently. Rejects with `NotFoundError` when it does not
   * exist; a 404 that follows an attempt which may have deleted it counts as success.
   */
  async unsubscribe(guid: string): Promise<void> {
    const context = this.context("Unsubscribe", guid);
    const reply = await this.send(context, "POST");
    if (reply.alreadyDone) return;
    const result = this.decode(context, reply, WireUnsubscribeEnvelope, (envelope) => envelope.Result);
    if (result !== true) throw errorFromResponse(context, reply.status, reply.text);
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
    const headerValue = spec?.customHeaderValue;
    return {
      operation,
      apiVersion: this.apiVersion,
      guid: guid === undefined ? undefined : normalizeGuid(guid),
      filterObjectGuid: spec?.filterObjectGuid,
      auth: credentials.kind,
      // Live, so that an error also hides an OAuth token issued after this context was made.
      secrets: liveSecrets(credentials, headerValue ? [headerValue] : undefined),
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
      if (!WireGuid.safeParse(guid).success) {
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
   * Parses and validates a successful response, then maps it. A body that is not JSON or does
   * not match the schema is an `UnexpectedResponseError` carrying the zod issues.
   */
  private decode<W, T>(
    context: ResponseErrorContext,
    reply: Reply,
    schema: z.ZodType<W>,
    map: (wire: W) => T,
    normalize: (json: unknown) => unknown = (json) => json,
  ): T {
    const json = parseJson(reply.text);
    const parsed = json === undefined ? undefined : schema.safeParse(normalize(json));
    if (parsed?.success) return map(parsed.data);
    throw new UnexpectedResponseError({
      ...context,
      status: reply.status,
      body: reply.text,
      attempts: reply.attempts,
      issues: parsed?.error.issues,
      detail: parsed ? "the response does not match the API contract" : "the response is not JSON",
    });
  }

  /** Subscribe and Update answer with an envelope; a null Result carries the reasons. */
  private decodeSubscriptionEnvelope(context: ResponseErrorContext, reply: Reply): Subscription {
    const result = this.decode(context, reply, WireSubscriptionEnvelope, (envelope) => envelope.Result);
    if (result === null) throw errorFromResponse(context, reply.status, reply.text);
    return decodeSubscription(result);
  }
}
