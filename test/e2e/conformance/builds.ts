/**
 * What front doors share, in a folder of the run's: the run's one plugin build
 * (support/pluginBuild.ts), for every door that runs it by path, and a copy of this checkout
 * for the doors that build an SDK from it — made on first use, never twice.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sharedPluginBuild } from "../../support/pluginBuild";
import { copyRepository } from "../../support/repoCopy";

/** A copy of this checkout (the Python door builds its wheel there), and the plugin directory (used by path). */
export interface NativeBuild {
  readonly checkout: string;
  readonly plugin: string;
}

export class SharedBuilds {
  private readonly root = mkdtempSync(join(tmpdir(), "conformance-builds-"));
  private native?: Promise<NativeBuild>;

  /** The native plugin and a checkout copy, made for the first door that asks. */
  nativePlugin(): Promise<NativeBuild> {
    this.native ??= (async () => {
      const { pluginDir } = await sharedPluginBuild();
      const checkout = join(this.root, "checkout");
      await copyRepository(checkout, { build: false });
      return { checkout, plugin: pluginDir };
    })();
    return this.native;
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
