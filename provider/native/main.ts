/**
 * The native plugin's entry, bundled into the plugin directory (`npm run build:plugin`) and into
 * the single executable (scripts/release/executables.ts). The nodejs language host runs
 * `@pulumi/pulumi/cmd/run-plugin <plugin dir> <engine address>`, which requires this; the engine
 * runs the executable as `pulumi-resource-webhooks <engine address>`. Either way it serves the
 * provider and prints its port, which the engine reads from stdout, and sends the lifecycle's
 * warnings to the engine (engineLog.ts). Nothing here parses the schema: GetSchema serves it as
 * the build wrote it, and the version comes on its own.
 *
 * The same executable is the Terraform and OpenTofu provider: started with go-plugin's magic
 * cookie, it serves tfplugin6 instead (provider/terraform/main.ts), loaded only then, so that the
 * Pulumi door loads nothing of it.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as sea from "node:sea";
import { startedAsTerraformProvider } from "../terraform/goPlugin/handshake";

/**
 * The schema, the resource's description and the version the build embedded in the executable
 * (assets `schema.json`, `description.json`, `version`: scripts/release/executables.ts) or wrote
 * beside this file (`schema.json`, `description.json`, and the plugin directory's `package.json`:
 * scripts/buildPlugin.ts).
 */
function readPlugin(dir: string): { schema: string; description: string; version: string } {
  if (sea.isSea())
    return {
      schema: sea.getAsset("schema.json", "utf8"),
      description: sea.getAsset("description.json", "utf8"),
      version: sea.getAsset("version", "utf8"),
    };
  const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string };
  return {
    schema: readFileSync(path.join(dir, "schema.json"), "utf8"),
    description: readFileSync(path.join(dir, "description.json"), "utf8"),
    version: pkg.version,
  };
}

async function main(): Promise<void> {
  if (startedAsTerraformProvider()) {
    const { serveTerraform } = await import("../terraform/main");
    const { description, version } = readPlugin(__dirname);
    return serveTerraform({ description, version });
  }
  // The engine's address: run-plugin hands the plugin its arguments as they came.
  const engine = process.argv[2];
  const { serve } = await import("./server");
  const { schema, version } = readPlugin(__dirname);
  const plugin = await serve({ schema, version, ...(engine ? { engine } : {}) });
  // As a string: a number would be coloured when stdout is a terminal.
  console.log(String(plugin.port));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
