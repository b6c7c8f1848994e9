/**
 * Drift review end to end: the real engine, the emulator in-process, and out-of-band changes
 * made with plain HTTP. Two stacks are built once and shared by every case, to stay within a
 * few minutes on a small machine:
 * - "drifted" (settings in stack config): one subscription's URL updated, one custom header
 *   value changed, one unsubscribed, one left alone, plus an unmanaged one on the instance;
 * - "clean" (settings from the environment), on an emulator of its own (GetAll returns the
 *   whole instance), with no drift.
 * Both are inline programs, which no `pulumi preview` can run again: these reviews compare with the
 * state alone (`--state-only`). The comparison with the program runs in driftNative.test.ts, on
 * program directories of both front doors.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import type { Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription, Webhook } from "pulumi-webhook-subscriptions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import type { Engine } from "../../engine/provision";
import { reviewDrift, type Review } from "../../drift/index";
import { runDriftCli } from "../support/driftCli";
import { findingsOf, resourceOf, reviewOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";

const TOKEN = "dev-builder";
const HEADER_V1 = "header-secret-v1-7d1f";
const HEADER_V2 = "header-secret-v2-93ac";
const UNMANAGED_HEADER = "unmanaged-header-secret-5be2";
const WRONG_TOKEN = "wrong-token-4e8b9f";
const ORDERS = "6f1c0000-0000-4000-8000-0000000000a1";
const INBOX = "6f1c0000-0000-4000-8000-0000000000b2";
const ITEM = "6f1c0000-0000-4000-8000-0000000000c3";

/**
 * A digest of everything the review could have written: the exported deployment (compared
 * as a hash, because it holds plaintext secrets) and every file of the backend.
 */
async function stateFingerprint(stack: Stack, backendDir: string): Promise<string> {
  const hash = createHash("sha256").update(JSON.stringify((await stack.exportStack()).deployment));
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  for (const file of walk(backendDir).sort()) hash.update(file).update(readFileSync(file));
  return hash.digest("hex");
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("drift review", () => {
  let engine: Engine;
  let instance: EmulatorHarness;
  let cleanInstance: EmulatorHarness;
  let drifted: { stack: Stack; dir: string; backendDir: string };
  let clean: { stack: Stack; dir: string; backendDir: string };
  let guids: Record<string, string>;
  let unmanagedGuid: string;
  /** Every secret the output must never show: signatures, header values, tokens. */
  let secrets: string[];
  let fingerprint: string;
  let cleanEnv: Record<string, string>;

  beforeAll(async () => {
    engine = requireEngine();
    [instance, cleanInstance] = await Promise.all([EmulatorHarness.start(), EmulatorHarness.start()]);

    const dir = workDir("drift");
    const backendDir = join(dir, "state");
    const stack = await openStack({
      engine,
      backendDir,
      stackName: "drifted",
      workDir: dir,
      projectName: "drift-review",
      config: { "webhooks:baseUrl": { value: instance.url }, "webhooks:token": { value: TOKEN, secret: true } },
      program: async () => {
        const subs = {
          "url-changed": new WebhookSubscription("url-changed", {
            webhook: Webhook.PacketCreated,
            filterObjectType: 2,
            filterObjectGuid: ORDERS,
            subscriberUrl: "https://hooks.example.com/orders",
          }),
          "header-changed": new WebhookSubscription("header-changed", {
            webhook: Webhook.BusinessObjectCreated,
            filterObjectType: 3,
            subscriberUrl: "https://hooks.example.com/objects",
            customHeader: "X Api Key",
            customHeaderValue: pulumi.secret(HEADER_V1),
          }),
          deleted: new WebhookSubscription("deleted", {
            webhook: Webhook.BusinessObjectTypeUpdated,
            filterObjectType: 4,
            subscriberUrl: "https://hooks.example.com/types",
          }),
          "in-sync": new WebhookSubscription("in-sync", {
            webhook: Webhook.NewCommunication,
            filterObjectType: 5,
            filterObjectGuid: INBOX,
            subscriberUrl: "https://hooks.example.com/messages",
          }),
        };
        return Object.fromEntries(Object.entries(subs).map(([name, sub]) => [name, sub.guid]));
      },
    });
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    guids = Object.fromEntries(Object.entries(up.outputs).map(([name, output]) => [name, output.value as string]));
    drifted = { stack, dir, backendDir };

    // Out of band, the way someone with the API and a token would do it.
    const urlChange = await instance.config("UpdateWebhookSubscription", {
      body: {
        GUID: guids["url-changed"],
        Webhook: 0,
        FilterObjectType: 2,
        FilterObjectGUID: ORDERS,
        SubscriberURL: "https://attacker.example.net/orders",
      },
    });
    expect(urlChange.status).toBe(200);
    const headerChange = await instance.config("UpdateWebhookSubscription", {
      body: {
        GUID: guids["header-changed"],
        Webhook: 3,
        FilterObjectType: 3,
        SubscriberURL: "https://hooks.example.com/objects",
        CustomHeader: "X-Api-Key",
        CustomHeaderValue: HEADER_V2,
      },
    });
    expect(headerChange.status).toBe(200);
    const unsubscribe = await instance.config("Unsubscribe", { query: { webHookSubscriptionGUID: guids.deleted! } });
    expect(unsubscribe.status).toBe(200);
    const created = await instance.subscribe({
      Webhook: 4,
      FilterObjectType: 6,
      FilterObjectGUID: ITEM,
      SubscriberURL: "https://manual.example.org/hook",
      CustomHeader: "X Token",
      CustomHeaderValue: UNMANAGED_HEADER,
    });
    unmanagedGuid = created.GUID;

    const cleanDir = workDir("drift-clean");
    cleanEnv = { WEBHOOKS_BASE_URL: cleanInstance.url, WEBHOOKS_TOKEN: TOKEN };
    const cleanStack = await openStack({
      engine,
      backendDir: join(cleanDir, "state"),
      stackName: "clean",
      workDir: cleanDir,
      projectName: "drift-clean",
      env: cleanEnv,
      program: async () => {
        const a = new WebhookSubscription("type-scoped", {
          webhook: Webhook.BusinessObjectCreated,
          filterObjectType: 7,
          subscriberUrl: "https://hooks.example.com/clean",
        });
        const b = new WebhookSubscription("object-scoped", {
          webhook: "PacketCreated",
          filterObjectType: 2,
          filterObjectGuid: ORDERS,
          subscriberUrl: "https://hooks.example.com/clean-orders",
          customHeader: "X Key",
          customHeaderValue: HEADER_V1,
        });
        return { a: a.guid, b: b.guid };
      },
    });
    expect((await cleanStack.up()).summary.result).toBe("succeeded");
    clean = { stack: cleanStack, dir: cleanDir, backendDir: join(cleanDir, "state") };

    const live = [...(await instance.all()), ...(await cleanInstance.all())];
    secrets = [TOKEN, WRONG_TOKEN, HEADER_V1, HEADER_V2, UNMANAGED_HEADER, ...live.map((s) => s.Signature as string)];
    fingerprint = await stateFingerprint(stack, backendDir);
  });

  afterAll(async () => {
    await Promise.all([instance?.close(), cleanInstance?.close()]);
  });

  const expectNoSecrets = (text: string) => {
    for (const secret of secrets) expect(text.includes(secret), "a secret value appears in the output").toBe(false);
  };

  let drift: Review;

  it("classifies every managed subscription and finds the unmanaged one, writing nothing to the state", async () => {
    const progress: string[] = [];
    const started = Date.now();
    drift = await reviewDrift({
      stacks: [{ name: "drifted", workDir: drifted.dir }],
      engine,
      onProgress: (line) => progress.push(line),
      stateOnly: true,
    });
    console.log(`[drift] review of 4 managed + 1 unmanaged subscriptions took ${Date.now() - started} ms`);

    expect(drift).toMatchObject({ version: 3, status: "drift", exitCode: 2 });
    expect(drift.summary).toMatchObject({
      "differs-from-state": 2,
      deleted: 1,
      unmanaged: 1,
      "differs-from-program": 0,
      "co-owned": 0,
      "pending-create": 0,
    });
    const [source] = drift.sources;
    expect(source).toMatchObject({
      source: { kind: "pulumi-stack", name: "drifted" },
      status: "reviewed",
      compared: ["state"],
      instances: [{ baseUrl: instance.url, apiVersion: "3", provider: null }],
    });
    expect(source!.backend).toContain(drifted.backendDir);
    // Four managed, one of them in sync (no finding of its own).
    expect(source!.subscriptions.map((m) => [m.name, m.guid, m.findings.length])).toEqual([
      ["deleted", guids.deleted, 1],
      ["header-changed", guids["header-changed"], 1],
      ["in-sync", guids["in-sync"], 0],
      ["url-changed", guids["url-changed"], 1],
    ]);

    expect(drift.findings.map((f) => [f.class, resourceOf(f), f.guid])).toEqual([
      ["differs-from-state", "header-changed", guids["header-changed"]],
      ["differs-from-state", "url-changed", guids["url-changed"]],
      ["deleted", "deleted", guids.deleted],
      ["unmanaged", null, unmanagedGuid],
    ]);
    const [headerChanged, urlChanged, deleted, unmanaged] = drift.findings;
    expect(urlChanged!.fields).toEqual([
      {
        field: "subscriberUrl",
        secret: false,
        recorded: "https://hooks.example.com/orders",
        live: "https://attacker.example.net/orders",
      },
    ]);
    expect(urlChanged!.advice).toContain("`pulumi up --refresh --stack drifted` puts the declared values back");
    // A changed secret is named, never shown.
    expect(headerChanged!.fields).toEqual([{ field: "customHeaderValue", secret: true }]);
    expect(deleted!.fields).toEqual([]);

    expect(unmanaged!.subscription).toMatchObject({
      guid: unmanagedGuid,
      baseUrl: instance.url,
      webhook: 4,
      webhookName: "SpecificBusinessObjectUpdated",
      filterObjectType: 6,
      filterObjectGuid: ITEM,
      subscriberUrl: "https://manual.example.org/hook",
      customHeader: "X-Token",
      hasCustomHeaderValue: true,
    });
    expect(unmanaged!.adoption).toMatchObject({ kind: "typescript", into: { name: "drifted" }, provider: null });
    expect(unmanaged!.adoption!.snippet).toContain(`adoptGuid: "${unmanagedGuid}"`);
    expect(unmanaged!.adoption!.snippet).toContain("webhook: Webhook.SpecificBusinessObjectUpdated");
    expect(unmanaged!.adoption!.snippet).toContain("requireSecret(");

    expectNoSecrets(JSON.stringify(drift));
    expect(progress.some((line) => line.includes("refreshed 4/4"))).toBe(true);
    expect(await stateFingerprint(drifted.stack, drifted.backendDir)).toBe(fingerprint);
  });

  it("the CLI prints the markdown report, progress on stderr, and exits 2 on drift", async () => {
    const { code, stdout, stderr } = await runDriftCli(["--stack", "drifted", "--cwd", drifted.dir, "--state-only"]);
    expect(code, stderr).toBe(2);
    const lines = stdout.split("\n");
    expect(lines[2]).toBe(
      `**Drift** across 1 source: 2 differ from the state, 1 deleted out of band, 1 unmanaged; 1 of 4 managed subscriptions in sync on ${instance.url}.`,
    );
    expect(lines).toContain("| Finding | Subscription | GUID | Field | Declared | In state | Live |");
    expect(lines).toContain(
      `| differs from the state | \`url-changed\` | \`${guids["url-changed"]}\` | \`subscriberUrl\` |  | \`https://hooks.example.com/orders\` | \`https://attacker.example.net/orders\` |`,
    );
    expect(lines).toContain(
      `| differs from the state | \`header-changed\` | \`${guids["header-changed"]}\` | \`customHeaderValue\` |  | (secret) | **secret differs** |`,
    );
    expect(lines).toContain(`| deleted out of band | \`deleted\` | \`${guids.deleted}\` |  |  | exists | **gone** |`);
    expect(stdout).toContain(`| unmanaged |  | \`${unmanagedGuid}\` |  |  | not in state |`);
    // What to do: the state's values back, or the live ones accepted; a plain `pulumi up` does neither.
    expect(stdout).toContain(
      "`pulumi up --refresh --stack drifted` puts the declared values back; `pulumi refresh --stack drifted` accepts the live ones",
    );
    expect(stdout).toContain(`adoptGuid: "${unmanagedGuid}"`);
    expect(stderr).toContain("drift: refreshed 4/4 managed subscriptions");
    expect(stdout).not.toContain("drift:");
    expectNoSecrets(stdout + stderr);
  });

  it("--ignore-file: the ignored subscription is listed and counted nowhere, the stack's rows included", async () => {
    const ignoreFile = join(drifted.dir, "drift-ignore.json");
    writeFileSync(ignoreFile, JSON.stringify([{ match: unmanagedGuid, reason: "made by hand", owner: "team-a" }]));
    const { code, stdout, stderr } = await runDriftCli([
      ...["--stack", "drifted", "--cwd", drifted.dir, "--state-only", "--ignore-file", ignoreFile],
    ]);
    expect(code, stderr).toBe(2);
    expect(stdout.split("\n")[2]).toBe(
      `**Drift** across 1 source: 2 differ from the state, 1 deleted out of band; 1 of 4 managed subscriptions in sync on ${instance.url}.`,
    );
    expect(stdout).not.toMatch(/^\| unmanaged /m);
    expect(stdout).toContain(`1 finding ignored: 1 by \`${unmanagedGuid}\``);
  });

  it("the CLI prints the review's JSON with --format json", async () => {
    const { code, stdout, stderr } = await runDriftCli([
      "--stack",
      "drifted",
      "--cwd",
      drifted.dir,
      "--format",
      "json",
      "--state-only",
    ]);
    expect(code, stderr).toBe(2);
    const json = reviewOf(stdout);
    expect(json).toMatchObject({ version: 3, status: "drift", exitCode: 2, summary: drift.summary });
    expect(json).not.toHaveProperty("stacks");
    expect(json.findings.map(({ class: c, guid, fields }) => ({ c, guid, fields }))).toEqual(
      drift.findings.map(({ class: c, guid, fields }) => ({ c, guid, fields })),
    );
    expect(findingsOf(json, "unmanaged").map((f) => f.guid)).toEqual([unmanagedGuid]);
    expectNoSecrets(stdout + stderr);
  });

  it("exits 0 for a stack without drift (settings from the environment)", async () => {
    const { code, stdout, stderr } = await runDriftCli(
      ["--stack", "clean", "--cwd", clean.dir, "--state-only", "--format", "json"],
      cleanEnv,
    );
    expect(code, stderr).toBe(0);
    const json = reviewOf(stdout);
    expect(json).toMatchObject({ status: "in-sync", exitCode: 0, findings: [] });
    expect(json.sources[0]!.instances.map((i) => i.baseUrl)).toEqual([cleanInstance.url]);
    expect(json.sources[0]!.subscriptions.map((m) => [m.name, m.findings])).toEqual([
      ["object-scoped", []],
      ["type-scoped", []],
    ]);
    expectNoSecrets(stdout + stderr);
  });

  it("exits 1 with a plain message, and no token, when the token is refused", async () => {
    const { code, stdout, stderr } = await runDriftCli(["--stack", "clean", "--cwd", clean.dir, "--state-only"], {
      ...cleanEnv,
      WEBHOOKS_TOKEN: WRONG_TOKEN,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'drift: error: Cannot review drift of stack "clean": GetAllWebhookSubscriptions (api-version 3) failed: 401',
    );
    expect(stderr).toContain("the instance refused the bearer token from WEBHOOKS_TOKEN.");
    // The failure first, with the instance's answer; said once.
    expect(stdout.split("\n")[2]).toMatch(/^\*\*The review failed\*\* for Pulumi stack `clean`: .*401/);
    expect(stdout.split("401 Unauthorized").length).toBe(2);
    expectNoSecrets(stdout + stderr);
  });

  it("fails plainly for an unknown stack, naming it and the backend, and creates nothing", async () => {
    const found = await reviewDrift({ stacks: [{ name: "no-such-stack", workDir: drifted.dir }], engine });
    expect(found).toMatchObject({ status: "error", exitCode: 1, findings: [] });
    const [source] = found.sources;
    expect(source).toMatchObject({ status: "error", compared: [], error: { code: "STACK_NOT_FOUND" } });
    const message = source!.error!.message;
    expect(message).toContain('No stack named "no-such-stack"');
    expect(message).toContain(drifted.backendDir);
    // The stacks that do exist, so a mistyped name is corrected at once.
    expect(message).toMatch(/The stacks here: [^.]*\bdrifted\b/);
    expect(message).toContain("the review never creates a stack");
    expect(existsSync(join(drifted.backendDir, ".pulumi", "stacks", "drift-review", "no-such-stack.json"))).toBe(false);
  });

  it("reads the backend from PULUMI_BACKEND_URL before the project's backend.url", async () => {
    // An empty backend of its own: the stack is not there.
    const elsewhere = workDir("drift-other-backend");
    const saved = process.env.PULUMI_BACKEND_URL;
    process.env.PULUMI_BACKEND_URL = `file://${elsewhere}`;
    try {
      const found = await reviewDrift({ stacks: [{ name: "drifted", workDir: drifted.dir }], engine });
      const { error } = found.sources[0]!;
      expect(error).toMatchObject({ code: "STACK_NOT_FOUND" });
      expect(error!.message).toContain(`${elsewhere} (backend from PULUMI_BACKEND_URL)`);
      expect(error!.message).toContain("This project has no stack here yet: `pulumi up` creates one.");
    } finally {
      if (saved === undefined) delete process.env.PULUMI_BACKEND_URL;
      else process.env.PULUMI_BACKEND_URL = saved;
    }
  });

  it("fails plainly when the instance is unreachable", async () => {
    const found = await reviewDrift({
      stacks: [{ name: "clean", workDir: clean.dir }],
      engine,
      env: { ...process.env, ...cleanEnv, WEBHOOKS_BASE_URL: `http://127.0.0.1:${await closedPort()}` },
    });
    expect(found).toMatchObject({ status: "error", exitCode: 1 });
    const { error } = found.sources[0]!;
    expect(error).toMatchObject({ code: "TRANSPORT" });
    expect(error!.message).toMatch(/Cannot review drift of stack "clean": .*ECONNREFUSED.*webhooks:baseUrl/);
  });

  it("says plainly that drift cannot be determined in legacy mode, and exits 1", async () => {
    const before = (await cleanInstance.admin("GET", "/stats")).json;
    const { code, stdout, stderr } = await runDriftCli(
      ["--stack", "clean", "--cwd", clean.dir, "--format", "json", "--state-only"],
      {
        ...cleanEnv,
        WEBHOOKS_API_VERSION: "2024.1",
      },
    );
    expect(code, stderr).toBe(1);
    const json = reviewOf(stdout);
    expect(json).toMatchObject({ status: "error", exitCode: 1, findings: [] });
    const [source] = json.sources;
    expect(source).toMatchObject({ status: "undetermined", compared: [], instances: [{ apiVersion: "2024.1" }] });
    expect(source!.reason).toContain("Drift cannot be determined");
    expect(source!.reason).toContain("no Get");
    // Its claims are still listed, with nothing found about them.
    expect(source!.subscriptions.map((m) => [m.name, m.findings])).toEqual([
      ["object-scoped", []],
      ["type-scoped", []],
    ]);
    expect(stderr).toContain("drift: Drift cannot be determined");
    // Nothing was asked of the instance: the legacy API could not have answered.
    expect((await cleanInstance.admin("GET", "/stats")).json.requests).toEqual(before.requests);
  });

  it("--terraform-state: what a Terraform state holds is managed, not unmanaged; what the stack records too is co-owned", async () => {
    // The unmanaged subscription is Terraform's (a module's, by `tofu show -json`), and so is the stack's "in-sync" one.
    const file = join(drifted.dir, "tofu-show.json");
    const resource = (address: string, guid: string) => ({
      address,
      mode: "managed",
      type: "webhooks_subscription",
      values: { guid },
    });
    writeFileSync(
      file,
      JSON.stringify({
        format_version: "1.0",
        values: {
          root_module: {
            resources: [resource("webhooks_subscription.messages", guids["in-sync"]!)],
            child_modules: [
              {
                address: "module.items",
                resources: [resource("module.items.webhooks_subscription.hook", unmanagedGuid)],
              },
            ],
          },
        },
      }),
    );
    const { code, stdout, stderr } = await runDriftCli([
      "--stack",
      "drifted",
      "--cwd",
      drifted.dir,
      "--state-only",
      "--terraform-state",
      file,
      "--format",
      "json",
    ]);
    expect(code, stderr).toBe(2);
    const json = reviewOf(stdout);
    expect(json.sources.map((s) => [s.source.kind, s.source.name, s.status])).toEqual([
      ["pulumi-stack", "drifted", "reviewed"],
      ["terraform-state", file, "reviewed"],
    ]);
    expect(findingsOf(json, "unmanaged")).toEqual([]);
    const coOwned = findingsOf(json, "co-owned");
    expect(coOwned.map((c) => [c.guid, c.owners!.map((o) => [o.source.kind, o.source.name, o.address])])).toEqual([
      [
        guids["in-sync"],
        [
          ["pulumi-stack", "drifted", expect.stringMatching(/::in-sync$/)],
          ["terraform-state", file, "webhooks_subscription.messages"],
        ],
      ],
    ]);
    expect(coOwned[0]!.advice).toContain("`tofu state rm webhooks_subscription.messages`");
    expect(coOwned[0]!.advice).not.toContain("creates a subscription of its own");
    expectNoSecrets(stdout + stderr);
  });

  it("by default compares with the program too: a stack an inline program deployed has none on disk, and the review says so, naming --state-only", async () => {
    const { code, stdout, stderr } = await runDriftCli(["--stack", "clean", "--cwd", clean.dir], cleanEnv);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('drift: error: Stack "clean" was deployed by an Automation API inline program');
    expect(stderr).toContain("Pass --state-only to compare the live subscriptions with the state alone");
    expect(stderr).not.toContain("No program entry in");
    // The command that runs it again, from where this one ran (its --cwd as given).
    expect(stdout).toContain(`\`npx webhook-subscriptions drift --stack clean --cwd ${clean.dir}\``);
    expectNoSecrets(stdout + stderr);
  });

  it("left the drifted stack's state exactly as it was", async () => {
    expect(await stateFingerprint(drifted.stack, drifted.backendDir)).toBe(fingerprint);
  });
});
