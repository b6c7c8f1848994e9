/**
 * docs/native-provider.md, "Moving a TypeScript stack from the dynamic provider", run as written:
 * its two programs (before and after) and its commands, in a fresh project with the packed
 * package and the plugin installed as the page says, through the real Node.js language host, on
 * two emulators (the default instance and a `Provider`'s). The move must leave every
 * subscription as it was — the same GUIDs and Signatures, no request that changes anything —
 * and put every one of them under the plugin.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WEBHOOK_SUBSCRIPTION_TYPE } from "pulumi-webhook-subscriptions";
import { resourcesSummary, run, type Result } from "../support/commands";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireLanguageHosts } from "../support/engine";
import { pulumiEnv, writeUserPackage } from "../support/pulumiProject";
import { shellBlocks } from "../support/shellBlocks";
import { RELEASE_VERSION, sharedRelease, type SharedRelease } from "../support/sharedRelease";

const SECTION = "Moving a TypeScript stack from the dynamic provider";
const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
const NATIVE_TYPE = "webhooks:index:WebhookSubscription";
/** Operations that read; any other request would change the instance. */
const READS = new Set(["GetAllWebhookSubscriptions", "GetWebhookSubscription"]);

/** The section's blocks: the two programs (before, after) and its commands. */
function section(): { before: string; after: string; commands: string } {
  const page = readFileSync(join(release.checkout, "docs", "native-provider.md"), "utf8");
  const programs = shellBlocks(page, "ts").filter((b) => b.heading === SECTION);
  const commands = shellBlocks(page, "sh").filter((b) => b.heading === SECTION);
  if (programs.length !== 2 || commands.length !== 1)
    throw new Error(
      `docs/native-provider.md "${SECTION}": expected 2 ts blocks and 1 sh block, found ${programs.length} and ${commands.length}`,
    );
  return { before: programs[0]!.script, after: programs[1]!.script, commands: commands[0]!.script };
}

let root: string;
/** The run's release: its npm tarball, its `runtime: nodejs` plugin and its docs (which name its version). */
let release: SharedRelease;
let user: string;
let env: NodeJS.ProcessEnv;
let orders: EmulatorHarness;
let billing: EmulatorHarness;

/** `pulumi <args>` in the user's project, the run's summary line logged. */
async function pulumi(args: string[]): Promise<Result> {
  const result = await run("pulumi", args, user, env);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[migration] pulumi ${args.join(" ")}: ${summary}`);
  return result;
}

/** Every subscription on both instances, by GUID, as the service holds it. */
async function live(): Promise<Record<string, Record<string, unknown>>> {
  const all = [...(await orders.all()), ...(await billing.all())];
  return Object.fromEntries(all.map((s) => [s.GUID, s]));
}

/** Requests other than reads, per operation, on both instances. */
async function changingRequests(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const service of [orders, billing]) {
    const { requests } = (await service.admin("GET", "/stats")).json as { requests: Record<string, number> };
    for (const [operation, n] of Object.entries(requests))
      if (!READS.has(operation)) counts[operation] = (counts[operation] ?? 0) + n;
  }
  return counts;
}

interface StackOutputs {
  guids: { orders: string; invoices: string };
  signatures: { orders: string; invoices: string };
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-nodejs"]);
  root = mkdtempSync(join(tmpdir(), "migration-"));
  // The package and the plugin as a user gets them: the run's release (support/sharedRelease.ts).
  release = await sharedRelease();
  const tarball = join(release.dir, `pulumi-webhook-subscriptions-${RELEASE_VERSION}.tgz`);

  [orders, billing] = await Promise.all([EmulatorHarness.start(), EmulatorHarness.start()]);
  user = join(root, "user");
  mkdirSync(user);
  env = {
    ...pulumiEnv(engine, root, "migration-passphrase"),
    WEBHOOKS_TOKEN: "dev-builder",
    BILLING_TOKEN: "dev-builder",
  };
  writeUserPackage(user, { sdk: engine.version, tarball, main: "index.ts" });
  await run("npm", ["install", ...NPM], user, env);
  writeFileSync(join(user, "Pulumi.yaml"), "name: user-infra\nruntime: nodejs\n");
  // The install the page points at ("Build it, install it or use it by path").
  const plugin = join(release.dir, `pulumi-resource-webhooks-v${RELEASE_VERSION}.tgz`);
  await pulumi(["plugin", "install", "resource", "webhooks", RELEASE_VERSION, "-f", plugin]);
  await pulumi(["stack", "init", "dev"]);
  await pulumi(["config", "set", "webhooks:baseUrl", orders.url]);
  await pulumi(["config", "set", "billingUrl", billing.url]);
  await pulumi(["config", "set", "--secret", "ordersHeaderValue", "orders-header-value"]);
}, 900_000);

afterAll(async () => {
  await Promise.all([orders?.close(), billing?.close()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

it("moves the stack to the native provider with the same GUIDs and Signatures, changing nothing on the instances", async () => {
  const { before, after, commands } = section();

  writeFileSync(join(user, "index.ts"), before);
  expect(resourcesSummary((await pulumi(["up", "--yes"])).stdout)).toMatch(/\+ 4 created/);
  const outputsBefore = JSON.parse(
    (await pulumi(["stack", "output", "--show-secrets", "--json"])).stdout,
  ) as StackOutputs;
  // The emulator's Signatures, for the transcript: the same before and after.
  console.log(`[migration] before (dynamic): ${JSON.stringify(outputsBefore)}`);
  const liveBefore = await live();
  expect(Object.keys(liveBefore).sort()).toEqual(Object.values(outputsBefore.guids).sort());
  const changesBefore = await changingRequests();

  writeFileSync(join(user, "index.ts"), after);
  const transcript = await run("bash", ["-euo", "pipefail", "-c", commands], user, env);
  console.log(`[migration] the page's commands:\n${transcript.stdout}`);
  // The preview: the subscriptions (and the stack) unchanged, the Provider's two front doors swapped.
  expect(transcript.stdout).toMatch(/\+ {2}pulumi:providers:webhooks billing create/);
  expect(transcript.stdout).toMatch(/- {2}pulumi:providers:pulumi-nodejs billing delete/);
  expect(transcript.stdout).toContain("Resources:\n    + 1 to create\n    - 1 to delete\n    2 changes. 3 unchanged\n");

  // Nothing created, deleted, updated or rotated: only reads reached the instances.
  expect(await changingRequests()).toEqual(changesBefore);
  expect(await live()).toEqual(liveBefore);
  const outputsAfter = JSON.parse(
    (await pulumi(["stack", "output", "--show-secrets", "--json"])).stdout,
  ) as StackOutputs;
  console.log(`[migration] after (native):   ${JSON.stringify(outputsAfter)}`);
  expect(outputsAfter).toEqual(outputsBefore);

  // Every subscription is now the plugin's, the dynamic provider's code is gone from state, secrets stay ciphertext.
  const exported = (await pulumi(["stack", "export"])).stdout;
  const resources = (
    JSON.parse(exported) as {
      deployment: { resources: { type: string; id?: string; outputs?: Record<string, unknown> }[] };
    }
  ).deployment.resources;
  expect(
    resources
      .filter((r) => r.type === NATIVE_TYPE)
      .map((r) => r.id)
      .sort(),
  ).toEqual(Object.values(outputsBefore.guids).sort());
  expect(resources.map((r) => r.type)).not.toContain(WEBHOOK_SUBSCRIPTION_TYPE);
  expect(resources.map((r) => r.type).filter((t) => t.includes("pulumi-nodejs"))).toEqual([]);
  expect(exported).not.toContain("__provider");
  for (const secret of [...Object.values(outputsBefore.signatures), "orders-header-value"])
    expect(exported).not.toContain(secret);

  // The plugin manages them: an edit updates in place (same GUID), destroy unsubscribes both.
  writeFileSync(
    join(user, "index.ts"),
    after.replace("https://hooks.example.com/orders", "https://hooks.example.com/orders-v2"),
  );
  expect(resourcesSummary((await pulumi(["up", "--yes"])).stdout)).toMatch(/~ 1 updated/);
  expect((await live())[outputsBefore.guids.orders]).toMatchObject({
    SubscriberURL: "https://hooks.example.com/orders-v2",
    Signature: outputsBefore.signatures.orders,
  });
  expect(resourcesSummary((await pulumi(["destroy", "--yes"])).stdout)).toMatch(/- \d+ deleted/);
  expect(await live()).toEqual({});
});
