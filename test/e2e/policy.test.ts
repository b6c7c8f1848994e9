/**
 * docs/policy.md, run as written: its `sh` blocks in fresh directories — a policy pack project
 * (`@pulumi/policy` from the registry, this package from the packed tarball) and a user's
 * TypeScript project beside it (the tarball too) — through the real engine and Node.js language
 * host: `pulumi preview --policy-pack` blocks an off-list host, passes an on-list one, warns
 * without blocking on a rule made advisory by `--policy-pack-config`, refuses a bad
 * `--policy-pack-config` before the preview; a YAML program on the native plugin (by path) is
 * held by the same pack; and `drift --policy` reports a subscription made by hand on the emulator.
 *
 * Two edits to the page's commands, both explicit below: the pack's `npm install` takes this
 * package from the tarball (it is not published) and `@pulumi/pulumi` at the engine's version
 * (the newest SDK needs a newer Node than 20, which CI runs).
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cleanEnv, run, type Result } from "../support/commands";
import { findingsOf, reviewOf } from "../support/driftReview";
import { typeScopedBody, type EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";
import { writeUserPackage } from "../support/pulumiProject";
import { shellBlocks } from "../support/shellBlocks";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";

const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const OFF_LIST = "https://evil.example.net/orders";

let setting: PluginCheckout;
let service: EmulatorHarness;
let env: NodeJS.ProcessEnv;
/** The user's TypeScript project and the pack beside it, as the page lays them out. */
let user: string;
let pack: string;
let blocks: { pack: string; preview: string; configured: string; drift: string };
/** The native plugin's directory, used by path. */
let pluginDir: string;

/** A block of the page in `cwd`, as a user's shell runs it; resolves whatever it exits with. */
function sh(script: string, cwd: string, label: string): Promise<Result> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-euo", "pipefail", "-c", script],
      { cwd, env: { ...cleanEnv(), ...env }, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        console.log(`[policy] ${label}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The program: one subscription to `url`. */
function program(url: string): void {
  writeFileSync(
    join(user, "index.ts"),
    `import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

new WebhookSubscription("orders", {
  webhook: Webhook.BusinessObjectCreated,
  filterObjectType: 2,
  subscriberUrl: ${JSON.stringify(url)},
});
`,
  );
}

/** Replaces `from`, which must be in `text` exactly once. */
function once(text: string, from: RegExp, to: string): string {
  const count = text.match(new RegExp(from.source, `${from.flags}g`))?.length ?? 0;
  if (count !== 1) throw new Error(`docs/policy.md: expected ${String(from)} once, found ${count}`);
  return text.replace(from, to);
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-nodejs", "pulumi-language-yaml"]);
  const page = readFileSync(join(REPO_ROOT, "docs", "policy.md"), "utf8");
  const scripts = shellBlocks(page).map((b) => b.script);
  if (scripts.length !== 4) throw new Error(`docs/policy.md: expected 4 sh blocks, found ${scripts.length}`);
  const [packBlock, preview, configured, drift] = scripts as [string, string, string, string];

  setting = await startPluginCheckout("policy", "policy-passphrase");
  service = setting.service;
  env = { ...setting.env, WEBHOOKS_TOKEN: "dev-builder" };
  const root = setting.root;
  pluginDir = setting.pluginDir;
  // The package as `npm publish` uploads it: the run's release tarball (support/sharedRelease.ts).
  const packed = join((await sharedRelease()).dir, `pulumi-webhook-subscriptions-${RELEASE_VERSION}.tgz`);

  let install = once(packBlock, / pulumi-webhook-subscriptions$/m, ` ${pathToFileURL(packed).href}`);
  install = once(install, / @pulumi\/pulumi /, ` @pulumi/pulumi@${engine.version} `);
  blocks = { pack: install, preview, configured, drift };

  // The user's project, as README's "Use it in your own Pulumi project" makes it.
  user = join(root, "webhooks");
  pack = join(root, "webhook-policy");
  mkdirSync(user);
  writeUserPackage(user, { sdk: engine.version, tarball: packed, main: "index.ts" });
  await run("npm", ["install", ...NPM], user, env);
  writeFileSync(join(user, "Pulumi.yaml"), "name: webhooks\nruntime: nodejs\n");
  await run("pulumi", ["stack", "init", "dev"], user, env);
  await run("pulumi", ["config", "set", "webhooks:baseUrl", service.url], user, env);

  const made = await sh(blocks.pack, root, "the pack project (npm init, install, files)");
  expect(made.code, made.stderr).toBe(0);
}, 1_800_000);

afterAll(() => setting?.close());

it("the page's pack is examples/policy-pack's one line, and installs one @pulumi/pulumi", async () => {
  const example = readFileSync(join(REPO_ROOT, "examples", "policy-pack", "index.ts"), "utf8");
  expect(readFileSync(join(pack, "index.ts"), "utf8")).toBe(example);
  const copies = await run("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], pack, env);
  expect(copies.stdout.trim().split("\n")).toEqual([join(pack, "node_modules", "@pulumi", "pulumi")]);
});

it("an off-list host is blocked: the preview fails and the message names the resource and the host", async () => {
  program(OFF_LIST);
  const { code, stdout } = await sh(blocks.preview, user, "preview, off-list host");
  console.log(`[policy] the blocked preview:\n${stdout}`);
  expect(code).not.toBe(0);
  expect(stdout).toMatch(
    /\[mandatory\] {2}subscriber-host-allowed {2}\(pulumi-nodejs:dynamic\/webhooks:WebhookSubscription: orders\)/,
  );
  expect(stdout).toContain(
    'WebhookSubscription "orders": subscriberUrl "https://evil.example.net/orders" sends to host "evil.example.net", which is not allowed (allowedSubscriberHosts: "hooks.example.com", "*.example.org").',
  );
  // Shown once: the resource's violation, not again elsewhere in the transcript.
  expect(stdout.split('sends to host "evil.example.net"').length - 1).toBe(1);
});

it("an on-list host passes, in preview and in up", async () => {
  program("https://hooks.example.com/orders");
  const previewed = await sh(blocks.preview, user, "preview, on-list host");
  expect(previewed.code, previewed.stdout).toBe(0);
  expect(previewed.stdout).not.toMatch(/\[(mandatory|advisory)\]/);
  const up = await run("pulumi", ["up", "--yes", "--policy-pack", "../webhook-policy"], user, env);
  expect(up.stdout).toMatch(/\+ 2 created/);
});

it("a rule made advisory by --policy-pack-config warns without blocking; by default it blocks", async () => {
  program("http://hooks.example.com/orders");
  const blocked = await sh(blocks.preview, user, "preview, http URL");
  expect(blocked.code).not.toBe(0);
  expect(blocked.stdout).toMatch(/\[mandatory\] {2}subscriber-url-https/);
  const warned = await sh(blocks.configured, user, "preview, http URL, --policy-pack-config advisory");
  expect(warned.code, warned.stdout).toBe(0);
  expect(warned.stdout).toMatch(/\[advisory\] {2}subscriber-url-https/);
  expect(warned.stdout).toContain('subscriberUrl "http://hooks.example.com/orders" does not use https');
});

it("a bad --policy-pack-config is refused before the preview, naming the policy and the key", async () => {
  writeFileSync(
    join(pack, "bad.json"),
    JSON.stringify({ "subscriber-host-allowed": { allowedSubscriberHosts: ["https://hooks.example.com"] } }),
  );
  const refused = await sh(
    "pulumi preview --policy-pack ../webhook-policy --policy-pack-config ../webhook-policy/bad.json",
    user,
    "preview, bad --policy-pack-config",
  );
  console.log(`[policy] the refused config:\n${refused.stdout}${refused.stderr}`);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout + refused.stderr).toMatch(/subscriber-host-allowed: allowedSubscriberHosts\.0/);
});

it("a YAML program on the native plugin is held by the same pack", async () => {
  const yaml = join(setting.root, "yaml-webhooks");
  mkdirSync(yaml);
  writeFileSync(
    join(yaml, "Pulumi.yaml"),
    `name: yaml-webhooks
runtime: yaml
plugins:
  providers:
    - name: webhooks
      path: ${pluginDir}
resources:
  orders:
    type: webhooks:index:WebhookSubscription
    properties:
      webhook: 3
      filterObjectType: 2
      subscriberUrl: ${OFF_LIST}
`,
  );
  await run("pulumi", ["stack", "init", "dev"], yaml, env);
  await run("pulumi", ["config", "set", "webhooks:baseUrl", service.url], yaml, env);
  const { code, stdout, stderr } = await sh(blocks.preview, yaml, "YAML preview, off-list host");
  expect(code, stderr).not.toBe(0);
  expect(stdout).toMatch(/\[mandatory\] {2}subscriber-host-allowed {2}\(webhooks:index:WebhookSubscription: orders\)/);
  expect(stdout).toContain('sends to host "evil.example.net", which is not allowed');
});

it("drift --policy reports a subscription made by hand off the list, and exits 2", async () => {
  const manual = await service.subscribe(
    typeScopedBody({
      SubscriberURL: "https://evil.example.net/hook",
      CustomHeader: "X-Token",
      CustomHeaderValue: "hand-made-secret",
    }),
  );
  const { code, stdout, stderr } = await sh(blocks.drift, user, "drift --policy");
  console.log(`[policy] the drift report:\n${stdout}`);
  expect(code, stderr).toBe(2);
  // The rule, the subscription and what is wrong with it.
  for (const text of ["subscriber-host-allowed", manual.GUID, 'sends to host "evil.example.net"'])
    expect(stdout).toContain(text);
  expect(stdout).not.toContain("hand-made-secret");

  const json = await sh(
    `${blocks.drift.trim().split("\n").at(-1)} --format json`,
    user,
    "drift --policy --format json",
  );
  expect(json.code).toBe(2);
  const review = reviewOf(json.stdout);
  expect(review.policy?.file).toBe("policy.json");
  expect(review.summary.policy).toBe(1);
  expect(
    findingsOf(review, "policy").map(({ guid, baseUrl, owner, rule, advisory, fields, message }) => ({
      guid,
      baseUrl,
      owner,
      rule,
      advisory,
      fields,
      message,
    })),
  ).toEqual([
    {
      guid: manual.GUID,
      baseUrl: service.url,
      // Claimed by no source: the finding is the stack's that reaches its instance, at the instance's address.
      owner: { source: { kind: "pulumi-stack", name: "dev", file: "Pulumi.yaml" }, address: service.url },
      rule: { name: "subscriber-host-allowed", enforcementLevel: "mandatory" },
      advisory: undefined,
      fields: [{ field: "subscriberUrl", secret: false, live: "https://evil.example.net/hook" }],
      message: expect.stringContaining('allowedSubscriberHosts: "hooks.example.com", "*.example.org"'),
    },
  ]);

  writeFileSync(join(user, "bad-policy.json"), JSON.stringify({ allowedSubscriberHosts: ["hooks.example.com:443"] }));
  const bad = await sh(
    "npx webhook-subscriptions drift --stack dev --policy bad-policy.json",
    user,
    "drift, bad policy file",
  );
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain(
    '--policy: Invalid policy file bad-policy.json:\n  - allowedSubscriberHosts[0] must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: "hooks.example.com:443"',
  );
});
