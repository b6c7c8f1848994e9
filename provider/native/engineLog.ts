/**
 * The lifecycle's warnings, as the engine shows them for a plugin: through its Log service, at
 * warning severity and on the resource being operated on. The engine keeps what a plugin writes
 * to stderr for its debug log only, so a warning there (an adoption, a replacement that changes
 * the Signature) would reach nobody.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { routeWarnings } from "../core/warn";
import { requestUrn, sending } from "./requestScope";

/** Routes the lifecycle's warnings to the engine listening at `address` (the plugin's argument). */
export function logWarningsTo(address: string): void {
  const engine = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  routeWarnings((message) => {
    const request = new engineproto.LogRequest()
      .setSeverity(engineproto.LogSeverity.WARNING)
      .setMessage(message)
      .setUrn(requestUrn.getStore() ?? "");
    const sent = new Promise<void>((resolve) =>
      engine.log(request, (err) => {
        // Not lost when the engine cannot take it: stderr is still its debug log.
        if (err) console.error(`warning: ${message}`);
        resolve();
      }),
    );
    sending(sent);
  });
}
