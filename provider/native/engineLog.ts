/**
 * The lifecycle's warnings and progress lines, as the engine shows them for a plugin: through
 * its Log service, on the resource being operated on (warnings at warning severity, a
 * rate-limited call's progress at info). The engine keeps what a plugin writes to stderr for its
 * debug log only, so a line there (an adoption, a replacement that changes the Signature, a
 * minute of backing off on 429s) would reach nobody.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { routeProgress } from "../core/progress";
import { routeWarnings } from "../core/warn";
import { requestUrn, sending } from "./requestScope";

/** Routes the lifecycle's warnings and progress lines to the engine listening at `address` (the plugin's argument). */
export function logToEngine(address: string): void {
  const engine = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  const logAs = (severity: engineproto.LogSeverity, prefix: string) => (message: string) => {
    const request = new engineproto.LogRequest()
      .setSeverity(severity)
      .setMessage(message)
      .setUrn(requestUrn.getStore() ?? "");
    const sent = new Promise<void>((resolve) =>
      engine.log(request, (err) => {
        // Not lost when the engine cannot take it: stderr is still its debug log.
        if (err) console.error(`${prefix}${message}`);
        resolve();
      }),
    );
    sending(sent);
  };
  routeWarnings(logAs(engineproto.LogSeverity.WARNING, "warning: "));
  routeProgress(logAs(engineproto.LogSeverity.INFO, ""));
}
