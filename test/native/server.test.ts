/**
 * The native plugin's gRPC server, started in-process on port 0 against the real emulator and
 * driven with the protocol's generated client stubs, as the engine drives it: schema, config
 * checks, the resource's lifecycle with and without state (`pulumi import`), secrets, the functions.
 */
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encode, UNKNOWN } from "../../provider/native/codec";
import { describeResource } from "../../provider/description/describeResource";
import { pluginSchema, type PackageSchema } from "../../provider/native/schema";
import { serve, type RunningPlugin } from "../../provider/native/server";
import { checkInputs } from "../../provider/core/inputs";
import { readSettings } from "../../provider/core/settings";
import { WEBHOOK_NAMES } from "../../provider/wire";
import { readSchemaDeclarations } from "../../scripts/schemaDeclarations";
import { createdOutputs, PACKET } from "../support/createdOutputs";
import { EmulatorHarness, objectScopedBody } from "../support/emulatorHarness";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { version } = require("../../package.json") as { version: string };

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const secret = (value: unknown) => ({ [SIG]: SECRET, value });
const URN = "urn:pulumi:dev::proj::webhooks:index:WebhookSubscription::orders";
const { DiffChanges } = provproto.DiffResponse;
const { Kind } = provproto.PropertyDiff;

let emulator: EmulatorHarness;
let plugin: RunningPlugin;
let client: provrpc.ResourceProviderClient;
let schema: PackageSchema;

/** The unary methods, with their request and response types. */
type Unary = {
  [K in keyof provrpc.IResourceProviderServer]: provrpc.IResourceProviderServer[K] extends grpc.handleUnaryCall<
    infer Req,
    infer Res
  >
    ? [Req, Res]
    : never;
};
/** One unary call through the generated client. */
function rpc<K extends keyof Unary>(method: K, request: Unary[K][0]): Promise<Unary[K][1]> {
  return new Promise((resolve, reject) =>
    (client as unknown as Record<K, (...args: unknown[]) => unknown>)[method].call(
      client,
      request,
      (err: grpc.ServiceError | null, response: Unary[K][1]) => (err ? reject(err) : resolve(response)),
    ),
  );
}

function checkRequest(news: Record<string, unknown>, urn = URN, olds: Record<string, unknown> = {}) {
  return new provproto.CheckRequest().setUrn(urn).setNews(encode(news)).setOlds(encode(olds));
}

function configureRequest(variables: Record<string, string>) {
  const request = new provproto.ConfigureRequest().setAcceptsecrets(true);
  for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
  return request;
}

/** The message readSettings gives for a stack config, as the dynamic provider reports it. */
function settingsMessage(config: Record<string, string>): string {
  try {
    readSettings({ get: (key) => config[key] }, {});
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("the settings were valid");
}

const ARGS = {
  webhook: "PacketCreated",
  filterObjectType: 2,
  filterObjectGuid: PACKET,
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X Api Key",
  customHeaderValue: secret("k1"),
};

// readSchemaDeclarations runs the TypeScript compiler over the declarations: 9.5 s alone on a
// loaded 2-core machine, past the default 10 s hook timeout once the emulator's start is added.
beforeAll(async () => {
  emulator = await EmulatorHarness.start();
  schema = pluginSchema(version, describeResource(readSchemaDeclarations()));
  plugin = await serve({ version, schema: JSON.stringify(schema), env: {} });
  client = new provrpc.ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
}, 60_000);
afterAll(async () => {
  client?.close();
  await plugin?.close();
  await emulator?.close();
});
beforeEach(async () => {
  await emulator.reset();
  // As engine 3.248 sends them: variables keyed `<package>:config:<name>`.
  await rpc(
    "configure",
    configureRequest({ "webhooks:config:baseUrl": emulator.url, "webhooks:config:token": "dev-builder" }),
  );
});

describe("plugin info and schema", () => {
  it("reports the package version", async () => {
    const info = await rpc("getPluginInfo", new Empty());
    expect(info.getVersion()).toBe(version);
  });

  it("serves the schema: the resource, the provider, the functions, secrets marked", async () => {
    const response = await rpc("getSchema", new provproto.GetSchemaRequest());
    const served = JSON.parse(response.getSchema()) as PackageSchema;
    expect(served).toEqual(schema);
    expect(served.name).toBe("webhooks");
    expect(Object.keys(served.functions).sort()).toEqual([
      "webhooks:index:getWebhookSubscription",
      "webhooks:index:listWebhookSubscriptions",
    ]);
    const resource = served.resources["webhooks:index:WebhookSubscription"]!;
    expect(resource.requiredInputs).toEqual(["webhook", "filterObjectType", "subscriberUrl"]);
    expect(resource.inputProperties.customHeaderValue).toMatchObject({ type: "string", secret: true });
    expect(resource.inputProperties.subscriberUrl!.description).toMatch(/^Absolute http\(s\) URL that receives/);
    expect(resource.inputProperties.webhook!.$ref).toBe("#/types/webhooks:index:Webhook");
    expect(resource.properties.signature).toMatchObject({ type: "string", secret: true });
    expect(resource.properties.customHeaderValue).toMatchObject({ secret: true });
    expect(resource.required).toContain("guid");
    expect(resource.required).not.toContain("filterObjectGuid");
    // A string enum of the names: YAML writes `webhook: PacketCreated` (an integer enum it refuses).
    expect(served.types["webhooks:index:Webhook"]).toMatchObject({
      type: "string",
      enum: WEBHOOK_NAMES.map((name) => ({ name, value: name })),
    });
    expect(WEBHOOK_NAMES).toHaveLength(6);
    // The lookup's secrets come only when asked for, so they are not required outputs.
    const get = served.functions["webhooks:index:getWebhookSubscription"]!;
    expect(get.inputs!.properties.includeSecrets).toMatchObject({ type: "boolean" });
    expect(get.outputs.required).toContain("subscriberUrl");
    expect(get.outputs.required).not.toContain("signature");
    for (const settings of [served.config.variables, served.provider.inputProperties]) {
      expect(settings.token).toMatchObject({ type: "string", secret: true });
      expect(settings.clientSecret).toMatchObject({ type: "string", secret: true });
      expect(settings.baseUrl!.secret).toBeUndefined();
      expect(settings.maxRequestsPerSecond!.type).toBe("number");
      expect(settings.adoptIdentical!.type).toBe("boolean");
    }
  });
});

describe("provider config", () => {
  const PROVIDER_URN = "urn:pulumi:dev::proj::pulumi:providers:webhooks::default_0_1_0";

  it("fails CheckConfig on a bad setting with today's message, naming the key", async () => {
    const config = { baseUrl: emulator.url, token: "dev-builder", maxRequestsPerSecond: "fast" };
    const response = await rpc("checkConfig", checkRequest(config, PROVIDER_URN));
    const reasons = response.getFailuresList().map((f) => f.getReason());
    expect(reasons).toEqual([
      settingsMessage({
        "webhooks:baseUrl": emulator.url,
        "webhooks:token": "dev-builder",
        "webhooks:maxRequestsPerSecond": "fast",
      }),
    ]);
    expect(reasons[0]).toContain("webhooks:maxRequestsPerSecond");
    expect(reasons[0]).toContain('"fast"');
  });

  it("names an explicit provider's settings after it, and returns token and clientSecret as secrets", async () => {
    const urn = "urn:pulumi:dev::proj::pulumi:providers:webhooks::prod";
    const response = await rpc("checkConfig", checkRequest({ baseUrl: emulator.url }, urn));
    expect(response.getFailuresList().map((f) => f.getReason())).toEqual([
      expect.stringContaining('Provider "prod" token'),
    ]);
    const ok = await rpc("checkConfig", checkRequest({ baseUrl: emulator.url, token: "dev-builder" }, urn));
    expect(ok.getFailuresList()).toEqual([]);
    expect(ok.getInputs()!.toJavaScript()).toEqual({ baseUrl: emulator.url, token: secret("dev-builder") });
  });

  it("passes a setting not known yet (preview)", async () => {
    const response = await rpc("checkConfig", checkRequest({ baseUrl: UNKNOWN, token: "t" }, PROVIDER_URN));
    expect(response.getFailuresList()).toEqual([]);
  });

  it("reads the typed arguments when Configure carries them, secrets unwrapped", async () => {
    const request = new provproto.ConfigureRequest()
      .setAcceptsecrets(true)
      .setArgs(encode({ baseUrl: emulator.url, token: "dev-builder", maxRequestsPerSecond: 50 }, ["token"]));
    await rpc("configure", request);
    const listed = await rpc(
      "invoke",
      new provproto.InvokeRequest().setTok("webhooks:index:listWebhookSubscriptions").setArgs(encode({})),
    );
    expect(listed.getReturn()!.toJavaScript()).toEqual({ subscriptions: [] });
  });

  it("diffs config without replacing the provider", async () => {
    const request = new provproto.DiffRequest()
      .setOlds(encode({ baseUrl: "https://a.example.com" }))
      .setNews(encode({ baseUrl: "https://b.example.com" }));
    const response = await rpc("diffConfig", request);
    expect(response.getChanges()).toBe(DiffChanges.DIFF_SOME);
    expect(response.getDiffsList()).toEqual(["baseUrl"]);
    expect(response.getReplacesList()).toEqual([]);
  });
});

describe("WebhookSubscription", () => {
  /** Check, as the engine calls it before create: the checked inputs. */
  async function check(news: Record<string, unknown>) {
    const response = await rpc("check", checkRequest(news));
    expect(response.getFailuresList().map((f) => f.getReason())).toEqual([]);
    return response.getInputs()!;
  }

  it("reports check failures with the model's messages", async () => {
    const bad = { ...ARGS, subscriberUrl: "ftp://x" };
    const response = await rpc("check", checkRequest(bad));
    const expected = checkInputs({ ...bad, customHeaderValue: "k1" }).failures.map((f) => f.reason);
    expect(response.getFailuresList().map((f) => f.getReason())).toEqual(expected);
    expect(expected[0]).toContain("subscriberUrl must be an absolute http(s) URL");
  });

  it("previews, creates, reads (with and without state), updates, diffs, deletes", async () => {
    const inputs = await check(ARGS);
    expect(inputs.toJavaScript()).toEqual({
      webhook: "PacketCreated",
      filterObjectType: 2,
      filterObjectGuid: PACKET,
      subscriberUrl: "https://hooks.example.com/orders",
      customHeader: "X-Api-Key",
      customHeaderValue: secret("k1"),
    });

    const preview = await rpc(
      "create",
      new provproto.CreateRequest().setUrn(URN).setProperties(inputs).setPreview(true),
    );
    expect(preview.getId()).toBe("");
    expect(preview.getProperties()!.toJavaScript()).toMatchObject({
      guid: UNKNOWN,
      signature: secret(UNKNOWN),
      webhookName: "PacketCreated",
      subscriberUrl: "https://hooks.example.com/orders",
    });
    expect(await emulator.all()).toEqual([]);

    const created = await rpc("create", new provproto.CreateRequest().setUrn(URN).setProperties(inputs));
    const [live] = await emulator.all();
    expect(created.getId()).toBe(live!.GUID);
    const state = created.getProperties()!;
    expect(state.toJavaScript()).toEqual(
      createdOutputs(
        { guid: live!.GUID, signature: live!.Signature, baseUrl: emulator.url, webhook: "PacketCreated" },
        secret,
      ),
    );

    const refreshed = await rpc(
      "read",
      new provproto.ReadRequest().setId(live!.GUID).setUrn(URN).setProperties(state).setInputs(inputs),
    );
    expect(refreshed.getId()).toBe(live!.GUID);
    expect(refreshed.getProperties()!.toJavaScript()).toEqual(state.toJavaScript());
    expect(refreshed.getInputs()!.toJavaScript()).toEqual(inputs.toJavaScript());

    // `pulumi import`: the id alone.
    const imported = await rpc("read", new provproto.ReadRequest().setId(live!.GUID).setUrn(URN));
    expect(imported.getId()).toBe(live!.GUID);
    expect(imported.getProperties()!.toJavaScript()).toEqual(state.toJavaScript());
    expect(imported.getInputs()!.toJavaScript()).toEqual(inputs.toJavaScript());

    const diff = (news: Record<string, unknown>) =>
      rpc("diff", new provproto.DiffRequest().setId(live!.GUID).setUrn(URN).setOlds(state).setNews(encode(news)));
    const checkedValues = { ...(inputs.toJavaScript() as Record<string, unknown>), customHeaderValue: "k1" };
    const same = await diff(checkedValues);
    expect(same.getChanges()).toBe(DiffChanges.DIFF_NONE);

    const moved = { ...checkedValues, subscriberUrl: "https://hooks.example.com/v2" };
    const inPlace = await diff(moved);
    expect(inPlace.getChanges()).toBe(DiffChanges.DIFF_SOME);
    expect(inPlace.getReplacesList()).toEqual([]);
    expect(inPlace.getHasdetaileddiff()).toBe(true);
    expect(inPlace.getDetaileddiffMap().get("subscriberUrl")!.getKind()).toBe(Kind.UPDATE);

    // State written before the names (or by the dynamic provider) holds the integer: the same event.
    const integerState = encode({ ...(state.toJavaScript() as Record<string, unknown>), webhook: 0 });
    const sameAsInteger = await rpc(
      "diff",
      new provproto.DiffRequest().setId(live!.GUID).setUrn(URN).setOlds(integerState).setNews(encode(checkedValues)),
    );
    expect(sameAsInteger.getChanges()).toBe(DiffChanges.DIFF_NONE);
    const refreshedInteger = await rpc(
      "read",
      new provproto.ReadRequest().setId(live!.GUID).setUrn(URN).setProperties(integerState).setInputs(inputs),
    );
    expect(refreshedInteger.getProperties()!.toJavaScript()).toMatchObject({ webhook: "PacketCreated" });
    const integerInputs = await check({ ...ARGS, webhook: 0 });
    expect(integerInputs.toJavaScript()).toMatchObject({ webhook: "PacketCreated" });

    const replaced = await diff({ ...checkedValues, webhook: "PacketUpdated" });
    expect(replaced.getReplacesList()).toEqual(["webhook"]);
    expect(replaced.getDeletebeforereplace()).toBe(false);
    expect(replaced.getDetaileddiffMap().get("webhook")!.getKind()).toBe(Kind.UPDATE_REPLACE);

    const updated = await rpc(
      "update",
      new provproto.UpdateRequest()
        .setId(live!.GUID)
        .setUrn(URN)
        .setOlds(state)
        .setNews(encode(moved, ["customHeaderValue"])),
    );
    expect(updated.getProperties()!.toJavaScript()).toMatchObject({
      guid: live!.GUID,
      signature: secret(live!.Signature),
      subscriberUrl: "https://hooks.example.com/v2",
    });
    expect((await emulator.all()).map((s) => [s.GUID, s.SubscriberURL])).toEqual([
      [live!.GUID, "https://hooks.example.com/v2"],
    ]);

    await rpc(
      "delete",
      new provproto.DeleteRequest().setId(live!.GUID).setUrn(URN).setProperties(updated.getProperties()!),
    );
    expect(await emulator.all()).toEqual([]);
    const gone = await rpc(
      "read",
      new provproto.ReadRequest().setId(live!.GUID).setUrn(URN).setProperties(updated.getProperties()!),
    );
    expect(gone.getId()).toBe("");
  });

  it("fails an import of a GUID the instance does not hold, saying so", async () => {
    const missing = "0b7e2b8e-1111-4222-8333-444455556666";
    await expect(rpc("read", new provproto.ReadRequest().setId(missing).setUrn(URN))).rejects.toThrow(
      `No subscription ${missing} on ${emulator.url}: check the GUID`,
    );
  });
});

describe("functions", () => {
  function invoke(tok: string, args: Record<string, unknown>) {
    return rpc("invoke", new provproto.InvokeRequest().setTok(tok).setArgs(encode(args)));
  }

  it("lists the instance's subscriptions without their secrets", async () => {
    const live = await emulator.subscribe(
      objectScopedBody(0, PACKET, { CustomHeader: "X-Key", CustomHeaderValue: "v" }),
    );
    const response = await invoke("webhooks:index:listWebhookSubscriptions", {});
    expect(response.getFailuresList()).toEqual([]);
    expect(response.getReturn()!.toJavaScript()).toEqual({
      subscriptions: [
        {
          guid: live.GUID,
          webhook: "PacketCreated",
          filterObjectType: 7,
          filterObjectGuid: PACKET,
          subscriberUrl: "https://hooks.example.com/obj",
          customHeader: "X-Key",
        },
      ],
    });
  });

  it("gets one subscription by GUID without its secrets, so nothing in the result is secret", async () => {
    const live = await emulator.subscribe(
      objectScopedBody(0, PACKET, { CustomHeader: "X-Key", CustomHeaderValue: "header-secret" }),
    );
    const response = await invoke("webhooks:index:getWebhookSubscription", { guid: live.GUID });
    const result = response.getReturn()!.toJavaScript() as Record<string, unknown>;
    expect(result).toMatchObject({
      guid: live.GUID,
      webhook: "PacketCreated",
      webhookName: "PacketCreated",
      subscriberUrl: "https://hooks.example.com/obj",
      customHeader: "X-Key",
      baseUrl: emulator.url,
    });
    expect(Object.keys(result)).not.toContain("signature");
    expect(Object.keys(result)).not.toContain("customHeaderValue");
    expect(JSON.stringify(result)).not.toContain("1b47061264138c4ac30d75fd1eb44270");
    expect(JSON.stringify(result)).not.toContain(live.Signature);
  });

  it("gets the secrets too, as secrets, with includeSecrets", async () => {
    const live = await emulator.subscribe(
      objectScopedBody(0, PACKET, { CustomHeader: "X-Key", CustomHeaderValue: "header-secret" }),
    );
    const response = await invoke("webhooks:index:getWebhookSubscription", { guid: live.GUID, includeSecrets: true });
    expect(response.getReturn()!.toJavaScript()).toMatchObject({
      guid: live.GUID,
      signature: secret(live.Signature),
      customHeaderValue: secret("header-secret"),
      subscriberUrl: "https://hooks.example.com/obj",
    });
  });

  it("refuses an includeSecrets that is not a boolean, naming the argument and the value", async () => {
    const live = await emulator.subscribe(objectScopedBody(0, PACKET));
    const response = await invoke("webhooks:index:getWebhookSubscription", { guid: live.GUID, includeSecrets: "yes" });
    expect(response.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      [
        "includeSecrets",
        'includeSecrets must be true or false (whether to return signature and customHeaderValue too), got: "yes".',
      ],
    ]);
  });

  it("refuses a get without a GUID, naming the argument", async () => {
    const response = await invoke("webhooks:index:getWebhookSubscription", {});
    expect(response.getFailuresList().map((f) => [f.getProperty(), f.getReason()])).toEqual([
      ["guid", expect.stringContaining("guid is required")],
    ]);
  });

  it("refuses an unknown function, naming the known ones", async () => {
    await expect(invoke("webhooks:index:nope", {})).rejects.toThrow(/unknown function webhooks:index:nope/);
  });
});
