/**
 * Front door 2: the native plugin `webhooks`, from a YAML program, run by the YAML language
 * host; the plugin built with `npm run build:plugin` in a copy of this checkout (../builds.ts)
 * and used by path, as docs/native-provider.md says.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dump } from "js-yaml";
import { eventName, type FrontDoor } from "../frontDoor";

/** The plugin directory, once built. */
let plugin: string | undefined;

export const nativeYaml: FrontDoor = {
  name: "native plugin (YAML)",
  languageHosts: ["pulumi-language-yaml", "pulumi-language-nodejs"],
  type: "webhooks:index:WebhookSubscription",

  async prepare(root, builds): Promise<string> {
    ({ plugin } = await builds.nativePlugin());
    const project = join(root, "conformance-yaml");
    mkdirSync(project);
    // The program is the project file: stacks are made before the first scenario's program.
    nativeYaml.declare(project, {});
    return project;
  },

  declare(project, subscriptions): void {
    if (!plugin) throw new Error("the native plugin is not built: call prepare first");
    const resources = Object.fromEntries(
      Object.entries(subscriptions).map(([name, { webhook, customHeaderValue, ...plain }]) => [
        name,
        {
          type: "webhooks:index:WebhookSubscription",
          properties: {
            webhook: eventName(webhook),
            ...plain,
            ...(customHeaderValue === undefined ? {} : { customHeaderValue: { "fn::secret": customHeaderValue } }),
          },
        },
      ]),
    );
    const outputs = Object.fromEntries(
      Object.keys(subscriptions).map((name) => [`${name}Signature`, `\${${name}.signature}`]),
    );
    writeFileSync(
      join(project, "Pulumi.yaml"),
      dump({
        name: "conformance-yaml",
        runtime: "yaml",
        plugins: { providers: [{ name: "webhooks", path: plugin }] },
        resources,
        outputs,
      }),
    );
  },
};
