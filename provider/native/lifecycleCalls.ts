/**
 * The native plugin's calls that need the lifecycle (`createProvider`, runtime.ts): the provider's
 * config, check, diff, CRUD and the functions, as plain request → response functions that the
 * server (server.ts) wraps. Loaded by the server on the first such call, not at start: this module
 * brings zod, the client and the lifecycle, which the port and GetSchema do not need.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { webhookName } from "../wire";
import { desiredOf, type SubscriptionInputs } from "../core/inputs";
import { listSubscriptions } from "../core/list";
import { createProvider } from "../core/lifecycle";
import { readSettings, SECRET_SETTINGS, SettingsNotKnownYet, type ConfigSource } from "../core/settings";
import { SECRET_OUTPUTS } from "../core/outputs";
import { decode, encode, UNKNOWN } from "./codec";
import { logToEngine } from "./engineLog";
import { nativeConfigSource, settingName } from "./providerConfig";
import type { NativeProviderOptions } from "./options";
import { GET_FUNCTION_TOKEN, INCLUDE_SECRETS, LIST_FUNCTION_TOKEN } from "./tokens";
import { coreForm, engineForm } from "./webhookForm";

/** A provider input that is always secret, whatever the program passed. */
const SECRET_INPUTS: readonly string[] = SECRET_OUTPUTS.filter((name) => name === "customHeaderValue");

/** Outputs without the secret ones. */
function withoutSecrets(values: Record<string, unknown>): Record<string, unknown> {
  const secret: ReadonlySet<string> = new Set(SECRET_OUTPUTS);
  return Object.fromEntries(Object.entries(values).filter(([key]) => !secret.has(key)));
}

/** What a preview shows as the outputs: the desired subscription, what only the service knows unknown. */
function previewOutputs(inputs: SubscriptionInputs, olds?: Record<string, unknown>): Record<string, unknown> {
  const desired = desiredOf(inputs);
  const webhook: unknown = desired.webhook;
  return {
    // An update keeps the GUID and the Signature.
    guid: olds?.guid ?? UNKNOWN,
    signature: olds?.signature ?? UNKNOWN,
    ...desired,
    webhookName: typeof webhook === "number" ? (webhookName(webhook) ?? null) : UNKNOWN,
    adoptGuid: inputs.adoptGuid ?? olds?.adoptGuid ?? null,
    rotation: inputs.rotation ?? null,
    baseUrl: olds?.baseUrl ?? UNKNOWN,
  };
}

/** The lifecycle's calls of one plugin process (one provider: the default one or an explicit one). */
export function lifecycleCalls(options: NativeProviderOptions) {
  if (options.engine) logToEngine(options.engine);
  const env = options.env ?? process.env;
  const core = createProvider({ env, ...(options.limiters ? { limiters: options.limiters } : {}) });
  let acceptSecrets = false;
  let config: ConfigSource = { get: () => undefined };

  // What the engine gets names the event; what the core gets holds its integer (webhookForm.ts).
  const outputs = (values: object, inputSecrets: Iterable<string> = []) =>
    encode(engineForm(values), [...SECRET_OUTPUTS, ...inputSecrets], acceptSecrets);
  const inputs = (values: Record<string, unknown>, secrets: Iterable<string> = []) =>
    encode(engineForm(values), [...SECRET_INPUTS, ...secrets], acceptSecrets);
  const properties = (struct: Struct | undefined) => coreForm(decode(struct).values);

  return {
    checkConfig: async (request: provproto.CheckRequest) => {
      const news = decode(request.getNews());
      const response = new provproto.CheckResponse().setInputs(
        encode(news.values, [...news.secrets, ...SECRET_SETTINGS], true),
      );
      try {
        readSettings(nativeConfigSource(news.values, request.getUrn()), env);
      } catch (err) {
        if (err instanceof SettingsNotKnownYet) return response;
        // Without `property`, as in check: the engine would print the value next to it.
        const message = err instanceof Error ? err.message : String(err);
        response.setFailuresList([new provproto.CheckFailure().setProperty("").setReason(message)]);
      }
      return response;
    },
    diffConfig: async (request: provproto.DiffRequest) => {
      const olds = decode(request.getOldInputs() ?? request.getOlds()).values;
      const news = decode(request.getNews()).values;
      const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
      const changed = [...keys].filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]));
      // A new setting never replaces the provider: its resources see the change in their own diff.
      return new provproto.DiffResponse()
        .setChanges(
          changed.length > 0
            ? provproto.DiffResponse.DiffChanges.DIFF_SOME
            : provproto.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setDiffsList(changed);
    },
    configure: async (request: provproto.ConfigureRequest) => {
      // The typed arguments when the engine sends them; else the string variables, keyed `webhooks:config:<name>`.
      const args = request.getArgs();
      const values: Record<string, unknown> = args ? decode(args).values : {};
      if (!args) request.getVariablesMap().forEach((value, key) => (values[settingName(key)] = value));
      config = nativeConfigSource(values, request.getUrn());
      acceptSecrets = request.getAcceptsecrets();
      await core.configure({ config });
      return new provproto.ConfigureResponse().setAcceptsecrets(true).setSupportspreview(true);
    },

    check: async (request: provproto.CheckRequest) => {
      const news = decode(request.getNews());
      const result = await core.check(decode(request.getOlds()).values, news.values);
      return new provproto.CheckResponse()
        .setInputs(inputs(result.inputs ?? {}, news.secrets))
        .setFailuresList(
          (result.failures ?? []).map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason)),
        );
    },
    diff: async (request: provproto.DiffRequest) => {
      const news = properties(request.getNews()) as SubscriptionInputs;
      const result = await core.diff(request.getId(), properties(request.getOlds()), news);
      const replaces = new Set(result.replaces);
      const { Kind } = provproto.PropertyDiff;
      const response = new provproto.DiffResponse()
        .setChanges(
          result.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
        )
        .setReplacesList([...replaces])
        .setDeletebeforereplace(result.deleteBeforeReplace ?? false)
        .setDiffsList(result.changed)
        .setHasdetaileddiff(true);
      for (const key of result.changed)
        response
          .getDetaileddiffMap()
          .set(
            key,
            new provproto.PropertyDiff()
              .setKind(replaces.has(key) ? Kind.UPDATE_REPLACE : Kind.UPDATE)
              .setInputdiff(key !== "baseUrl"),
          );
      return response;
    },
    create: async (request: provproto.CreateRequest) => {
      const news = decode(request.getProperties());
      const values = coreForm(news.values) as SubscriptionInputs;
      if (request.getPreview())
        return new provproto.CreateResponse().setId("").setProperties(outputs(previewOutputs(values), news.secrets));
      const created = await core.create(values);
      return new provproto.CreateResponse().setId(created.id).setProperties(outputs(created.outs ?? {}, news.secrets));
    },
    read: async (request: provproto.ReadRequest) => {
      const state = properties(request.getProperties());
      const given = decode(request.getInputs());
      // `pulumi import` reads by id alone: no state yet.
      const hasState = Object.keys(state).length > 0;
      const result = await core.read(request.getId(), hasState ? state : {});
      const response = new provproto.ReadResponse();
      if (!result.id) return response; // gone: the engine drops it from state
      return response
        .setId(result.id)
        .setProperties(outputs(result.props ?? {}, given.secrets))
        .setInputs(inputs(result.inputs ?? given.values, given.secrets));
    },
    update: async (request: provproto.UpdateRequest) => {
      const olds = properties(request.getOlds());
      const news = decode(request.getNews());
      const values = coreForm(news.values) as SubscriptionInputs;
      if (request.getPreview())
        return new provproto.UpdateResponse().setProperties(outputs(previewOutputs(values, olds), news.secrets));
      const updated = await core.update(request.getId(), olds, values);
      return new provproto.UpdateResponse().setProperties(outputs(updated.outs ?? {}, news.secrets));
    },
    delete: async (request: provproto.DeleteRequest) => {
      await core.delete(request.getId(), properties(request.getProperties()));
      return new Empty();
    },

    invoke: async (request: provproto.InvokeRequest) => {
      const args = decode(request.getArgs()).values;
      const response = new provproto.InvokeResponse();
      switch (request.getTok()) {
        case GET_FUNCTION_TOKEN: {
          const guid = args.guid;
          if (typeof guid !== "string" || guid === "")
            return response.setFailuresList([
              new provproto.CheckFailure()
                .setProperty("guid")
                .setReason(`guid is required: the GUID of the subscription to read, got: ${JSON.stringify(guid)}.`),
            ]);
          const includeSecrets = args[INCLUDE_SECRETS] ?? false;
          if (typeof includeSecrets !== "boolean")
            return response.setFailuresList([
              new provproto.CheckFailure()
                .setProperty(INCLUDE_SECRETS)
                .setReason(
                  `${INCLUDE_SECRETS} must be true or false (whether to return signature and customHeaderValue too), got: ${JSON.stringify(includeSecrets)}.`,
                ),
            ]);
          // Read as `WebhookSubscription.get` reads: by GUID alone, failing when the instance holds none.
          const found = (await core.read(guid, {})).props ?? {};
          // One secret makes the engine and the SDKs mark the whole result secret: the secrets
          // come only when asked for, so `subscriberUrl` and the rest stay plain values.
          return response.setReturn(outputs(includeSecrets ? found : withoutSecrets(found)));
        }
        case LIST_FUNCTION_TOKEN:
          return response.setReturn(encode({ subscriptions: (await listSubscriptions(config, env)).map(engineForm) }));
        default:
          throw new Error(
            `unknown function ${request.getTok()}: the webhooks provider has ${GET_FUNCTION_TOKEN} and ${LIST_FUNCTION_TOKEN}.`,
          );
      }
    },
  };
}

/** The calls lifecycleCalls returns, by name. */
export type LifecycleCalls = ReturnType<typeof lifecycleCalls>;
