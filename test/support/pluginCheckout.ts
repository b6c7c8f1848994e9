/**
 * Where the end-to-end tests of the native plugin start, as docs/native-provider.md says to use
 * it: a copy of this checkout with the plugin `npm run build:plugin` builds, one emulator, and the
 * environment plain `pulumi` runs with there — the engine first on PATH, and a Pulumi home and a
 * `file://` backend of their own.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { EmulatorHarness } from "./emulatorHarness";
import { sharedPluginBuild } from "./pluginBuild";
import { copyRepository } from "./repoCopy";
import { requireLanguageHosts } from "./engine";
import { pulumiEnv } from "./pulumiProject";

export interface PluginCheckout {
  /** A temporary directory holding everything below; `close` removes it. */
  readonly root: string;
  /** The copy of this checkout (support/repoCopy.ts); its dist/plugin/ links to the run's plugin build. */
  readonly checkout: string;
  /** The plugin directory, for `plugins: providers: [{ name: webhooks, path }]`. */
  readonly pluginDir: string;
  readonly service: EmulatorHarness;
  /** The environment of `pulumi` (and of anything that runs it) in this setting. */
  readonly env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * A fresh copy of this checkout whose dist/plugin/ is the run's one plugin build (linked, so the
 * copy's examples find it where they point), and a started emulator; `label` names the temporary
 * directory. Fails unless the engine has the YAML and Node.js hosts.
 */
export async function startPluginCheckout(label: string, passphrase: string): Promise<PluginCheckout> {
  const engine = requireLanguageHosts(["pulumi-language-yaml", "pulumi-language-nodejs"]);
  const root = mkdtempSync(join(tmpdir(), `${label.replace(/\W+/g, "-")}-`));
  const checkout = join(root, "checkout");
  const built = await sharedPluginBuild();
  // A copy of its own: its programs write stack files beside them, and files may run side by side.
  await copyRepository(checkout, { build: false });
  mkdirSync(join(checkout, "dist"), { recursive: true });
  symlinkSync(dirname(built.pluginDir), join(checkout, "dist", "plugin"));
  const pluginDir = join(checkout, "dist", "plugin", "webhooks");

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
