/**
 * The native plugin's entry, bundled into the plugin directory (`npm run build:plugin`) and into
 * the single executable (scripts/release/executables.ts). The nodejs language host runs
 * `@pulumi/pulumi/cmd/run-plugin <plugin dir> <engine address>`, which requires this; the engine
 * runs the executable as `pulumi-resource-webhooks <engine address>`. Either way it serves the
 * provider and prints its port, which the engine reads from stdout, and sends the lifecycle's
 * warnings to the engine (engineLog.ts).
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import * as sea from "node:sea";
import { logWarningsTo } from "./engineLog";
import { serve } from "./server";

/** The schema the build embedded in the executable or wrote beside this file; its version is the plugin's. */
function readSchema(dir: string): { schema: string; version: string } {
  const schema = sea.isSea()
    ? sea.getAsset("schema.json", "utf8")
    : readFileSync(path.join(dir, "schema.json"), "utf8");
  return { schema, version: (JSON.parse(schema) as { version: string }).version };
}

async function main(): Promise<void> {
  // The engine's address: run-plugin hands the plugin its arguments as they came.
  const engine = process.argv[2];
  if (engine) logWarningsTo(engine);
  const plugin = await serve(readSchema(__dirname));
  // As a string: a number would be coloured when stdout is a terminal.
  console.log(String(plugin.port));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
