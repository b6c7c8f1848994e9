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

/**
 * Runs `use` while another process's server holds `port` on loopback (what a program that took
 * the port meanwhile looks like), and frees the port afterwards.
 */
export async function whilePortTaken<T>(port: number, use: () => Promise<T>): Promise<T> {
  const squatter = createServer();
  await new Promise<void>((done) => squatter.listen(port, "127.0.0.1", done));
  try {
    return await use();
  } finally {
    await new Promise((done) => squatter.close(done));
  }
}
