/**
 * What front doors build once per run and share, in a folder of the run's: the native plugin,
 * built with `npm run build:plugin` in a copy of this checkout (support/pluginBuild.ts), for
 * every door that runs it by path — built on first use, never twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildPluginCopy } from "../../support/pluginBuild";

/** The checkout copy the plugin was built in, and the plugin directory (used by path). */
export interface NativeBuild {
  readonly checkout: string;
  readonly plugin: string;
}

export class SharedBuilds {
  private readonly root = mkdtempSync(join(tmpdir(), "conformance-builds-"));
  private native?: Promise<NativeBuild>;

  /** The native plugin, built by the first door that asks. */
  nativePlugin(): Promise<NativeBuild> {
    const checkout = join(this.root, "checkout");
    this.native ??= buildPluginCopy(checkout, "conformance").then((plugin) => ({ checkout, plugin }));
    return this.native;
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
