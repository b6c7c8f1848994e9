/**
 * The vendored protocol: each .proto equals the pinned Go module's copy (fetched through the Go
 * module proxy, as the probe did), and the generated module the provider loads is what
 * `npm run gen-tfplugin` makes from them now.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { messagesModule } from "../../provider/terraform/protocol/parse";
import { serviceDefinition } from "../../provider/terraform/protocol/services";

const PROTOCOL = join(__dirname, "../../provider/terraform/protocol");

/** Where each vendored file comes from: module@version and the path inside it. */
const ORIGINS: Record<string, [string, string]> = {
  "tfplugin6.proto": [
    "github.com/hashicorp/terraform-plugin-go@v0.31.0",
    "tfprotov6/internal/tfplugin6/tfplugin6.proto",
  ],
  "grpc_broker.proto": ["github.com/hashicorp/go-plugin@v1.8.0", "internal/plugin/grpc_broker.proto"],
  "grpc_controller.proto": ["github.com/hashicorp/go-plugin@v1.8.0", "internal/plugin/grpc_controller.proto"],
  "grpc_stdio.proto": ["github.com/hashicorp/go-plugin@v1.8.0", "internal/plugin/grpc_stdio.proto"],
};

function moduleDir(module: string): string {
  const out = execFileSync("go", ["mod", "download", "-json", module], {
    encoding: "utf8",
    env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-modcacherw" },
  });
  return (JSON.parse(out) as { Dir: string }).Dir;
}

describe("the vendored plugin protocol", () => {
  it.each(Object.entries(ORIGINS))(
    "%s equals the pinned module's copy, licence header included",
    (file, [module, path]) => {
      const vendored = readFileSync(join(PROTOCOL, file), "utf8");
      expect(vendored).toBe(readFileSync(join(moduleDir(module), path), "utf8"));
      expect(vendored).toMatch(/SPDX-License-Identifier: MPL-2.0/);
    },
    120_000,
  );

  it("has its generated messages module up to date (npm run gen-tfplugin)", async () => {
    const prettier = await import("prettier");
    const file = join(PROTOCOL, "messages.ts");
    const options = await prettier.resolveConfig(file);
    expect(readFileSync(file, "utf8")).toBe(
      await prettier.format(messagesModule(PROTOCOL), { ...options, filepath: file }),
    );
  });

  it("serves protocol 6's calls and go-plugin's services at the paths clients call", () => {
    const provider = serviceDefinition("tfplugin6.Provider");
    expect(provider.PlanResourceChange!.path).toBe("/tfplugin6.Provider/PlanResourceChange");
    expect(Object.keys(provider)).toEqual(expect.arrayContaining(["GetResourceIdentitySchemas", "StopProvider"]));
    expect(serviceDefinition("plugin.GRPCController").Shutdown!.path).toBe("/plugin.GRPCController/Shutdown");
    expect(serviceDefinition("plugin.GRPCBroker").StartStream!.requestStream).toBe(true);
    expect(serviceDefinition("plugin.GRPCStdio").StreamStdio!.responseStream).toBe(true);
  });
});
