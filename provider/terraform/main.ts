/**
 * The Terraform and OpenTofu front door of the plugin executable: provider/native/main.ts calls
 * `serveTerraform` when the process was started with go-plugin's magic cookie. It reads the
 * client's handshake, serves tfplugin6 and go-plugin's services, prints the handshake line, and
 * exits when the client says Shutdown.
 */
import { serviceDefinition } from "./protocol/services";
import { handshakeRequest } from "./goPlugin/handshake";
import { serveGoPlugin } from "./goPlugin/serve";
import { terraformProvider } from "./provider";

/** Serves the provider for Terraform or OpenTofu; `schema` is the Pulumi package schema the build embedded. */
export async function serveTerraform(plugin: { schema: string; version: string }): Promise<void> {
  const request = handshakeRequest();
  const running = await serveGoPlugin(
    request,
    {
      definition: serviceDefinition("tfplugin6.Provider"),
      implementation: terraformProvider({ schema: plugin.schema }),
    },
    serviceDefinition,
    () => process.exit(0),
  );
  process.stdout.write(`${running.line}\n`);
}
