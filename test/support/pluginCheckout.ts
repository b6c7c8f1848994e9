/**
 * Where the end-to-end tests of the native plugin start, as docs/native-provider.md says to use
 * it: a copy of this checkout in which `npm run build:plugin` ran, one emulator, and the
 * environment plain `pulumi` runs with there — the engine first on PATH, and a Pulumi home and a
 * `file://` backend of their own.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EmulatorHarness } from "./emulatorHarness";
import { buildPluginCopy } from "./pluginBuild";
import { requireLanguageHosts } from "./engine";
import { pulumiEnv } from "./pulumiProject";

export interface PluginCheckout {
  /** A temporary directory holding everything below; `close` removes it. */
  readonly root: string;
  /** The copy of this checkout (support/repoCopy.ts), its dist/plugin/ built. */
  readonly checkout: string;
  /** The plugin directory, for `plugins: providers: [{ name: webhooks, path }]`. */
  readonly pluginDir: string;
  readonly service: EmulatorHarness;
  /** The environment of `pulumi` (and of anything that runs it) in this setting. */
  readonly env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * Builds the plugin in a fresh copy and starts the emulator; `label` names the temporary
 * directory and the logged build time. Fails unless the engine has the YAML and Node.js hosts.
 */
export async function startPluginCheckout(label: string, passphrase: string): Promise<PluginCheckout> {
  const engine = requireLanguageHosts(["pulumi-language-yaml", "pulumi-language-nodejs"]);
  const root = mkdtempSync(join(tmpdir(), `${label.replace(/\W+/g, "-")}-`));
  const checkout = join(root, "checkout");
  const pluginDir = await buildPluginCopy(checkout, label);

  const service = await EmulatorHarness.start();
  return {
    root,
    checkout,
    pluginDir,
    service,
    env: pulumiEnv(engine, root, passphrase),
    close: async () => {
      await service.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
