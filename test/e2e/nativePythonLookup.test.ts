/**
 * examples/python on the native plugin, through plain `pulumi up` and the real Python language
 * host, with the generated SDK installed as examples/README.md says (the wheel of sdk/python in
 * the example's virtualenv): the lookup (`get_webhook_subscription_output`) exports plain values,
 * and only the lookup that asks for the secrets (`include_secrets=True`) is secret. The YAML
 * program's same exports are checked in nativeYaml.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requireLanguageHosts } from "../support/engine";
import { resourcesSummary, run, type Result } from "../support/commands";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";
import { installPythonSdk } from "../support/pythonSdk";

let setting: PluginCheckout;
let example: string;

/** `pulumi <args> --stack dev` in the example; logs the summary line. */
async function pulumi(args: string[]): Promise<Result> {
  const result = await run("pulumi", [...args, "--stack", "dev"], example, setting.env);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[native python lookup] pulumi ${args.join(" ")}: ${summary}`);
  return result;
}

beforeAll(async () => {
  requireLanguageHosts(["pulumi-language-python"]);
  setting = await startPluginCheckout("native python lookup", "python-lookup-passphrase");
  example = join(setting.checkout, "examples", "python");
  const started = Date.now();
  const venv = await installPythonSdk(setting.checkout, example);
  console.log(`[native python lookup] ${venv.installed}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await pulumi(["stack", "init"]);
  await pulumi(["config", "set", "webhooks:baseUrl", setting.service.url]);
  await pulumi(["config", "set", "--secret", "webhooks:token", "dev-builder"]);
}, 900_000);

afterAll(() => setting?.close());

it("the lookup's subscriberUrl is exported as a plain value; its signature, asked for with include_secrets, as a secret", async () => {
  expect(readFileSync(join(example, "__main__.py"), "utf8")).toContain("include_secrets=True");
  const up = await pulumi(["up", "--yes"]);
  expect(up.stdout).toMatch(/\+ 3 created/);
  expect(`${up.stdout}\n${up.stderr}`).not.toMatch(/internal error/i);

  const shown = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(shown).toMatchObject({
    objectCreatedEvent: "BusinessObjectCreated",
    objectCreatedUrl: "https://hooks.example.com/python/objects",
    objectCreatedSignature: "[secret]",
    packetCreatedSignature: "[secret]",
  });
  const revealed = JSON.parse((await pulumi(["stack", "output", "--json", "--show-secrets"])).stdout) as Record<
    string,
    unknown
  >;
  const live = await setting.service.subscriptionAt("https://hooks.example.com/python/objects");
  expect(revealed.objectCreatedSignature).toBe(live.Signature);
  expect((await pulumi(["destroy", "--yes"])).stdout).toMatch(/- 3 deleted/);
});
