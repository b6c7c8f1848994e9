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
import { DriftError, reviewDrift, type DriftReport } from "../../drift/index";
import { runDriftCli, stackReportsOf } from "../support/driftCli";
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

  let report: DriftReport;

  it("classifies every managed subscription and finds the unmanaged one, writing nothing to the state", async () => {
    const progress: string[] = [];
    const started = Date.now();
    report = await reviewDrift({
      stackName: "drifted",
      workDir: drifted.dir,
      engine,
      onProgress: (line) => progress.push(line),
      stateOnly: true,
    });
    console.log(`[drift] review of 4 managed + 1 unmanaged subscriptions took ${Date.now() - started} ms`);

    expect(report).toMatchObject({ version: 1, stack: "drifted", status: "drift", exitCode: 2, comparison: "state" });
    expect(report.summary).toEqual({
      managed: 4,
      inSync: 1,
      changed: 2,
      deleted: 1,
      unmanaged: 1,
      differsFromProgram: 0,
    });
    expect(report.differsFromProgram).toEqual([]);
    expect(report.instance).toEqual({ baseUrl: instance.url, apiVersion: "3", provider: null });
    expect(report.backend).toContain(drifted.backendDir);

    const byName = Object.fromEntries(report.managed.map((m) => [m.name, m]));
    expect(byName["url-changed"]).toMatchObject({
      status: "changed",
      guid: guids["url-changed"],
      changes: [
        {
          field: "subscriberUrl",
          secret: false,
          state: "https://hooks.example.com/orders",
          live: "https://attacker.example.net/orders",
        },
      ],
    });
    // A changed secret is named, never shown.
    expect(byName["header-changed"]?.status).toBe("changed");
    expect(byName["header-changed"]?.changes).toEqual([{ field: "customHeaderValue", secret: true }]);
    expect(byName.deleted).toMatchObject({ status: "deleted", guid: guids.deleted, changes: [] });
    expect(byName["in-sync"]).toMatchObject({ status: "in-sync", changes: [] });
    expect(report.managed.map((m) => m.status)).toEqual(["deleted", "changed", "changed", "in-sync"]);

    expect(report.unmanaged).toHaveLength(1);
    const [unmanaged] = report.unmanaged;
    expect(unmanaged).toMatchObject({
      guid: unmanagedGuid,
      webhook: 4,
      webhookName: "SpecificBusinessObjectUpdated",
      filterObjectType: 6,
      filterObjectGuid: ITEM,
      subscriberUrl: "https://manual.example.org/hook",
      customHeader: "X-Token",
      hasCustomHeaderValue: true,
    });
    expect(unmanaged?.snippet).toContain(`adoptGuid: "${unmanagedGuid}"`);
    expect(unmanaged?.snippet).toContain("webhook: Webhook.SpecificBusinessObjectUpdated");
    expect(unmanaged?.snippet).toContain("requireSecret(");

    expectNoSecrets(JSON.stringify(report));
    expect(progress.some((line) => line.includes("refreshed 4/4"))).toBe(true);
    expect(await stateFingerprint(drifted.stack, drifted.backendDir)).toBe(fingerprint);
  });

  it("the CLI prints the markdown report, progress on stderr, and exits 2 on drift", async () => {
    const { code, stdout, stderr } = await runDriftCli(["--stack", "drifted", "--cwd", drifted.dir, "--state-only"]);
    expect(code, stderr).toBe(2);
    const [summary, , header] = stdout.split("\n");
    expect(summary).toBe(
      `**Drift in stack \`drifted\`:** 1 deleted out of band, 2 changed out of band, 1 unmanaged; 1 of 4 managed subscriptions in sync on ${instance.url}.`,
    );
    expect(header).toBe("| Status | Subscription | GUID | Field | In state | Live |");
    expect(stdout).toContain(
      `| changed out of band | \`url-changed\` | \`${guids["url-changed"]}\` | \`subscriberUrl\` | \`https://hooks.example.com/orders\` | \`https://attacker.example.net/orders\` |`,
    );
    expect(stdout).toContain(
      `| changed out of band | \`header-changed\` | \`${guids["header-changed"]}\` | \`customHeaderValue\` | (secret) | **secret changed** |`,
    );
    expect(stdout).toContain(`| deleted out of band | \`deleted\` | \`${guids.deleted}\` |  | exists | **gone** |`);
    expect(stdout).toContain(`| unmanaged |  | \`${unmanagedGuid}\` |`);
    expect(stdout).toContain(`adoptGuid: "${unmanagedGuid}"`);
    expect(stderr).toContain("drift: refreshed 4/4 managed subscriptions");
    expect(stdout).not.toContain("drift:");
    expectNoSecrets(stdout + stderr);
  });

  it("the CLI prints the JSON report with --format json", async () => {
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
    const [json] = stackReportsOf(stdout) as [DriftReport];
    expect(json).toMatchObject({ version: 1, status: "drift", exitCode: 2, summary: report.summary });
    expect(json.managed.map(({ name, status, changes }) => ({ name, status, changes }))).toEqual(
      report.managed.map(({ name, status, changes }) => ({ name, status, changes })),
    );
    expect(json.unmanaged.map((u) => u.guid)).toEqual([unmanagedGuid]);
    expectNoSecrets(stdout + stderr);
  });

  it("exits 0 for a stack without drift (settings from the environment)", async () => {
    const { code, stdout, stderr } = await runDriftCli(
      ["--stack", "clean", "--cwd", clean.dir, "--state-only"],
      cleanEnv,
    );
    expect(code, stderr).toBe(0);
    expect(stdout.split("\n")[0]).toBe(
      `**No drift in stack \`clean\`:** all 2 managed subscriptions are in sync, and no unmanaged subscription exists on ${cleanInstance.url}.`,
    );
    expect(stdout).toContain("| in sync | `object-scoped` |");
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
    expect(stdout.split("\n")[0]).toMatch(/^\*\*Drift review of stack `clean` failed:\*\* .*401/);
    expectNoSecrets(stdout + stderr);
  });

  it("fails plainly for an unknown stack, naming it and the backend, and creates nothing", async () => {
    const err = await reviewDrift({ stackName: "no-such-stack", workDir: drifted.dir, engine }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DriftError);
    expect(err).toMatchObject({ code: "STACK_NOT_FOUND" });
    const message = (err as Error).message;
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
      const err = await reviewDrift({ stackName: "drifted", workDir: drifted.dir, engine }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "STACK_NOT_FOUND" });
      expect((err as Error).message).toContain(`${elsewhere} (backend from PULUMI_BACKEND_URL)`);
      expect((err as Error).message).toContain("This project has no stack here yet: `pulumi up` creates one.");
    } finally {
      if (saved === undefined) delete process.env.PULUMI_BACKEND_URL;
      else process.env.PULUMI_BACKEND_URL = saved;
    }
  });

  it("fails plainly when the instance is unreachable", async () => {
    const err = await reviewDrift({
      stackName: "clean",
      workDir: clean.dir,
      engine,
      env: { ...cleanEnv, WEBHOOKS_BASE_URL: `http://127.0.0.1:${await closedPort()}` },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriftError);
    expect(err).toMatchObject({ code: "TRANSPORT" });
    expect((err as Error).message).toMatch(/Cannot review drift of stack "clean": .*ECONNREFUSED.*webhooks:baseUrl/);
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
    const [json] = stackReportsOf(stdout) as [DriftReport];
    expect(json).toMatchObject({ status: "undetermined", exitCode: 1, instance: { apiVersion: "2024.1" } });
    expect(json.reason).toContain("Drift cannot be determined");
    expect(json.reason).toContain("no Get");
    expect(json.managed.map((m) => m.status)).toEqual(["unknown", "unknown"]);
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
    const [json] = stackReportsOf(stdout) as [DriftReport];
    expect(json.terraformStates).toEqual([file]);
    expect(json.unmanaged).toEqual([]);
    expect(json.coOwned.map((c) => [c.guid, c.owners.map((o) => [o.stack, o.name, o.tool ?? "pulumi"])])).toEqual([
      [
        guids["in-sync"],
        [
          ["drifted", "in-sync", "pulumi"],
          [file, "webhooks_subscription.messages", "terraform"],
        ],
      ],
    ]);
    expect(json.coOwned[0]!.advice).toContain("`tofu state rm webhooks_subscription.messages`");
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
