/**
 * `plugin_calls` (`npm run bench -- --only plugin`): what each of the engine's calls costs the
 * native plugin on its own, so that a YAML preview's cost beyond the plugin's start has names. The
 * linux-amd64 executable (bench/pluginStart.ts) is started as the engine starts it, against an
 * in-process emulator, and a gRPC client makes the calls a preview, an update and a refresh make,
 * in the engine's order: GetPluginInfo, GetSchema, CheckConfig, Configure, Check, Create (preview),
 * Create, Diff, Read. For each call: the plugin process's CPU time (the sum of its threads'
 * /proc schedstat, nanoseconds) and the client's wall time, first the first call (`first_*`: it
 * loads what the call needs), then the median of `repeats` more of the same call.
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { startEmulator } from "../emulator";
import { encode } from "../provider/native/codec";
import { median } from "./median";
import { ensurePackagings, EXECUTABLE } from "./pluginStart";

const URN = "urn:pulumi:bench::bench::webhooks:index:WebhookSubscription::sub";
const INPUTS = {
  webhook: "BusinessObjectCreated",
  filterObjectType: 7,
  subscriberUrl: "https://hooks.example.com/bench/0",
  customHeader: "X-Bench",
  customHeaderValue: "value-0",
};

/** One call's cost: the plugin's CPU and the client's wall time, in ms. */
export interface CallCost {
  first_cpu_ms: number;
  first_wall_ms: number;
  cpu_ms: number;
  wall_ms: number;
  n: number;
}

/** CPU nanoseconds the process has used, all threads (schedstat: finer than /proc/<pid>/stat's ticks). */
function cpuNs(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).reduce(
    (sum, task) => sum + Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]),
    0,
  );
}

type Unary = (request: unknown, callback: (err: grpc.ServiceError | null, response: unknown) => void) => unknown;

/** Every call's cost, measured on a freshly started executable. */
export async function measurePluginCalls(
  repeats: number,
  log: (line: string) => void,
): Promise<Record<string, CallCost>> {
  await ensurePackagings(log);
  const emulator = await startEmulator({ port: 0 });
  const child = spawn(EXECUTABLE, [], { stdio: ["ignore", "pipe", "inherit"] });
  const client = await new Promise<provrpc.ResourceProviderClient>((resolve, reject) => {
    child.once("error", reject);
    child.stdout.once("data", (data: Buffer) =>
      resolve(
        new provrpc.ResourceProviderClient(`127.0.0.1:${data.toString().trim()}`, grpc.credentials.createInsecure()),
      ),
    );
  });
  const results: Record<string, CallCost> = {};
  try {
    const call = (method: string, request: unknown) =>
      new Promise<unknown>((resolve, reject) =>
        (client[method as keyof provrpc.ResourceProviderClient] as unknown as Unary).call(
          client,
          request,
          (err, response) => (err ? reject(err) : resolve(response)),
        ),
      );
    const timed = async (
      method: string,
      request: () => unknown,
    ): Promise<{ cpu: number; wall: number; response: unknown }> => {
      const message = request();
      const cpu = cpuNs(child.pid!);
      const started = process.hrtime.bigint();
      const response = await call(method, message);
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      return { cpu: (cpuNs(child.pid!) - cpu) / 1e6, wall, response };
    };
    const measure = async (name: string, method: string, request: () => unknown, again = true): Promise<unknown> => {
      const first = await timed(method, request);
      const rest = [];
      for (let i = 0; again && i < repeats; i++) rest.push(await timed(method, request));
      results[name] = {
        first_cpu_ms: round(first.cpu),
        first_wall_ms: round(first.wall),
        cpu_ms: round(rest.length ? median(rest.map((r) => r.cpu)) : first.cpu),
        wall_ms: round(rest.length ? median(rest.map((r) => r.wall)) : first.wall),
        n: rest.length || 1,
      };
      return first.response;
    };
    const check = () => new provproto.CheckRequest().setUrn(URN).setNews(encode(INPUTS)).setOlds(encode({}));
    const configure = () => {
      const request = new provproto.ConfigureRequest().setAcceptsecrets(true);
      request.getVariablesMap().set("webhooks:config:baseUrl", emulator.url);
      request.getVariablesMap().set("webhooks:config:token", "dev-builder");
      return request;
    };
    await measure("get_plugin_info", "getPluginInfo", () => new Empty());
    await measure("get_schema", "getSchema", () => new provproto.GetSchemaRequest());
    await measure("check_config", "checkConfig", () => new provproto.CheckRequest().setUrn(URN).setNews(encode({})));
    await measure("configure", "configure", configure);
    const checked = (await measure("check", "check", check)) as provproto.CheckResponse;
    const inputs = checked.getInputs()!;
    const create = (preview: boolean) => () =>
      new provproto.CreateRequest().setUrn(URN).setProperties(inputs).setPreview(preview);
    await measure("create_preview", "create", create(true));
    // One real create (it calls the service): the resource Diff and Read then work on.
    const created = (await measure("create", "create", create(false), false)) as provproto.CreateResponse;
    const state = created.getProperties()!;
    await measure("diff", "diff", () =>
      new provproto.DiffRequest().setUrn(URN).setId(created.getId()).setOlds(state).setNews(inputs),
    );
    await measure("read", "read", () =>
      new provproto.ReadRequest().setUrn(URN).setId(created.getId()).setProperties(state).setInputs(inputs),
    );
  } finally {
    client.close();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    await exited;
    await emulator.close();
  }
  for (const [name, cost] of Object.entries(results))
    log(
      `plugin_calls ${name}: first ${cost.first_cpu_ms} ms cpu (${cost.first_wall_ms} wall), then ${cost.cpu_ms} ms cpu (${cost.wall_ms} wall)`,
    );
  return results;
}

const round = (ms: number): number => Math.round(ms * 100) / 100;
