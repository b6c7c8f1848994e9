/**
 * The native plugin's warnings reach the engine's Log service at warning severity, and a
 * rate-limited call's progress at info, on the resource of the request that raised them (the
 * engine keeps a plugin's stderr for its debug log only). A stand-in engine records the Log calls.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { reportRateLimited } from "../../provider/core/progress";
import { warn } from "../../provider/core/warn";
import { logToEngine } from "../../provider/native/engineLog";
import { requestUrn, warningsSent } from "../../provider/native/requestScope";

const URN = "urn:pulumi:dev::proj::webhooks:index:WebhookSubscription::orders";
const logged: Array<{ severity: number; message: string; urn: string }> = [];
let engine: grpc.Server;

beforeAll(async () => {
  engine = new grpc.Server();
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>) =>
    callback({ code: grpc.status.UNIMPLEMENTED });
  engine.addService(enginerpc.EngineService, {
    log: (call: grpc.ServerUnaryCall<engineproto.LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
      logged.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      callback(null, new Empty());
    },
    getRootResource: unimplemented,
    setRootResource: unimplemented,
    startDebugging: unimplemented,
    requirePulumiVersion: unimplemented,
  });
  const port = await new Promise<number>((resolve, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  logToEngine(`127.0.0.1:${port}`);
});
afterAll(() => new Promise<void>((resolve) => engine.tryShutdown(() => resolve())));

beforeEach(() => {
  logged.length = 0;
});

it("sends a warning to the engine's Log, at warning severity, on the request's resource", async () => {
  await requestUrn.run(URN, async () => {
    warn("adopted the existing identical subscription");
    await warningsSent();
  });
  expect(logged).toEqual([
    { severity: engineproto.LogSeverity.WARNING, message: "adopted the existing identical subscription", urn: URN },
  ]);
});

it("sends a rate-limited call's progress to the engine's Log, at info severity, on the request's resource", async () => {
  const event = { operation: "SubscribeToWebhook", method: "POST", path: "/", durationMs: 1, queuedMs: 0 } as const;
  await requestUrn.run(URN, async () => {
    reportRateLimited({ ...event, attempt: 4, status: 429, retryInMs: 2100, givesUpInMs: 60_000 });
    // Not a 429, or no attempt follows: nothing to say.
    reportRateLimited({ ...event, attempt: 5, status: 503, retryInMs: 100, givesUpInMs: 60_000 });
    reportRateLimited({ ...event, attempt: 6, status: 429 });
    await warningsSent();
  });
  expect(logged).toEqual([
    {
      severity: engineproto.LogSeverity.INFO,
      message: expect.stringMatching(/^rate limited \(429\): attempt 4, next in 2\.1 s, giving up at \d\d:\d\d:\d\d$/),
      urn: URN,
    },
  ]);
});
