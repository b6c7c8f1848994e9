/**
 * Why and how an in-process program's engine clients are closed once their engine is gone
 * (engine/engineConnections.ts; docs/engine.md, "14 UNAVAILABLE in in-process programs"), with
 * real grpc-js clients and servers on loopback: a client left retrying a dead address makes the
 * next client of that address, in the same process, fail its first call at once — the failure
 * the in-process programs saw — and closing the first one when it cannot connect prevents it.
 */
import * as grpc from "@grpc/grpc-js";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import { afterEach, describe, expect, it } from "vitest";
import { closeWhenUnreachable } from "../../engine/engineConnections";
import { freePort } from "../support/freePort";

const servers: grpc.Server[] = [];
const clients: enginerpc.EngineClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  for (const server of servers.splice(0)) server.forceShutdown();
});

function client(address: string): enginerpc.EngineClient {
  const made = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  clients.push(made);
  return made;
}

/** A stand-in engine on `address` whose SetRootResource answers. */
async function engineAt(address: string): Promise<void> {
  const server = new grpc.Server();
  server.addService(enginerpc.EngineService, {
    setRootResource: (_call: unknown, callback: grpc.sendUnaryData<engineproto.SetRootResourceResponse>) =>
      callback(null, new engineproto.SetRootResourceResponse()),
  } as unknown as grpc.UntypedServiceImplementation);
  servers.push(server);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );
}

/** A SetRootResource call's outcome: "ok", or the gRPC status and details. */
function setRootResource(on: enginerpc.EngineClient): Promise<string> {
  return new Promise((resolve) =>
    on.setRootResource(new engineproto.SetRootResourceRequest(), (err) =>
      resolve(err ? `${err.code} ${err.details}` : "ok"),
    ),
  );
}

/** Waits until `of`'s channel reaches `state`. */
async function channelState(of: enginerpc.EngineClient, state: grpc.connectivityState): Promise<void> {
  const channel = of.getChannel();
  while (channel.getConnectivityState(false) !== state)
    await new Promise((resolve) =>
      channel.watchConnectivityState(channel.getConnectivityState(false), Infinity, resolve),
    );
}

describe("a client of an engine that is gone", () => {
  it("left open, makes the next client of its address fail at once, though an engine listens there now", async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const stale = client(address);
    expect(await setRootResource(stale)).toMatch(/^14 No connection established. Last error: .*ECONNREFUSED/);

    await engineAt(address);
    expect(await setRootResource(client(address))).toBe(
      "14 No connection established. Last error: null. Resolution note: ",
    );
  });

  it("closed once it cannot connect, leaves the next client of its address free to connect", async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const stale = client(address);
    closeWhenUnreachable(stale);
    expect(await setRootResource(stale)).toMatch(/^14 No connection established/);
    await channelState(stale, grpc.connectivityState.SHUTDOWN);

    await engineAt(address);
    expect(await setRootResource(client(address))).toBe("ok");
  });
});

it("leaves the client of a listening engine open, through idle and ready", async () => {
  const address = `127.0.0.1:${await freePort()}`;
  await engineAt(address);
  const live = client(address);
  closeWhenUnreachable(live);
  expect(await setRootResource(live)).toBe("ok");
  expect(live.getChannel().getConnectivityState(false)).toBe(grpc.connectivityState.READY);
  expect(await setRootResource(live)).toBe("ok");
});

it("ignores what is not a gRPC client (no monitor or engine yet)", () => {
  expect(() => closeWhenUnreachable(undefined)).not.toThrow();
});
