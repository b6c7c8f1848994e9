/**
 * Whether a loopback port is free, asked of Node's own listener: grpc-js reports each failed bind
 * on stderr ("No address added out of total 1 resolved"), which the client copies into its log, so
 * serve.ts asks here first and binds only a port that is free.
 */
import { createServer } from "node:net";

/** Resolves true when 127.0.0.1:`port` could be listened on now (and is released again). */
export function isFreePort(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ port, host: "127.0.0.1", exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
