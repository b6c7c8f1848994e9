/**
 * Closing an in-process program's gRPC connections to its engine once that engine is gone.
 *
 * The Automation API's in-process language runtime (@pulumi/pulumi 3.248.0) opens a resource
 * monitor client and an engine client for each run and never closes them. After a run whose
 * engine exited while the program still called it (any failed deployment: the engine does not
 * wait for the program), those clients retry their dead address forever, and grpc-js shares a
 * client's connection state with every later client of the same address in the process. A later
 * engine that happens to listen on that port then fails the new run at once with
 * "14 UNAVAILABLE: No connection established" — or the run reports success having declared
 * nothing. docs/engine.md has the evidence and a reproduction (scripts/unavailableRepro.ts).
 */
import { connectivityState, type Channel } from "@grpc/grpc-js";
import * as runtime from "@pulumi/pulumi/runtime";

/** The part of a generated gRPC client this needs (any grpc-js copy's client has it). */
interface ClosableClient {
  getChannel(): Channel;
  close(): void;
}

function isClosable(client: unknown): client is ClosableClient {
  const c = client as Partial<ClosableClient> | undefined;
  return typeof c?.getChannel === "function" && typeof c.close === "function";
}

/**
 * Closes `client` as soon as its channel fails to connect (TRANSIENT_FAILURE): on loopback that
 * means nothing listens at its address any more, so every call on it fails already, and closing it
 * takes its connection out of grpc-js's process-wide pool before another client can share it.
 */
export function closeWhenUnreachable(client: unknown): void {
  if (!isClosable(client)) return;
  const channel = client.getChannel();
  const watch = (): void => {
    const state = channel.getConnectivityState(false);
    if (state === connectivityState.SHUTDOWN) return;
    if (state === connectivityState.TRANSIENT_FAILURE) return client.close();
    channel.watchConnectivityState(state, Infinity, watch);
  };
  watch();
}

/**
 * Called at the start of an in-process program: closes this run's resource monitor and engine
 * clients once their engine is gone (see the file comment).
 */
export function closeEngineConnectionsWhenGone(): void {
  closeWhenUnreachable(runtime.getMonitor());
  closeWhenUnreachable(runtime.getEngine());
}
