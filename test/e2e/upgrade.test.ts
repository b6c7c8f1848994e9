/**
 * Upgrades are no-ops: a stack deployed with the previous release's artifacts — the npm tarball
 * and the `runtime: nodejs` plugin tarball, built from that release's commit in a scratch copy —
 * previews with no changes and updates with nothing to do on this checkout's, as the run's one
 * release holds them (support/sharedRelease.ts: this checkout at the next version), for the
 * dynamic provider (the new package installed into the project) and for the native plugin (the
 * new version installed with `pulumi plugin install -f`, the old one removed). No replacement, no new
 * Signature, no request that changes the instance.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { resourcesSummary, run, type Result } from "../support/commands";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { pulumiEnv, writeUserPackage } from "../support/pulumiProject";
import { copyCommit } from "../support/repoCopy";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";

/** The commit of the previous release (its `v<version>` tag once the repository is published). */
const PREVIOUS_COMMIT = "5d3f02dfb6ef4dd7db57e180d364112662242099";
/** That release's version, as its package.json says. */
const PREVIOUS_VERSION = (
  JSON.parse(
    execFileSync("git", ["show", `${PREVIOUS_COMMIT}:package.json`], { cwd: REPO_ROOT, encoding: "utf8" }),
  ) as {
    version: string;
  }
).version;
/** The version of this checkout's release, so the engine sees two plugin versions. */
const NEXT = RELEASE_VERSION;
const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
/** Operations that read; any other request would change the instance. */
const READS = new Set(["GetAllWebhookSubscriptions", "GetWebhookSubscription"]);
const URL = "https://hooks.example.com/upgrade";

interface Artifacts {
  /** The npm package, packed. */
  readonly tarball: string;
  /** The `runtime: nodejs` plugin tarball. */
  readonly plugin: string;
}

let root: string;
let service: EmulatorHarness;
let env: NodeJS.ProcessEnv;
/** The `@pulumi/pulumi` a user project installs: the engine's version. */
let sdk: string;
let previous: Artifacts;
let next: Artifacts;
const started = Date.now();

/**
 * The previous release's npm tarball (`npm pack`, whose `prepack` builds dist/) and plugin
 * tarball, built in `checkout` at `version`. The plugin step is build:plugin's own script:
 * `npm run build:plugin` would only build dist/ a second time (two TypeScript compilations)
 * before it.
 */
async function build(checkout: string, version: string): Promise<Artifacts> {
  const out = join(checkout, "packed");
  mkdirSync(out);
  const began = Date.now();
  await run("npm", ["pack", "--pack-destination", out, ...NPM], checkout);
  await run("npx", ["tsx", "scripts/buildPlugin.ts"], checkout);
  const tarball = readdirSync(out).find((name) => name.endsWith(".tgz"));
  if (tarball !== `pulumi-webhook-subscriptions-${version}.tgz`)
    throw new Error(`npm pack in ${checkout} wrote ${tarball}`);
  console.log(`[upgrade] ${version}: npm pack, scripts/buildPlugin.ts: ${((Date.now() - began) / 1000).toFixed(0)} s`);
  return {
    tarball: join(out, tarball),
    plugin: join(checkout, "dist", "plugin", `pulumi-resource-webhooks-v${version}.tgz`),
  };
}

/** `pulumi <args> --stack dev` in `dir`, its summary line logged. */
async function pulumi(dir: string, args: string[]): Promise<Result> {
  const result = await run("pulumi", [...args, "--stack", "dev"], dir, env);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[upgrade] ${dir.split("/").pop()}: pulumi ${args.join(" ")}: ${summary}`);
  return result;
}

/** Requests other than reads so far, per operation. */
async function changingRequests(): Promise<Record<string, number>> {
  const { requests } = (await service.admin("GET", "/stats")).json as { requests: Record<string, number> };
  return Object.fromEntries(Object.entries(requests).filter(([operation]) => !READS.has(operation)));
}

/** The one live subscription at `url`. */
async function liveAt(url: string): Promise<Record<string, unknown>> {
  const found = (await service.all()).filter((s) => s.SubscriberURL === url);
  expect(found, `subscriptions at ${url}`).toHaveLength(1);
  return found[0]!;
}

/**
 * Deploys the project in `dir` with the previous release, runs `upgrade` (installs this
 * checkout's artifacts), then checks that preview and up change nothing.
 */
async function upgradeIsNoOp(dir: string, url: string, upgrade: () => Promise<void>): Promise<string> {
  await pulumi(dir, ["stack", "init"]);
  await pulumi(dir, ["config", "set", "webhooks:baseUrl", service.url]);
  expect(resourcesSummary((await pulumi(dir, ["up", "--yes"])).stdout)).toMatch(/\+ 2 created/);
  const before = await liveAt(url);
  const changes = await changingRequests();

  await upgrade();
  const preview = await pulumi(dir, ["preview", "--expect-no-changes", "--diff"]);
  expect(resourcesSummary(preview.stdout)).toBe("2 unchanged");
  const up = await pulumi(dir, ["up", "--yes", "--expect-no-changes"]);
  expect(resourcesSummary(up.stdout)).toBe("2 unchanged");

  expect(await liveAt(url)).toEqual(before); // same GUID, same Signature, nothing edited
  expect(await changingRequests()).toEqual(changes);
  console.log(`[upgrade] ${dir.split("/").pop()}: ${before.GUID}, Signature unchanged; requests that change: none`);
  return (await pulumi(dir, ["stack", "export"])).stdout;
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-nodejs", "pulumi-language-yaml"]);
  root = mkdtempSync(join(tmpdir(), "upgrade-"));
  const old = join(root, "previous");
  await copyCommit(old, PREVIOUS_COMMIT);
  const [built, release] = await Promise.all([build(old, PREVIOUS_VERSION), sharedRelease()]);
  previous = built;
  next = {
    tarball: join(release.dir, `pulumi-webhook-subscriptions-${NEXT}.tgz`),
    plugin: join(release.dir, `pulumi-resource-webhooks-v${NEXT}.tgz`),
  };
  service = await EmulatorHarness.start();
  env = { ...pulumiEnv(engine, root, "upgrade-passphrase"), WEBHOOKS_TOKEN: "dev-builder" };
  sdk = engine.version;
}, 1_800_000);

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  console.log(`[upgrade] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it(`dynamic provider: ${PREVIOUS_VERSION} → this checkout's package, no changes`, async () => {
  const user = join(root, "dynamic");
  mkdirSync(user);
  writeFileSync(join(user, "Pulumi.yaml"), "name: upgrade-dynamic\nruntime: nodejs\n");
  writeFileSync(
    join(user, "index.ts"),
    [
      'import * as pulumi from "@pulumi/pulumi";',
      'import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";',
      'const sub = new WebhookSubscription("upgrade", {',
      "  webhook: Webhook.BusinessObjectCreated,",
      "  filterObjectType: 2,",
      `  subscriberUrl: "${URL}/dynamic",`,
      '  customHeader: "X-Api-Key",',
      '  customHeaderValue: pulumi.secret("upgrade-header-value"),',
      "});",
      "export const guid = sub.guid;",
      "",
    ].join("\n"),
  );
  const install = async (artifacts: Artifacts) => {
    writeUserPackage(user, { sdk, tarball: artifacts.tarball, main: "index.ts" });
    await run("npm", ["install", ...NPM], user, env);
  };
  await install(previous);
  const state = await upgradeIsNoOp(user, `${URL}/dynamic`, () => install(next));
  expect(state).not.toContain("upgrade-header-value");
}, 600_000);

it(`native plugin: ${PREVIOUS_VERSION} → ${NEXT} installed in its place, no changes`, async () => {
  const project = join(root, "native");
  mkdirSync(project);
  writeFileSync(
    join(project, "Pulumi.yaml"),
    [
      "name: upgrade-native",
      "runtime: yaml",
      "resources:",
      "  upgrade:",
      "    type: webhooks:index:WebhookSubscription",
      "    properties:",
      "      webhook: 3",
      "      filterObjectType: 2",
      `      subscriberUrl: ${URL}/native`,
      "      customHeader: X-Api-Key",
      "      customHeaderValue:",
      "        fn::secret: upgrade-header-value",
      "",
    ].join("\n"),
  );
  const install = (version: string, artifacts: Artifacts) =>
    run("pulumi", ["plugin", "install", "resource", "webhooks", version, "-f", artifacts.plugin], project, env);
  await install(PREVIOUS_VERSION, previous);
  // The new version replaces the old one, so the preview and the update can only run the new plugin.
  const state = await upgradeIsNoOp(project, `${URL}/native`, async () => {
    await install(NEXT, next);
    await run("pulumi", ["plugin", "rm", "resource", "webhooks", PREVIOUS_VERSION, "--yes"], project, env);
    const plugins = JSON.parse((await run("pulumi", ["plugin", "ls", "--json"], project, env)).stdout) as {
      name: string;
      version: string;
    }[];
    expect(plugins.filter((p) => p.name === "webhooks").map((p) => p.version)).toEqual([NEXT]);
  });
  expect(state).not.toContain("upgrade-header-value");
}, 600_000);
