/**
 * Drives a training launch (train.ts) of one front door through the calls a real launch makes,
 * so that the code cache it writes holds them compiled: for Terraform's door what `tofu plan`'s
 * launches ask (GetProviderSchema, the two validations, ConfigureProvider, the plan of a create),
 * then go-plugin's Shutdown; for Pulumi's what a preview of a new subscription asks (GetPluginInfo,
 * GetSchema, CheckConfig, Configure, Check, a preview Create); the CLI's runs its commands' help by
 * itself and exits (train.ts). Nothing reaches a service: the base URL is set and never called. The launch runs on the target's runtime (../targets.ts), its
 * stdout and stderr in files, as Node.js under wine needs.
 */
import { spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import type { Door } from "../../../launcher/doors";
import type { ResourceDescription } from "../../../provider/description/resourceDescription";
import { encode } from "../../../provider/native/codec";
import { serverCertificate } from "../../../provider/terraform/goPlugin/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../../provider/terraform/goPlugin/handshake";
import { RESOURCE_TYPE } from "../../../provider/terraform/names";
import { serviceDefinition } from "../../../provider/terraform/protocol/services";
import { objectType, terraformSchema } from "../../../provider/terraform/schema";
import { toMsgpack, type Value } from "../../../provider/terraform/values/codec";
import { nodeRuntime, SEA_EXEC_ARGV, type Target, targetName } from "../nodeRuntime";
import { runOnTarget } from "../targets";

/**
 * What a training launch runs: the trainer script, each door's bundle, and the folder with
 * schema.json, description.json and package.json.
 */
export interface TrainingFiles {
  readonly trainer: string;
  readonly bundles: Readonly<Record<Door, string>>;
  readonly pluginDir: string;
}

/** Node.js under qemu's emulation takes seconds to start, more on a loaded machine. */
const LINE_TIMEOUT_MS = 300_000;
const CALL_DEADLINE_MS = 120_000;

/** The subscription a training launch plans: a valid one, as a user declares it. */
const SUBSCRIPTION = {
  webhook: "PacketCreated",
  filterObjectType: 2,
  filterObjectGuid: "6f1c2a3b-0000-4000-8000-000000000001",
  subscriberUrl: "https://hooks.example.com/orders",
  customHeader: "X-Team",
} as const;
const ENV = { WEBHOOKS_BASE_URL: "https://webhooks.example.com", WEBHOOKS_TOKEN: "training" };

/**
 * Trains `door`'s code cache on `target`'s runtime (launcher/sea.ts reads it when it picks that
 * door); returns the cache file (`<dir>/<target>-<door>.codecache`).
 */
export async function trainCodeCache(target: Target, door: Door, files: TrainingFiles, dir: string): Promise<string> {
  const name = `${targetName(target)}-${door}`;
  const [cache, done, out, err] = ["codecache", "done", "stdout", "stderr"].map((ext) => join(dir, `${name}.${ext}`));
  const client = door === "terraform" ? await serverCertificate() : undefined;
  const how = runOnTarget(target, nodeRuntime(target), [
    ...SEA_EXEC_ARGV,
    files.trainer,
    door,
    files.bundles[door],
    files.pluginDir,
    cache!,
    done!,
  ]);
  const env = {
    ...how.env,
    ...ENV,
    ...(client
      ? {
          [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
          PLUGIN_PROTOCOL_VERSIONS: "6",
          PLUGIN_MIN_PORT: "0",
          PLUGIN_MAX_PORT: "0",
          PLUGIN_CLIENT_CERT: client.certificatePem,
        }
      : {}),
  };
  const fds = [out!, err!].map((file) => openSync(file, "w"));
  const child = spawn(how.command, how.args, { env, stdio: ["ignore", ...fds] });
  fds.forEach((fd) => closeSync(fd));
  let exit: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.on("exit", (code) => resolve(void (exit = code))));
  const failed = (what: string) =>
    new Error(`dist:executables: ${name}'s training launch ${what}; stderr:\n${readFileSync(err!, "utf8")}`);
  try {
    if (door !== "cli") {
      const line = await firstLine(out!, () => exit !== undefined, failed);
      if (client) await terraformLaunch(line, client, files.pluginDir);
      else await pulumiLaunch(line);
      writeFileSync(done!, "");
    }
    await Promise.race([exited, sleep(LINE_TIMEOUT_MS, undefined, { ref: false })]);
    if (exit !== 0 || !existsSync(cache!)) throw failed(`ended with ${exit ?? "no exit"} and no cache`);
    return cache!;
  } finally {
    if (exit === undefined) child.kill("SIGKILL");
  }
}

/** The first line the launch printed (Pulumi: its port; Terraform: the handshake line). */
async function firstLine(file: string, ended: () => boolean, failed: (what: string) => Error): Promise<string> {
  const since = Date.now();
  while (Date.now() - since < LINE_TIMEOUT_MS) {
    const line = /^(.*)\r?\n/.exec(readFileSync(file, "utf8"))?.[1];
    if (line) return line;
    if (ended()) throw failed("ended before its first line");
    await sleep(100);
  }
  throw failed(`printed nothing in ${LINE_TIMEOUT_MS / 1000} s`);
}

type Unary = (
  request: object,
  options: grpc.CallOptions,
  callback: (err: grpc.ServiceError | null, r: object) => void,
) => void;
/** One unary call by method name, through a generic or generated client. */
function call<T = Record<string, unknown>>(client: grpc.Client, method: string, request: object): Promise<T> {
  return new Promise((resolve, reject) =>
    (client as unknown as Record<string, Unary>)[method]!.call(
      client,
      request,
      { deadline: Date.now() + CALL_DEADLINE_MS },
      (err, response) => (err ? reject(err) : resolve(response as T)),
    ),
  );
}

/** `tofu plan`'s calls over mutual TLS, as go-plugin's client makes them, then Shutdown. */
async function terraformLaunch(
  line: string,
  client: { certificatePem: string; privateKeyPem: string },
  pluginDir: string,
) {
  const [, , , address, , certificate] = line.split("|");
  const serverPem = new X509Certificate(Buffer.from(certificate!, "base64")).toString();
  const credentials = grpc.credentials.createSsl(
    Buffer.from(serverPem),
    Buffer.from(client.privateKeyPem),
    Buffer.from(client.certificatePem),
  );
  const options = { "grpc.ssl_target_name_override": "localhost" };
  const Provider = grpc.makeGenericClientConstructor(serviceDefinition("tfplugin6.Provider"), "Provider");
  const Controller = grpc.makeGenericClientConstructor(serviceDefinition("plugin.GRPCController"), "Controller");
  const provider = new Provider(address!, credentials, options);
  const controller = new Controller(address!, credentials, options);
  try {
    const description = JSON.parse(readFileSync(join(pluginDir, "description.json"), "utf8")) as ResourceDescription;
    const schema = terraformSchema(description);
    const resourceType = objectType(schema.resources[RESOURCE_TYPE]!.attributes);
    const value = (v: Value, type = resourceType) => ({ msgpack: Buffer.from(toMsgpack(v, type)) });
    const config = {
      webhook: SUBSCRIPTION.webhook,
      filter_object_type: SUBSCRIPTION.filterObjectType,
      filter_object_guid: SUBSCRIPTION.filterObjectGuid,
      subscriber_url: SUBSCRIPTION.subscriberUrl,
      custom_header: SUBSCRIPTION.customHeader,
    };
    const capabilities = { client_capabilities: { write_only_attributes_allowed: true } };
    await call(provider, "GetProviderSchema", {});
    await call(provider, "ValidateProviderConfig", { config: value({}, objectType(schema.provider.attributes)) });
    await call(provider, "ValidateResourceConfig", {
      type_name: RESOURCE_TYPE,
      config: value(config),
      ...capabilities,
    });
    await call(provider, "ConfigureProvider", { config: value({}, objectType(schema.provider.attributes)) });
    const planned = await call<{ diagnostics?: unknown[] }>(provider, "PlanResourceChange", {
      type_name: RESOURCE_TYPE,
      prior_state: value(null),
      proposed_new_state: value(config),
      config: value(config),
      ...capabilities,
    });
    if (planned.diagnostics?.length) throw new Error(`the training plan said ${JSON.stringify(planned.diagnostics)}`);
    await call(controller, "Shutdown", {});
  } finally {
    provider.close();
    controller.close();
  }
}

/** A preview's calls of one new subscription, as the Pulumi engine makes them. */
async function pulumiLaunch(port: string): Promise<void> {
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const urn = "urn:pulumi:training::training::webhooks:index:WebhookSubscription::orders";
  const news = encode({ ...SUBSCRIPTION });
  try {
    await call<pluginproto.PluginInfo>(client, "getPluginInfo", new Empty());
    await call(client, "getSchema", new provproto.GetSchemaRequest());
    const config = encode({});
    await call(
      client,
      "checkConfig",
      new provproto.CheckRequest()
        .setUrn("urn:pulumi:training::training::pulumi:providers:webhooks::default")
        .setNews(config)
        .setOlds(config),
    );
    const configure = new provproto.ConfigureRequest().setAcceptsecrets(true).setAcceptresources(true);
    configure.getVariablesMap().set("webhooks:config:baseUrl", ENV.WEBHOOKS_BASE_URL);
    configure.getVariablesMap().set("webhooks:config:token", ENV.WEBHOOKS_TOKEN);
    await call(client, "configure", configure);
    const checked = await call<provproto.CheckResponse>(
      client,
      "check",
      new provproto.CheckRequest().setUrn(urn).setNews(news).setOlds(encode({})),
    );
    if (checked.getFailuresList().length > 0)
      throw new Error(
        `the training Check failed: ${checked
          .getFailuresList()
          .map((f) => f.getReason())
          .join("; ")}`,
      );
    await call(
      client,
      "create",
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()).setPreview(true),
    );
  } finally {
    client.close();
  }
}
