/**
 * The lifecycle's warnings, as the engine shows them for a plugin: through its Log service, at
 * warning severity and on the resource being operated on. The engine keeps what a plugin writes
 * to stderr for its debug log only, so a warning there (an adoption, a replacement that changes
 * the Signature) would reach nobody.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { routeWarnings } from "../core/warn";

/** The URN of the resource the current request is about (set by the server around each call). */
export const requestUrn = new AsyncLocalStorage<string>();

/** Log calls not yet answered: a response waits for them, so its warnings come first. */
const pending = new Set<Promise<void>>();

/** Resolves once every warning sent so far has reached the engine (or failed to). */
export async function warningsSent(): Promise<void> {
  await Promise.all(pending);
}

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
    pending.add(sent);
    void sent.finally(() => pending.delete(sent));
  });
}
