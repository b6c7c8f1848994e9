/**
 * The native plugin's warnings reach the engine's Log service at warning severity, on the
 * resource of the request that raised them (the engine keeps a plugin's stderr for its debug log
 * only). A stand-in engine records the Log calls.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, expect, it } from "vitest";
import { warn } from "../../provider/core/warn";
import { logWarningsTo } from "../../provider/native/engineLog";
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
  logWarningsTo(`127.0.0.1:${port}`);
});
afterAll(() => new Promise<void>((resolve) => engine.tryShutdown(() => resolve())));

it("sends a warning to the engine's Log, at warning severity, on the request's resource", async () => {
  await requestUrn.run(URN, async () => {
    warn("adopted the existing identical subscription");
    await warningsSent();
  });
  expect(logged).toEqual([
    { severity: engineproto.LogSeverity.WARNING, message: "adopted the existing identical subscription", urn: URN },
  ]);
});
