/**
 * The tfplugin6 `Provider` service: a thin adapter over the one lifecycle (core/lifecycle.ts), as
 * the native plugin is. The core decides — what a check refuses, what a change replaces, how a
 * create avoids duplicates, what a refresh finds — and this maps its decisions onto Terraform's
 * calls: values through the codec (values/codec.ts) against the schema (schema.ts), inputs and
 * state through state.ts, failures as diagnostics with attribute paths (diagnostics.ts). The calls
 * that only describe the provider (its schema) are describe.ts's.
 */
import type * as grpc from "@grpc/grpc-js";
import { checkInputs, type SubscriptionInputs } from "../core/inputs";
import { createProvider } from "../core/lifecycle";
import { TERRAFORM_WORDING } from "./wording";
import { listSubscriptions } from "../core/list";
import type { SubscriptionOutputs } from "../core/outputs";
import { readSettings, SettingsNotKnownYet, type ConfigSource } from "../core/settings";
import { webhookName } from "../wire";
import { attributeError, attributePath, ERROR, errorDiagnostic, type Diagnostic } from "./diagnostics";
import { snakeCase } from "../description/hclNames";
import { RESOURCE_TYPE, SUBSCRIPTION_DATA_SOURCE, SUBSCRIPTIONS_DATA_SOURCE } from "./names";
import { terraformConfigSource } from "./providerConfig";
import { withWarnings } from "./requestDiagnostics";
import {
  objectType,
  SCHEMA_VERSION,
  embeddedSchema,
  IMPORTED_VERSION,
  WRITE_ONLY_VALUE,
  WRITE_ONLY_VERSION,
  type Block,
} from "./schema";
import { attributeOfField, inputsOf, outputsOf, plannedCreate, stateOf, type Attributes } from "./state";
import { validateSubscription, type ClientCapabilities } from "./validate";
import { fromJson, fromMsgpack, toMsgpack, Unknown, type CtyType, type Value } from "./values/codec";

/** A DynamicValue: msgpack, or JSON where the client sends that. */
interface DynamicValue {
  msgpack?: Buffer | null;
  json?: Buffer | null;
}

/** A request as protobufjs decodes it (defaults filled in): the fields this service reads. */
type Request = Record<string, unknown> & {
  type_name?: string;
  config?: DynamicValue | null;
  prior_state?: DynamicValue | null;
  proposed_new_state?: DynamicValue | null;
  planned_state?: DynamicValue | null;
  current_state?: DynamicValue | null;
  client_capabilities?: ClientCapabilities | null;
  id?: string;
  version?: number;
  raw_state?: { json?: Buffer | null } | null;
  identity?: { identity_data?: DynamicValue | null } | null;
};
type Response = Record<string, unknown> & { diagnostics?: Diagnostic[] };

export interface TerraformProviderOptions {
  /** The resource's description the build derived from the model, as JSON (the Terraform schema is derived from it). */
  readonly description: string;
  /** Where `WEBHOOKS_*` are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/** Whether an attribute value is null (or absent). */
const isNull = (value: Value | undefined): boolean => value === null || value === undefined;

/**
 * The error for a plan that would send a subscription without its custom header value, clearing it
 * on the instance: the state holds no value to send (only the write-only version, as an import
 * leaves it), the configuration gives none yet keeps the header, and something changes
 * (`changed`: the core's changed fields). Undefined when the plan is safe.
 */
function droppedHeaderValue(prior: Attributes, config: Attributes, changed: readonly string[]): Diagnostic | undefined {
  const header = config.custom_header;
  if (isNull(prior[WRITE_ONLY_VERSION]) || !isNull(config[WRITE_ONLY_VALUE]) || !isNull(config.custom_header_value))
    return undefined;
  if (typeof header !== "string" || header === "") return undefined;
  const attributes = changed.map((field) => attributeOfField(field, true));
  if (prior[WRITE_ONLY_VERSION] !== config[WRITE_ONLY_VERSION]) attributes.push(WRITE_ONLY_VERSION);
  if (attributes.length === 0) return undefined;
  return attributeError(
    WRITE_ONLY_VALUE,
    `${WRITE_ONLY_VALUE} is not set, but custom_header is ${JSON.stringify(header)} and this plan changes ` +
      `${[...new Set(attributes)].join(", ")}: applying it would send the subscription without its header value, ` +
      "clearing the value on the instance (the state holds none to send: it is write-only, or was left out at import). " +
      `Supply the value through the variable ${WRITE_ONLY_VALUE} reads, e.g. in the environment as TF_VAR_<variable> ` +
      `(a map variable's by key), and change ${WRITE_ONLY_VERSION} (e.g. from ${IMPORTED_VERSION} to ${IMPORTED_VERSION + 1}) so that it is sent. ` +
      "To drop the header, remove custom_header instead.",
  );
}

/** The tfplugin6 Provider service implementation. */
export function terraformProvider(options: TerraformProviderOptions): grpc.UntypedServiceImplementation {
  const env = options.env ?? process.env;
  const schema = embeddedSchema(options.description);
  const resource = schema.resources[RESOURCE_TYPE]!;
  const resourceType = objectType(resource.attributes);
  const identity = schema.identities[RESOURCE_TYPE]!;
  const identityType = objectType(identity.attributes);
  // Terraform sends StopProvider on Ctrl-C: calls waiting out a backoff end then, not at their deadline,
  // the resource's (the core's session) and the data sources' (listSubscriptions' own client) alike.
  const stop = new AbortController();
  const core = createProvider({ env, signal: stop.signal, wording: TERRAFORM_WORDING });
  let settings: ConfigSource = { get: () => undefined };

  const read = (value: DynamicValue | null | undefined, type: CtyType): Attributes | null => {
    if (value?.msgpack && value.msgpack.length > 0) return fromMsgpack(value.msgpack, type) as Attributes | null;
    if (value?.json && value.json.length > 0) return fromJson(value.json, type) as Attributes | null;
    return null;
  };
  const write = (value: Attributes | null, type: CtyType): DynamicValue => ({
    msgpack: Buffer.from(toMsgpack(value, type)),
  });
  const identityOf = (guid: Value | undefined) =>
    guid === undefined || guid === null || guid instanceof Unknown
      ? undefined
      : { identity_data: write({ guid }, identityType) };
  const unknownType = (name: string | undefined): Response => ({
    diagnostics: [
      {
        severity: ERROR,
        summary: `Unknown type ${name}`,
        detail: `The webhooks provider has the resource ${RESOURCE_TYPE} and the data sources ${SUBSCRIPTION_DATA_SOURCE} and ${SUBSCRIPTIONS_DATA_SOURCE}.`,
      },
    ],
  });
  /** The checked inputs of a configuration. */
  const checked = (config: Attributes) => checkInputs(inputsOf(config)).inputs as SubscriptionInputs;
  const usesWriteOnly = (values: Attributes | null) => (values?.[WRITE_ONLY_VERSION] ?? null) !== null;

  const handlers: Record<string, (request: Request) => Promise<Response>> = {
    async ValidateProviderConfig() {
      // Checked at ConfigureProvider, when the variables it falls back to are read.
      return {};
    },
    async ConfigureProvider(request) {
      settings = terraformConfigSource(read(request.config, objectType(schema.provider.attributes)) ?? {});
      await core.configure({ config: settings });
      // The core keeps a settings error for the first call that needs the service; said here, once, instead.
      try {
        readSettings(settings, env, TERRAFORM_WORDING);
      } catch (err) {
        if (!(err instanceof SettingsNotKnownYet))
          return { diagnostics: [errorDiagnostic("Invalid provider settings", err)] };
      }
      return {};
    },
    async ValidateResourceConfig(request) {
      if (request.type_name !== RESOURCE_TYPE) return unknownType(request.type_name);
      const config = read(request.config, resourceType) ?? {};
      return { diagnostics: validateSubscription(config, request.client_capabilities) };
    },
    async ValidateDataResourceConfig(request) {
      if (!(request.type_name! in schema.dataSources)) return unknownType(request.type_name);
      return {};
    },
    async UpgradeResourceState(request) {
      if (request.type_name !== RESOURCE_TYPE) return unknownType(request.type_name);
      if ((request.version ?? 0) > SCHEMA_VERSION)
        return {
          diagnostics: [
            {
              severity: ERROR,
              summary: "State written by a newer provider",
              detail: `The state of this ${RESOURCE_TYPE} has schema version ${request.version}; this provider knows up to ${SCHEMA_VERSION}. Upgrade the provider.`,
            },
          ],
        };
      // Version 0 is the only one so far: the state is read as it is.
      const state = fromJson(request.raw_state?.json ?? "null", resourceType) as Attributes | null;
      return { upgraded_state: write(state, resourceType) };
    },
    async PlanResourceChange(request) {
      const prior = read(request.prior_state, resourceType);
      const proposed = read(request.proposed_new_state, resourceType);
      const config = read(request.config, resourceType);
      if (!proposed || !config) return { planned_state: write(null, resourceType) };
      const diagnostics = validateSubscription(config, request.client_capabilities);
      if (diagnostics.some((d) => d.severity === ERROR)) return { diagnostics };
      if (!prior) return { planned_state: write(plannedCreate(proposed), resourceType), diagnostics };

      const olds = outputsOf(prior);
      const news = checked(config);
      const writeOnly = usesWriteOnly(config);
      // Terraform stores no write-only value to compare: it changes when its version does.
      if (writeOnly)
        olds.customHeaderValue =
          prior[WRITE_ONLY_VERSION] === config[WRITE_ONLY_VERSION] ? (news.customHeaderValue ?? null) : null;
      const diff = await core.diff(String(prior.id), olds, news);
      const dropped = droppedHeaderValue(prior, config, diff.changed);
      if (dropped) return { diagnostics: [...diagnostics, dropped] };
      const planned: Attributes = { ...proposed, [WRITE_ONLY_VALUE]: null };
      for (const name of ["id", "guid", "signature", "base_url"]) planned[name] = prior[name] ?? null;
      const replaces = diff.replaces ?? [];
      const requiresReplace = replaces.map((field) => attributePath(attributeOfField(field, writeOnly)));
      if (replaces.length > 0)
        for (const name of ["id", "guid", "signature", "base_url"]) planned[name] = new Unknown();
      else if (diff.changed.includes("baseUrl")) planned.base_url = new Unknown();
      return {
        planned_state: write(planned, resourceType),
        requires_replace: requiresReplace,
        planned_identity: identityOf(planned.guid),
        diagnostics,
      };
    },
    async ApplyResourceChange(request) {
      const prior = read(request.prior_state, resourceType);
      const planned = read(request.planned_state, resourceType);
      const config = read(request.config, resourceType);
      if (!planned) {
        if (prior) await core.delete(String(prior.id), outputsOf(prior));
        return { new_state: write(null, resourceType) };
      }
      const news = checked(config ?? planned);
      let outs: Partial<SubscriptionOutputs>;
      if (!prior) outs = (await core.create(news)).outs ?? {};
      else {
        const olds = outputsOf(prior);
        outs = (await core.update(String(prior.id), olds, news)).outs ?? {};
      }
      const state = stateOf(outs, planned);
      return { new_state: write(state, resourceType), new_identity: identityOf(state.guid) };
    },
    async ReadResource(request) {
      const current = read(request.current_state, resourceType);
      if (!current) return { new_state: write(null, resourceType) };
      const result = await core.read(String(current.id), outputsOf(current) as SubscriptionOutputs);
      // Gone: Terraform drops it from state, and the next plan creates it again.
      if (!result.id) return { new_state: write(null, resourceType) };
      const state = stateOf(result.props as Partial<SubscriptionOutputs>, current);
      return { new_state: write(state, resourceType), new_identity: identityOf(state.guid) };
    },
    async ImportResourceState(request) {
      if (request.type_name !== RESOURCE_TYPE) return unknownType(request.type_name);
      const byIdentity = read(request.identity?.identity_data, identityType);
      const guid = request.id || (typeof byIdentity?.guid === "string" ? byIdentity.guid : "");
      if (!guid)
        return {
          diagnostics: [
            {
              severity: ERROR,
              summary: "No GUID to import",
              detail: `Import a ${RESOURCE_TYPE} by the subscription's GUID: \`terraform import ${RESOURCE_TYPE}.<name> <guid>\`, or an import block with id = "<guid>".`,
            },
          ],
        };
      const found = await core.read(guid, {} as SubscriptionOutputs);
      const live = found.props as Partial<SubscriptionOutputs>;
      // The live header value stays out of state (plain JSON): the write-only version stands for it, so
      // a configuration giving it through custom_header_value_wo at that version plans no change.
      const state = stateOf(live, live?.customHeaderValue ? { [WRITE_ONLY_VERSION]: IMPORTED_VERSION } : {});
      return {
        imported_resources: [
          { type_name: RESOURCE_TYPE, state: write(state, resourceType), identity: identityOf(state.guid) },
        ],
      };
    },
    async ReadDataSource(request) {
      const block: Block | undefined = schema.dataSources[request.type_name ?? ""];
      if (!block) return unknownType(request.type_name);
      const type = objectType(block.attributes);
      const config = read(request.config, type) ?? {};
      if (request.type_name === SUBSCRIPTIONS_DATA_SOURCE) {
        const listed = await listSubscriptions(settings, env, stop.signal);
        const subscriptions = listed.map((s): Attributes =>
          Object.fromEntries(
            Object.entries({
              ...s,
              webhook: webhookName(s.webhook) ?? String(s.webhook),
              customHeader: s.customHeader || null,
            }).map(([key, value]) => [snakeCase(key), (value ?? null) as Value]),
          ),
        );
        return {
          state: write({ id: settings.get("webhooks:baseUrl") ?? env.WEBHOOKS_BASE_URL ?? "", subscriptions }, type),
        };
      }
      const guid = String(config.guid);
      const found = await core.read(guid, {} as SubscriptionOutputs);
      const state = stateOf(found.props as Partial<SubscriptionOutputs>, {});
      const wanted = new Set(block.attributes.map((a) => a.name));
      return {
        state: write(Object.fromEntries(Object.entries({ ...state, guid }).filter(([name]) => wanted.has(name))), type),
      };
    },
    async StopProvider() {
      // Calls in flight fail with StoppedError at their next wait; a request already sent still gets its answer.
      stop.abort();
      return {};
    },
  };

  return Object.fromEntries(
    Object.entries(handlers).map(([method, handle]) => [
      method,
      (call: grpc.ServerUnaryCall<Request, Response>, callback: grpc.sendUnaryData<Response>) => {
        withWarnings(() => handle(call.request)).then(
          (response) => callback(null, response),
          (err: unknown) => callback(null, { diagnostics: [errorDiagnostic(`${method} failed`, err)] }),
        );
      },
    ]),
  );
}
