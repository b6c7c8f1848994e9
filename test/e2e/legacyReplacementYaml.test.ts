/**
 * Under the legacy 2024.1 API a change the configuration API would update in place replaces the
 * subscription. Plain `pulumi preview` of a YAML program through the native plugin must say so
 * once per resource, in words for YAML (no TypeScript API), as issue 44 asked: it used to warn
 * "the update replaces it (subscriberUrl changed)" several times per resource and advise
 * "verifySignature with an array". And a rate-limited `up` shows its progress on the resource.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { run, type Result } from "../support/commands";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";

let setting: PluginCheckout;
let project: string;

/** A YAML program with two type-scoped subscriptions whose URLs end in `suffix`. */
function program(pluginDir: string, suffix: string): string {
  const subscription = (event: number, path: string) =>
    [
      "    type: webhooks:index:WebhookSubscription",
      "    properties:",
      `      webhook: ${event}`,
      "      filterObjectType: 2",
      `      subscriberUrl: https://hooks.example.com/${path}${suffix}`,
    ].join("\n");
  return [
    "name: legacy-yaml",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: webhooks",
    `      path: ${pluginDir}`,
    "resources:",
    "  objects:",
    subscription(3, "objects"),
    "  changes:",
    subscription(5, "changes"),
    "",
  ].join("\n");
}

function pulumi(args: string[]): Promise<Result> {
  return run("pulumi", [...args, "--stack", "dev"], project, setting.env);
}

beforeAll(async () => {
  setting = await startPluginCheckout("legacy yaml", "legacy-yaml-passphrase");
  project = join(setting.root, "legacy");
  mkdirSync(project);
  writeFileSync(join(project, "Pulumi.yaml"), program(setting.pluginDir, ""));
  await pulumi(["stack", "init"]);
  await pulumi(["config", "set", "webhooks:baseUrl", setting.service.url]);
  await pulumi(["config", "set", "webhooks:apiVersion", "2024.1"]);
  await pulumi(["config", "set", "--secret", "webhooks:token", "dev-builder"]);
  await pulumi(["up", "--yes"]);
}, 900_000);
afterAll(() => setting?.close());

it("`pulumi preview` of a new subscriberUrl says once per resource that the legacy API has no Update", async () => {
  writeFileSync(join(project, "Pulumi.yaml"), program(setting.pluginDir, "-v2"));
  const preview = await pulumi(["preview", "--diff"]);
  const output = `${preview.stdout}\n${preview.stderr}`;
  expect(output).toMatch(/\+-\s.*2 to replace|2 to replace/);
  for (const path of ["objects", "changes"]) {
    const line = `→ https://hooks.example.com/${path}-v2: the legacy 2024.1 API has no Update, so changing subscriberUrl replaces the subscription and its Signature changes.`;
    // With --diff the engine prints each diagnostic once, after the plan.
    expect(output.split(line).length - 1, output).toBe(1);
  }
  expect(output).toContain("the new one is the resource's signature output");
  expect(output).not.toContain("verifySignature");
  expect(output).not.toContain("the update replaces it");
});

it("a rate-limited `pulumi up` shows each retry on the resource, through the engine's log", async () => {
  await setting.service.admin("PUT", "/faults", [
    { operation: "SubscribeToWebhook", kind: "status", status: 429, count: 2 },
  ]);
  const up = await pulumi(["up", "--yes"]);
  const diagnostics = up.stdout.slice(up.stdout.lastIndexOf("Diagnostics:"));
  expect(diagnostics).toMatch(
    /webhooks:index:WebhookSubscription \((objects|changes)\):\n(\s+.*\n)*?\s+\S+ → https:\/\/hooks\.example\.com\/\S+: rate limited \(429\): attempt 1, next in \d+\.\d s, giving up at \d\d:\d\d:\d\d/,
  );
});
