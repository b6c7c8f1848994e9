/**
 * The go-plugin server's port choice (provider/terraform/goPlugin/serve.ts): the first free port of
 * the client's range, passing taken ones without a word on stderr, which lands in the client's log.
 */
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { serverCertificate } from "../../provider/terraform/goPlugin/certificate";
import { serveGoPlugin } from "../../provider/terraform/goPlugin/serve";
import { serviceDefinition } from "../../provider/terraform/protocol/services";

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });

describe("serveGoPlugin's port", () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ["grpc-js's own listener", false],
    ["AutoMTLS's listener", true],
  ])("passes a taken port of the range silently and binds the next: %s", async (_, mutualTls) => {
    const clientCertificate = mutualTls ? (await serverCertificate()).certificatePem : undefined;
    const taken = await listen(0);
    const port = (taken.address() as { port: number }).port;
    const stderr = vi.spyOn(process.stderr, "write");
    const errors = vi.spyOn(console, "error");
    const running = await serveGoPlugin(
      { ports: { min: port, max: port + 20 }, ...(clientCertificate ? { clientCertificate } : {}) },
      { definition: serviceDefinition("tfplugin6.Provider"), implementation: {} },
      serviceDefinition,
      () => undefined,
    );
    try {
      expect(running.port).toBeGreaterThan(port);
      expect(running.line.startsWith(`1|6|tcp|127.0.0.1:${running.port}|grpc|`)).toBe(true);
      expect(running.line.endsWith("|")).toBe(!mutualTls);
      expect(errors).not.toHaveBeenCalled();
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      await running.close();
      taken.close();
    }
  });

  it("passes a dozen taken ports without a word either, with AutoMTLS's listener", async () => {
    const first = await listen(0);
    const base = (first.address() as { port: number }).port;
    // The next 12 ports: each is taken, by this test or by someone else.
    const others = await Promise.all(Array.from({ length: 12 }, (_, i) => listen(base + 1 + i).catch(() => undefined)));
    const stderr = vi.spyOn(process.stderr, "write");
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const running = await serveGoPlugin(
      { ports: { min: base, max: base + 40 }, clientCertificate: (await serverCertificate()).certificatePem },
      { definition: serviceDefinition("tfplugin6.Provider"), implementation: {} },
      serviceDefinition,
      () => undefined,
    );
    try {
      expect(running.port).toBeGreaterThan(base + 12);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      process.off("warning", onWarning);
      await running.close();
      for (const server of [first, ...others]) server?.close();
    }
  });

  it.each([
    ["grpc-js's own listener", false],
    ["AutoMTLS's listener", true],
  ])("says which range was full when no port of it is free: %s", async (_, mutualTls) => {
    const clientCertificate = mutualTls ? (await serverCertificate()).certificatePem : undefined;
    const taken = await listen(0);
    const port = (taken.address() as { port: number }).port;
    await expect(
      serveGoPlugin(
        { ports: { min: port, max: port }, ...(clientCertificate ? { clientCertificate } : {}) },
        { definition: serviceDefinition("tfplugin6.Provider"), implementation: {} },
        serviceDefinition,
        () => undefined,
      ),
    ).rejects.toThrow(`no free port between PLUGIN_MIN_PORT ${port} and PLUGIN_MAX_PORT ${port}`);
    taken.close();
  });
});
