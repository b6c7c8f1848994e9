/**
 * The native plugin as docs/native-provider.md says to build it: `npm run build:plugin` in a
 * checkout (a copy of this one, support/repoCopy.ts), once per test run (support/oncePerRun.ts),
 * for the tests that run it from programs by path.
 */
import { join } from "node:path";
import { run } from "./commands";
import { oncePerRun } from "./oncePerRun";
import { copyRepository } from "./repoCopy";

/** The run's plugin build: the copy it was built in, and the plugin directory (used by path). */
export interface PluginBuild {
  readonly checkout: string;
  readonly pluginDir: string;
}

/** The run's one plugin build, made by the first file that asks. */
export function sharedPluginBuild(): Promise<PluginBuild> {
  return oncePerRun("plugin", async (dir) => {
    const checkout = join(dir, "checkout");
    // The checkout's files as they are now (committed or not), with its installed dependencies.
    await copyRepository(checkout, { build: false });
    const started = Date.now();
    await run("npm", ["run", "build:plugin"], checkout);
    console.log(`[plugin] npm run build:plugin: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { checkout, pluginDir: join(checkout, "dist", "plugin", "webhooks") };
  });
}
