/** A free loopback port, for a server that a test cannot start on port 0 (its URL is needed first). */
import { createServer } from "node:net";

/** A port nothing listens on right now (the probe closes it again for the caller to use). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const address = probe.address();
  await new Promise((done) => probe.close(done));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
