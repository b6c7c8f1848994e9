/**
 * Several instances in one program, on the real engine with two emulators ("test" through the
 * default provider's stack config, "production" through an explicit `Provider`): where
 * subscriptions land, what the state holds at rest, moving between instances, credential
 * rotation, and the reproduction of issue 14 (a changed `webhooks:baseUrl` left the subscription
 * behind on the old instance).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  listWebhookSubscriptions,
  Provider,
  WebhookSubscription,
  type ProviderArgs,
  type WebhookSubscriptionArgs,
} from "pulumi-webhook-subscriptions";
import { reviewDrift } from "../../drift/index";
import { openStack } from "../../engine/automation";
import { errorDiagnostics } from "../support/diagnostics";
import { runDriftCli } from "../support/driftCli";
import { findingsOf, reviewOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";

const TOKEN = "dev-builder";
const PROJECT = "multi-instance-e2e";

let test: EmulatorHarness;
let production: EmulatorHarness;
let dir: string;

/** Which instance each subscription is declared on, and how production is reached. */
let placement: Record<string, "default" | "production">;
let productionArgs: () => ProviderArgs;

const args = (name: string): WebhookSubscriptionArgs => ({
  webhook: "BusinessObjectCreated",
  filterObjectType: 7,
  subscriberUrl: `https://hooks.example.com/${name}`,
});

async function program(): Promise<Record<string, unknown>> {
  const prod = new Provider("production", productionArgs());
  const out: Record<string, unknown> = {};
  for (const [name, where] of Object.entries(placement)) {
    const sub = new WebhookSubscription(name, args(name), where === "production" ? { provider: prod } : {});
    out[name] = sub.guid;
  }
  return out;
}

async function stackFor(name: string, run = program): Promise<Stack> {
  return openStack({
    engine: requireEngine(),
    backendDir: join(dir, "state"),
    stackName: name,
    workDir: dir,
    projectName: PROJECT,
    program: run,
    config: {
      "webhooks:baseUrl": { value: test.url },
      "webhooks:token": { value: TOKEN, secret: true },
    },
    env: { PROD_WEBHOOKS_CLIENT_SECRET: "dev-secret" },
  });
}

const guids = async (on: EmulatorHarness) => (await on.all()).map((s) => s.GUID).sort();
const outputGuid = (result: { outputs: Record<string, { value: unknown }> }, name: string) =>
  result.outputs[name]!.value as string;

beforeAll(async () => {
  test = await EmulatorHarness.start();
  production = await EmulatorHarness.start();
  dir = workDir("multi-instance");
});
afterAll(async () => {
  await test?.close();
  await production?.close();
});

describe("two instances in one program", () => {
  let stack: Stack;
  let invoices: string;

  it("puts each subscription on its own instance", async () => {
    placement = { orders: "default", catalogue: "production", invoices: "production" };
    productionArgs = () => ({ baseUrl: production.url, token: TOKEN });
    stack = await stackFor("fleet");
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect(await guids(test)).toEqual([outputGuid(up, "orders")]);
    expect(await guids(production)).toEqual([outputGuid(up, "catalogue"), outputGuid(up, "invoices")].sort());
    invoices = outputGuid(up, "invoices");
  });

  it("keeps every credential out of the state file at rest: the Provider's token is ciphertext", () => {
    const raw = readFileSync(join(dir, "state", ".pulumi", "stacks", PROJECT, "fleet.json"), "utf8");
    expect(raw).not.toContain(TOKEN);
    const resources = (
      JSON.parse(raw) as {
        checkpoint: { latest: { resources: Array<{ type: string; inputs: Record<string, unknown> }> } };
      }
    ).checkpoint.latest.resources;
    const provider = resources.find(
      (r) => r.type === "pulumi:providers:pulumi-nodejs" && r.inputs["webhooks:provider"],
    );
    expect(provider!.inputs["webhooks:token"]).toMatchObject({ ciphertext: expect.any(String) });
    const recorded = resources
      .filter((r) => r.type.endsWith(":WebhookSubscription"))
      .map((r) => (r as unknown as { outputs: { baseUrl: string } }).outputs.baseUrl)
      .sort();
    expect(recorded).toEqual([production.url, production.url, test.url].sort());
  });

  it("shows no changes on a second up", async () => {
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 5 });
  });

  it("moves a subscription to the other provider: afterwards it lives only on the new instance", async () => {
    placement.invoices = "default";
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4, replace: 1 });
    const moved = outputGuid(up, "invoices");
    expect(await guids(production)).toEqual([outputGuid(up, "catalogue")]);
    expect(await guids(test)).toEqual([outputGuid(up, "orders"), moved].sort());
    expect(await guids(production)).not.toContain(invoices);
  });

  it("switching an instance to OAuth (secret from the environment) changes no subscription", async () => {
    productionArgs = () => ({
      baseUrl: production.url,
      clientId: "dev-client",
      clientSecretFromEnv: "PROD_WEBHOOKS_CLIENT_SECRET",
      tokenUrl: `${production.url}/oauth/token`,
    });
    const before = { test: await guids(test), production: await guids(production) };
    const up = await stack.up();
    expect(up.summary.resourceChanges).toEqual({ same: 4, update: 1 });
    expect({ test: await guids(test), production: await guids(production) }).toEqual(before);
    // And the OAuth settings really reach production: a refresh reads every subscription through them.
    expect((await stack.refresh()).summary.resourceChanges).toEqual({ same: 5 });
  });

  let neighbour: Stack;
  let unmanaged: { test: string; production: string; ignored: string };

  it("drift review: unmanaged on each instance, other stacks' subscriptions managed, the ignore list honoured", async () => {
    // Another stack shares the test instance; its subscription is managed, by it.
    neighbour = await stackFor("neighbour", async () => ({
      guid: new WebhookSubscription("neighbour", args("neighbour")).guid,
    }));
    const neighbourGuid = outputGuid(await neighbour.up(), "guid");
    const extra = (on: EmulatorHarness, url: string) =>
      on.subscribe({ Webhook: 3, FilterObjectType: 9, SubscriberURL: url }).then((s) => s.GUID);
    unmanaged = {
      test: await extra(test, "https://elsewhere.example.com/test"),
      production: await extra(production, "https://elsewhere.example.com/production"),
      ignored: await extra(production, "https://ignored.example.com/x"),
    };

    const env = { ...process.env, PROD_WEBHOOKS_CLIENT_SECRET: "dev-secret" };
    const review = await reviewDrift({
      stacks: [
        { name: "fleet", workDir: dir },
        { name: "neighbour", workDir: dir },
      ],
      engine: requireEngine(),
      env,
      ignore: ["https://ignored.example.com/"],
      // An inline program, which no preview can run again: compare with the state alone.
      stateOnly: true,
    });
    const [fleet, neighbourSource] = review.sources;
    expect(fleet!.instances).toEqual([
      { baseUrl: test.url, apiVersion: "3", provider: null },
      { baseUrl: production.url, apiVersion: "3", provider: "production" },
    ]);
    expect(review.summary).toMatchObject({ "differs-from-state": 0, deleted: 0, unmanaged: 2, "co-owned": 0 });
    expect(fleet!.subscriptions.map((m) => [m.name, m.findings])).toEqual([
      ["catalogue", []],
      ["invoices", []],
      ["orders", []],
    ]);
    const unmanagedFound = findingsOf(review, "unmanaged");
    expect(unmanagedFound.map((f) => ({ guid: f.guid, baseUrl: f.baseUrl }))).toEqual(
      expect.arrayContaining([
        { guid: unmanaged.test, baseUrl: test.url },
        { guid: unmanaged.production, baseUrl: production.url },
      ]),
    );
    // Adopted into the fleet through the explicit provider that reaches production.
    const onProduction = unmanagedFound.find((f) => f.baseUrl === production.url)!.adoption!;
    expect(onProduction).toMatchObject({ into: { name: "fleet" }, provider: "production" });
    expect(onProduction.snippet).toContain("{ provider: production }");
    // The neighbour's subscription is managed, by it; and so is the fleet's on the test instance.
    expect(unmanagedFound.map((f) => f.guid)).not.toContain(neighbourGuid);
    expect(neighbourSource!.instances.map((i) => i.baseUrl)).toEqual([test.url]);
    expect(neighbourSource!.subscriptions.map((m) => [m.name, m.findings])).toEqual([["neighbour", []]]);
    // The ignored one is left out, and the report says by which rule.
    expect(review.ignored.suppressed.map((s) => [s.match, s.fingerprints.length])).toEqual([
      ["https://ignored.example.com/", 1],
    ]);
    expect(JSON.stringify(review.findings)).not.toContain(unmanaged.ignored);

    // Reviewed alone, the fleet stack sees the neighbour's subscription as unmanaged.
    const alone = await reviewDrift({
      stacks: [{ name: "fleet", workDir: dir }],
      engine: requireEngine(),
      env,
      stateOnly: true,
    });
    expect(findingsOf(alone, "unmanaged").map((f) => f.guid)).toContain(neighbourGuid);

    // The same through the bin: two --stack flags and an --ignore, one review.
    const cli = await runDriftCli(
      [
        "--stack",
        "fleet",
        "--stack",
        "neighbour",
        "--ignore",
        "https://ignored.example.com/",
        "--cwd",
        dir,
        "--format",
        "json",
        "--state-only",
      ],
      { PROD_WEBHOOKS_CLIENT_SECRET: "dev-secret" },
    );
    expect(cli.code, cli.stderr).toBe(2);
    const json = reviewOf(cli.stdout);
    expect(json).toMatchObject({ exitCode: 2, summary: review.summary, ignored: review.ignored });
    expect(json.sources.map((s) => [s.source.name, s.subscriptions.length])).toEqual([
      ["fleet", 3],
      ["neighbour", 1],
    ]);
    expect(
      findingsOf(json, "unmanaged")
        .map((f) => f.guid)
        .sort(),
    ).toEqual([unmanaged.test, unmanaged.production].sort());
    for (const secret of [TOKEN, "dev-secret"]) expect(cli.stdout + cli.stderr).not.toContain(secret);
  });

  it("destroy leaves nothing the stack managed on either instance", async () => {
    await stack.destroy();
    await neighbour.destroy();
    expect(await guids(test)).toEqual([unmanaged.test]);
    expect(await guids(production)).toEqual([unmanaged.production, unmanaged.ignored].sort());
    await test.reset();
    await production.reset();
  });
});

describe("read-only lookups and refused credentials", () => {
  it("WebhookSubscription.get and listWebhookSubscriptions read another instance and manage nothing", async () => {
    const existing = await production.subscribe({
      Webhook: 3,
      FilterObjectType: 7,
      SubscriberURL: "https://partner.example.com/x",
    });
    const stack = await stackFor("lookups", async () => {
      const prod = new Provider("production", { baseUrl: production.url, token: TOKEN });
      const partner = WebhookSubscription.get("partner", existing.GUID, { provider: prod });
      const listed = await listWebhookSubscriptions({ provider: prod });
      return { url: partner.subscriberUrl, signature: partner.signature, listed };
    });
    const up = await stack.up();
    expect(up.outputs.url!.value).toBe("https://partner.example.com/x");
    expect(up.outputs.signature).toMatchObject({ value: existing.Signature, secret: true });
    expect(up.outputs.listed!.value).toEqual([expect.objectContaining({ guid: existing.GUID })]);
    expect(JSON.stringify(up.outputs.listed!.value)).not.toContain(existing.Signature);
    await stack.destroy();
    expect(await guids(production)).toEqual([existing.GUID]);
    await production.reset();
  });

  it("a refused token fails the run with one full 401 message, not one per resource and retry", async () => {
    const names = ["a", "b", "c", "d"];
    const stack = await stackFor("refused", async () => ({
      guids: names.map((n) => new WebhookSubscription(n, args(n)).guid),
    }));
    await stack.setConfig("webhooks:token", { value: "expired-token", secret: true });
    const { onEvent, byResource } = errorDiagnostics();
    const failure = await stack.up({ onEvent }).then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).not.toBe("succeeded");
    // How many resources the engine attempts after the first failure, and in which order it reports
    // them, is its scheduling, not ours: whatever it attempted, one says 401 in full, naming the
    // setting, and every other one refers to it. (The provider fails the full one first:
    // test/provider/instances.test.ts.)
    const attempted = names.filter((n) => byResource.has(n));
    expect(attempted.length).toBeGreaterThan(0);
    for (const n of attempted) expect(byResource.get(n), n).toHaveLength(1);
    const messages = attempted.map((n) => byResource.get(n)![0]!);
    const isReference = (m: string) => m.includes("refused this run's credentials earlier (UNAUTHORIZED, HTTP 401)");
    const full = messages.filter((m) => !isReference(m));
    expect(full, messages.join("\n")).toHaveLength(1);
    expect(full[0]).toContain("401 Unauthorized: the instance refused the bearer token from webhooks:token.");
    const requests = Object.values((await test.admin("GET", "/stats")).json.requests as Record<string, number>);
    expect(requests.reduce((x, y) => x + y, 0)).toBe(1);
    expect(await test.all()).toEqual([]);
  });
});

describe("issue 14: changing webhooks:baseUrl moves the subscription", () => {
  it("up moves it to the new instance, and destroy leaves both instances clean", async () => {
    placement = { orders: "default" };
    const stack = await stackFor("moved", async () => ({
      guid: new WebhookSubscription("orders", args("orders")).guid,
    }));
    await stack.up();
    expect(await test.all()).toHaveLength(1);

    await stack.setConfig("webhooks:baseUrl", { value: production.url });
    const preview = await stack.preview();
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    const up = await stack.up();
    expect(up.summary.resourceChanges).toMatchObject({ replace: 1 });
    expect(await test.all()).toEqual([]);
    expect(await guids(production)).toEqual([outputGuid(up, "guid")]);

    await stack.destroy();
    expect(await test.all()).toEqual([]);
    expect(await production.all()).toEqual([]);
  });

  it("fails preview, not up, on an unusable setting, naming the variable it was read from", async () => {
    const stack = await openStack({
      engine: requireEngine(),
      backendDir: join(dir, "state"),
      stackName: "unset",
      workDir: dir,
      projectName: PROJECT,
      program: async () => ({ guid: new WebhookSubscription("orders", args("orders")).guid }),
      config: { "webhooks:baseUrl": { value: test.url }, "webhooks:token": { value: TOKEN, secret: true } },
      env: { WEBHOOKS_API_VERSION: "9" },
    });
    await stack.removeConfig("webhooks:baseUrl");
    const failure = await stack.preview().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/webhooks:baseUrl .*is not set/);
    await stack.setConfig("webhooks:baseUrl", { value: test.url });
    const version = await stack.preview().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(version).toMatch(/WEBHOOKS_API_VERSION must be one of .*got: "9"/);

    // A Provider's argument: the same check, naming the Provider and its argument.
    const viaProvider = await stackFor("bad-provider", async () => {
      const prod = new Provider("production", { baseUrl: production.url, token: TOKEN, apiVersion: "9" as "3" });
      return { guid: new WebhookSubscription("orders", args("orders"), { provider: prod }).guid };
    });
    const providerFailure = await viaProvider.preview().then(
      () => "succeeded",
      (err: Error) => err.message,
    );
    expect(providerFailure).toMatch(/Provider "production" apiVersion must be one of .*got: "9"/);
    expect(await production.all()).toEqual([]);
    expect(await test.all()).toEqual([]);
  });
});
