/**
 * The native plugin as docs/native-provider.md says to build it: `npm run build:plugin` in a
 * checkout (a copy of this one, support/repoCopy.ts), for the tests that run it from programs.
 */
import { join } from "node:path";
import { run } from "./commands";
import { copyRepository } from "./repoCopy";

/** Copies this checkout into `checkout` and builds the plugin there; returns the plugin directory (used by path). */
export async function buildPluginCopy(checkout: string, label: string): Promise<string> {
  // The checkout's files as they are now (committed or not), with its installed dependencies.
  await copyRepository(checkout, { build: false });
  const started = Date.now();
  await run("npm", ["run", "build:plugin"], checkout);
  console.log(`[${label}] npm run build:plugin: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return join(checkout, "dist", "plugin", "webhooks");
}
