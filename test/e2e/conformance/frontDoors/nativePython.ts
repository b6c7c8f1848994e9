/**
 * Front door 3: the native plugin `webhooks`, from a Python program on the generated SDK
 * `pulumi_webhooks`, run by the Python language host: the SDK's wheel in the project's fresh
 * virtualenv with `pulumi` from PyPI at the CLI's version (support/pythonSdk.ts), the plugin
 * the YAML door uses (../builds.ts) by path, as docs/native-provider.md says.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dump } from "js-yaml";
import { PULUMI_VERSION } from "../../../../engine/provision";
import { installPythonSdk } from "../../../support/pythonSdk";
import { eventName, writeProgram, type Declared, type FrontDoor } from "../frontDoor";

/** A declared input's keyword argument in the SDK: `customHeaderValue` → `custom_header_value`. */
const keyword = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** One `WebhookSubscription(…)` and its `<name>Signature` export; JSON literals are Python literals here (strings, integers). */
function resource(name: string, declared: Declared): string {
  const { webhook, customHeaderValue, ...plain } = declared;
  const args = [`webhook=webhooks.Webhook(${JSON.stringify(eventName(webhook))})`].concat(
    Object.entries(plain).map(([key, value]) => `${keyword(key)}=${JSON.stringify(value)}`),
  );
  if (customHeaderValue !== undefined)
    args.push(`custom_header_value=pulumi.Output.secret(${JSON.stringify(customHeaderValue)})`);
  return (
    `${name} = webhooks.WebhookSubscription(\n    ${JSON.stringify(name)},\n${args.map((arg) => `    ${arg},\n`).join("")})\n` +
    `pulumi.export(${JSON.stringify(`${name}Signature`)}, ${name}.signature)\n`
  );
}

export const nativePython: FrontDoor = {
  name: "native plugin (Python)",
  languageHosts: ["pulumi-language-python", "pulumi-language-nodejs"],
  type: "webhooks:index:WebhookSubscription",

  async prepare(root, builds): Promise<string> {
    const { checkout, plugin } = await builds.nativePlugin();
    const project = join(root, "conformance-python");
    mkdirSync(project);
    writeFileSync(join(project, "requirements.txt"), `pulumi==${PULUMI_VERSION}\npulumi_webhooks\n`);
    const started = Date.now();
    const venv = await installPythonSdk(checkout, project);
    console.log(`[conformance python] ${venv.installed}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    writeFileSync(
      join(project, "Pulumi.yaml"),
      dump({
        name: "conformance-python",
        runtime: { name: "python", options: { virtualenv: "venv" } },
        plugins: { providers: [{ name: "webhooks", path: plugin }] },
      }),
    );
    nativePython.declare(project, {});
    return project;
  },

  declare(project, subscriptions): void {
    writeProgram(
      join(project, "__main__.py"),
      "import pulumi\nimport pulumi_webhooks as webhooks\n",
      subscriptions,
      resource,
    );
  },
};
