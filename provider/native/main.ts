/**
 * The native plugin's front door: the launcher (launcher/) calls `servePulumi` when neither
 * Terraform nor a command line started the process. The engine runs the executable as
 * `pulumi-resource-webhooks <engine address>`, and the nodejs language host runs
 * `@pulumi/pulumi/cmd/run-plugin <plugin dir> <engine address>` for the `runtime: nodejs` plugin
 * directory; either way this serves the provider and prints its port, which the engine reads from
 * stdout, and sends the lifecycle's warnings to the engine (engineLog.ts). Nothing here parses
 * the schema: GetSchema serves it as the build wrote it, and the version comes on its own.
 */
import { serve, type NativeProviderOptions } from "./server";

/** Serves the provider for the Pulumi engine (the schema and version the build embedded, the engine's address) and prints its port. */
export async function servePulumi(plugin: NativeProviderOptions): Promise<void> {
  const served = await serve(plugin);
  // As a string: a number would be coloured when stdout is a terminal.
  console.log(String(served.port));
}
