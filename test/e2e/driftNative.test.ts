/**
 * The drift review on stacks of the native plugin, as users run it: `webhook-subscriptions
 * drift --stack … --cwd …` (test/support/driftCli.ts) against stacks made with the real engine,
 * on one emulator, with the plugin built once by `npm run build:plugin` in a copy of the checkout.
 *
 * 1. examples/yaml as it is (YAML, the plugin by path): no drift → exit 0; then an out-of-band
 *    edit, an out-of-band delete and an unmanaged subscription → exit 2, each reported; then the
 *    `pulumi import` command the report prints for the unmanaged one, run as printed → managed.
 * 2. One TypeScript stack using both front doors (fixtures/both-front-doors): a dynamic
 *    WebhookSubscription, a native one on the default provider and one on an explicit native
 *    provider → exit 0; then drift on each kind → exit 2, with the right names, secrets masked.
 * 3. On both stacks, the reported scenario: an out-of-band edit, then `pulumi refresh` (which
 *    accepts it into the state), then the review: the state comparison alone (`--state-only`)
 *    says "No drift", the default comparison with the program reports each difference and exits 2.
 * 4. A stack deployed by an Automation API inline program (no program on disk): the review says
 *    so and exits 1, `--state-only` reviews it, and `reviewDrift` in code with its program compares
 *    with the program too.
 *
 * The assertions read the review's JSON (`--format json`, drift/review/model.ts); the markdown only
 * where a person acts on it (the printed `pulumi import`).
 *
 * Nothing the review prints may hold a secret, and the review writes nothing to the state.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";
import { reviewDrift, type FindingClass, type Review } from "../../drift/index";
import { openStack } from "../../engine/automation";
import { run } from "../support/commands";
import { runDriftCli } from "../support/driftCli";
import { findingsOf, resourceOf, reviewOf } from "../support/driftReview";
import { shellBlocks } from "../support/shellBlocks";
import type { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine, workDir } from "../support/engine";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";

const TOKEN = "dev-builder";
/** examples/yaml's custom header value. */
const EXAMPLE_HEADER_VALUE = "change-me";
const HEADER_V1 = "native-header-v1-4c2e";
const HEADER_V2 = "native-header-v2-8a1d";
/** The custom header value of the subscription made out of band on the YAML stack's instance. */
const MANUAL_HEADER_VALUE = "manual-header-5b9e";
const PASSPHRASE = "drift-native-passphrase";

let setting: PluginCheckout;
let service: EmulatorHarness;
/** The environment of every `pulumi` and `webhook-subscriptions drift` run. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  setting = await startPluginCheckout("drift native", PASSPHRASE);
  ({ service, env } = setting);
}, 900_000);

afterAll(() => setting?.close());

/** `webhook-subscriptions drift --stack <stack> --cwd <dir> [args]`, logging how long it took. */
async function drift(stack: string, dir: string, args: string[] = []) {
  const started = Date.now();
  const result = await runDriftCli(["--stack", stack, "--cwd", dir, ...args], env);
  console.log(`[drift native] drift --stack ${stack}: exit ${result.code} in ${Date.now() - started} ms`);
  return result;
}

/** Out of band, as someone with the API and a token: the subscription at `url` updated with `change`. */
async function editOutOfBand(url: string, change: Record<string, unknown>): Promise<void> {
  const live = await service.subscriptionAt(url);
  const fields = ["GUID", "Webhook", "FilterObjectType", "FilterObjectGUID", "SubscriberURL", "CustomHeader"];
  const body = Object.fromEntries(fields.filter((f) => live[f] !== null).map((f) => [f, live[f]]));
  if (live.CustomHeaderValue !== null) body.CustomHeaderValue = live.CustomHeaderValue;
  expect((await service.config("UpdateWebhookSubscription", { body: { ...body, ...change } })).status).toBe(200);
}

/** Out of band: the subscription at `url` unsubscribed; resolves with its GUID. */
async function deleteOutOfBand(url: string): Promise<string> {
  const { GUID } = await service.subscriptionAt(url);
  const gone = await service.config("Unsubscribe", { query: { webHookSubscriptionGUID: GUID } });
  expect(gone.status).toBe(200);
  return GUID;
}

/** Every secret of the instance and the stacks; none may appear in what the review prints. */
async function expectNoSecrets(text: string): Promise<void> {
  const signatures = (await service.all()).map((s) => String(s.Signature));
  for (const secret of [
    TOKEN,
    EXAMPLE_HEADER_VALUE,
    HEADER_V1,
    HEADER_V2,
    MANUAL_HEADER_VALUE,
    PASSPHRASE,
    ...signatures,
  ])
    expect(text.includes(secret), `a secret value appears in the output: ${secret.slice(0, 4)}…`).toBe(false);
}

describe("a YAML stack on the native plugin (examples/yaml)", () => {
  let example: string;
  /** The GUID of the subscription made out of band. */
  let unmanagedGuid: string;
  const pulumi = (args: string[]) => run("pulumi", [...args, "--stack", "yaml"], example, env);

  beforeAll(async () => {
    example = join(setting.checkout, "examples", "yaml");
    await pulumi(["stack", "init"]);
    await pulumi(["config", "set", "webhooks:baseUrl", service.url]);
    await pulumi(["config", "set", "--secret", "webhooks:token", TOKEN]);
    await pulumi(["up", "--yes"]);
  });

  it("no drift: exit 0, both native subscriptions in sync", async () => {
    const { code, stdout, stderr } = await drift("yaml", example, ["--format", "json"]);
    expect(code, stderr).toBe(0);
    const review = reviewOf(stdout);
    expect(review).toMatchObject({ status: "in-sync", exitCode: 0, findings: [] });
    // The YAML program ran through its language host, and matched what is live.
    expect(review.sources[0]).toMatchObject({ status: "reviewed", compared: ["state", "program"] });
    expect(review.sources[0]!.instances.map((i) => i.baseUrl)).toEqual([service.url]);
    expect(review.sources[0]!.subscriptions.map((m) => [m.name, m.findings])).toEqual([
      ["objectCreated", []],
      ["packetCreated", []],
    ]);
    await expectNoSecrets(stdout + stderr);
  });

  it("an out-of-band edit, an out-of-band delete and an unmanaged subscription: exit 2, each named; state untouched", async () => {
    await editOutOfBand("https://hooks.example.com/yaml/objects", {
      SubscriberURL: "https://elsewhere.example.net/objects",
    });
    const deleted = await deleteOutOfBand("https://hooks.example.com/yaml/packets");
    const unmanaged = await service.subscribe({
      Webhook: 5, // BusinessObjectTypeUpdated: type-scoped
      FilterObjectType: 6,
      SubscriberURL: "https://manual.example.org/hook",
      CustomHeader: "X-Manual",
      CustomHeaderValue: MANUAL_HEADER_VALUE,
    });
    unmanagedGuid = unmanaged.GUID;
    const before = (await pulumi(["stack", "export", "--show-secrets"])).stdout;

    const { code, stdout, stderr } = await drift("yaml", example, ["--format", "json"]);
    expect(code, stderr).toBe(2);
    const review = reviewOf(stdout);
    expect(review).toMatchObject({ status: "drift", exitCode: 2 });
    expect(review.sources[0]).toMatchObject({ source: { name: "yaml" }, compared: ["state", "program"] });
    expect(review.summary).toMatchObject({
      "differs-from-state": 1,
      deleted: 1,
      unmanaged: 1,
      "differs-from-program": 2,
    });
    expect(review.sources[0]!.subscriptions.map((m) => m.name)).toEqual(["objectCreated", "packetCreated"]);
    expect(findingsOf(review, "differs-from-state").map((f) => [resourceOf(f), f.fields])).toEqual([
      [
        "objectCreated",
        [
          {
            field: "subscriberUrl",
            secret: false,
            recorded: "https://hooks.example.com/yaml/objects",
            live: "https://elsewhere.example.net/objects",
          },
        ],
      ],
    ]);
    expect(findingsOf(review, "deleted").map((f) => [resourceOf(f), f.guid, f.fields])).toEqual([
      ["packetCreated", deleted, []],
    ]);
    expect(
      findingsOf(review, "unmanaged").map((f) => [f.guid, f.subscription?.subscriberUrl, f.adoption?.kind]),
    ).toEqual([[unmanaged.GUID, "https://manual.example.org/hook", "pulumi-import"]]);
    // The program's view of the same: `pulumi up` would set the URL back and create the deleted one.
    expect(findingsOf(review, "differs-from-program").map((f) => [resourceOf(f), f.step, f.fields])).toEqual([
      [
        "objectCreated",
        "update",
        [
          {
            field: "subscriberUrl",
            secret: false,
            live: "https://elsewhere.example.net/objects",
            declared: "https://hooks.example.com/yaml/objects",
          },
        ],
      ],
      ["packetCreated", "create", []],
    ]);
    await expectNoSecrets(stdout + stderr);
    expect((await pulumi(["stack", "export", "--show-secrets"])).stdout).toBe(before);
  });

  it("the unmanaged one adopted with the `pulumi import` command the report prints, run as printed: then managed", async () => {
    const { code, stdout, stderr } = await drift("yaml", example);
    expect(code, stderr).toBe(2);
    // The reviewer reads one sh block (no TypeScript block): the command preceded by the header value's note.
    const blocks = shellBlocks(stdout);
    expect([blocks.length, stdout.includes("```ts")]).toEqual([1, false]);
    const script = blocks[0]!.script;
    // Named for a person: the subscriber URL's host and path, then the event.
    const name = "manual-example-org-hook-business-object-type-updated";
    expect(script).toBe(
      [
        `# ${name} has a custom header value: the code pulumi import writes to ${name}.yaml holds it in plain text.`,
        "# Move it into secret config (pulumi config set --secret manualExampleOrgHookBusinessObjectTypeUpdatedHeaderValue <value>) and read it from there.",
        `pulumi import webhooks:index:WebhookSubscription ${name} ${unmanagedGuid} --stack yaml --out ${name}.yaml`,
      ].join("\n"),
    );

    // As printed, in bash in the program's directory; the confirmation a person gives at the prompt is the environment's here.
    const started = Date.now();
    const imported = await run("bash", ["-c", script], example, { ...env, PULUMI_SKIP_CONFIRMATIONS: "true" });
    console.log(`[drift native] the printed pulumi import: ${Date.now() - started} ms`);
    expect(imported.stdout).toMatch(/= 1 imported/);
    // The header value went into the code file, not into the output a CI log keeps, nor into state as plaintext.
    const generated = readFileSync(join(example, `${name}.yaml`), "utf8");
    expect(generated).toContain(`  ${name}:\n    type: webhooks:WebhookSubscription\n`);
    expect(generated).toContain(`customHeaderValue: ${MANUAL_HEADER_VALUE}`);
    await expectNoSecrets(imported.stdout + imported.stderr);
    await expectNoSecrets((await pulumi(["stack", "export"])).stdout);

    // The code `pulumi import` wrote is not in the program yet (YAML reads Pulumi.yaml alone), and
    // the imported resource is protected: a preview of the program would refuse to delete it.
    // Compared with the state, the adoption is complete.
    const after = await drift("yaml", example, ["--format", "json", "--state-only"]);
    const review = reviewOf(after.stdout);
    expect(review.sources[0]!.compared).toEqual(["state"]);
    expect(review.summary).toMatchObject({
      "differs-from-state": 1,
      deleted: 1,
      unmanaged: 0,
      "differs-from-program": 0,
    });
    expect(review.sources[0]!.subscriptions).toHaveLength(3);
    expect(review.sources[0]!.subscriptions.find((m) => m.guid === unmanagedGuid)).toMatchObject({
      name,
      findings: [],
    });
    await expectNoSecrets(after.stdout + after.stderr);
  });

  it("the reported scenario: an out-of-band URL change, then `pulumi refresh`: only the comparison with the program still sees it, and exits 2", async () => {
    // The imported subscription stays out of the program: unprotected, `pulumi up` would delete it.
    const imported = "manual-example-org-hook-business-object-type-updated";
    await pulumi([
      "state",
      "unprotect",
      `urn:pulumi:yaml::webhooks-yaml::webhooks:index:WebhookSubscription::${imported}`,
      "--yes",
    ]);
    await pulumi(["refresh", "--yes"]);
    // What the review said before it compared with the program: the refresh accepted the edit into the state.
    const stateOnly = await drift("yaml", example, ["--state-only", "--format", "json"]);
    expect(stateOnly.code, stateOnly.stderr).toBe(0);
    const before = reviewOf(stateOnly.stdout);
    expect(before).toMatchObject({ status: "in-sync", findings: [] });
    expect(before.sources[0]).toMatchObject({ compared: ["state"] });
    expect(before.sources[0]!.subscriptions).toHaveLength(2);

    const { code, stdout, stderr } = await drift("yaml", example, ["--format", "json"]);
    expect(code, stderr).toBe(2);
    const review = reviewOf(stdout);
    expect(review.summary).toMatchObject({ "differs-from-state": 0, deleted: 0, "differs-from-program": 3 });
    // Each finding of a resource the program declares points at the line of Pulumi.yaml that declares it.
    const program = readFileSync(join(example, "Pulumi.yaml"), "utf8").split("\n");
    const declaredLine = (name: string) => program.indexOf(`  ${name}:`) + 1;
    expect(
      findingsOf(review, "differs-from-program").map((f) => [resourceOf(f), f.guid, f.step, f.fields, f.location]),
    ).toEqual([
      [imported, unmanagedGuid, "delete", [], { file: expect.stringMatching(/Pulumi\.yaml$/) }],
      [
        "objectCreated",
        expect.stringMatching(/^[0-9a-f-]{36}$/),
        "update",
        [
          {
            field: "subscriberUrl",
            secret: false,
            live: "https://elsewhere.example.net/objects",
            declared: "https://hooks.example.com/yaml/objects",
          },
        ],
        { file: expect.stringMatching(/Pulumi\.yaml$/), line: declaredLine("objectCreated") },
      ],
      [
        "packetCreated",
        null,
        "create",
        [],
        { file: expect.stringMatching(/Pulumi\.yaml$/), line: declaredLine("packetCreated") },
      ],
    ]);
    await expectNoSecrets(stdout + stderr);
  }, 600_000);
});

describe("one TypeScript stack using both front doors", () => {
  let dir: string;
  let stack: Stack;
  let guids: Record<"dynamic" | "native" | "nativeOnProvider", string>;
  let unmanagedGuid: string;
  /** What differs from the program after the edits below, on each front door; a refresh changes none of it. */
  const programView = () => [
    {
      address: expect.stringMatching(/::pulumi-nodejs:dynamic\/webhooks:WebhookSubscription::dynamic$/),
      guid: guids.dynamic,
      step: "update",
      fields: [
        {
          field: "subscriberUrl",
          secret: false,
          live: "https://elsewhere.example.net/dynamic",
          declared: "https://hooks.example.com/dynamic",
        },
      ],
    },
    {
      address: expect.stringMatching(/::webhooks:index:WebhookSubscription::native$/),
      guid: guids.native,
      step: "update",
      // Named, never shown.
      fields: [{ field: "customHeaderValue", secret: true }],
    },
    {
      address: expect.stringMatching(/::webhooks:index:WebhookSubscription::native-on-provider$/),
      guid: null,
      step: "create",
      fields: [],
    },
  ];
  /** The review's findings of `cls` as programView() writes them. */
  const seen = (review: Review, cls: FindingClass) =>
    findingsOf(review, cls).map((f) => ({
      address: f.owner!.address,
      guid: f.guid,
      ...(f.step ? { step: f.step } : {}),
      fields: f.fields,
    }));

  beforeAll(async () => {
    // The YAML stack's subscriptions would be unmanaged here: start from an empty instance.
    await service.reset();
    dir = workDir("drift-both-front-doors");
    cpSync(join(__dirname, "fixtures", "both-front-doors"), dir, { recursive: true });
    // Its own manifest: else the review's language host takes this repository's (above it) and runs its main.
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "both-front-doors", private: true, main: "index.ts" }),
    );
    const plugin = setting.pluginDir;
    appendFileSync(join(dir, "Pulumi.yaml"), `plugins:\n  providers:\n    - name: webhooks\n      path: ${plugin}\n`);
    // Run as `webhook-subscriptions up --cwd` runs a program directory: in-process, on the real engine.
    stack = await openStack({
      engine: requireEngine(),
      backendDir: join(setting.root, "state"),
      stackName: "both",
      workDir: dir,
      env: { PULUMI_HOME: env.PULUMI_HOME!, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
      config: {
        "webhooks:baseUrl": { value: service.url },
        "webhooks:token": { value: TOKEN, secret: true },
        "both-front-doors:headerValue": { value: HEADER_V1, secret: true },
      },
    });
    const up = await stack.up();
    guids = up.outputs.guids!.value as typeof guids;
  });

  it("no drift: exit 0, the dynamic and the native subscriptions in sync", async () => {
    const { code, stdout, stderr } = await drift("both", dir, ["--format", "json"]);
    expect(code, stderr).toBe(0);
    const review = reviewOf(stdout);
    expect(review).toMatchObject({ status: "in-sync", exitCode: 0, findings: [] });
    expect(review.sources[0]!.subscriptions.map((m) => [m.name, m.findings])).toEqual([
      ["dynamic", []],
      ["native", []],
      ["native-on-provider", []],
    ]);
    await expectNoSecrets(stdout + stderr);
  });

  it("drift on each kind: exit 2, the right names, the changed secret masked", async () => {
    await editOutOfBand("https://hooks.example.com/dynamic", {
      SubscriberURL: "https://elsewhere.example.net/dynamic",
    });
    await editOutOfBand("https://hooks.example.com/native", { CustomHeaderValue: HEADER_V2 });
    await deleteOutOfBand("https://hooks.example.com/types");
    const unmanaged = await service.subscribe({
      Webhook: 3, // BusinessObjectCreated: type-scoped
      FilterObjectType: 9,
      SubscriberURL: "https://manual.example.org/p",
    });
    unmanagedGuid = unmanaged.GUID;
    const before = JSON.stringify((await stack.exportStack()).deployment);

    const { code, stdout, stderr } = await drift("both", dir, ["--format", "json"]);
    expect(code, stderr).toBe(2);
    const review = reviewOf(stdout);
    expect(review.summary).toMatchObject({
      "differs-from-state": 2,
      deleted: 1,
      unmanaged: 1,
      "differs-from-program": 3,
    });
    expect(review.sources[0]!.subscriptions.map((m) => m.name)).toEqual(["dynamic", "native", "native-on-provider"]);
    expect(seen(review, "deleted")).toEqual([
      {
        address: expect.stringMatching(/::webhooks:index:WebhookSubscription::native-on-provider$/),
        guid: guids.nativeOnProvider,
        fields: [],
      },
    ]);
    expect(seen(review, "differs-from-state")).toEqual([
      {
        address: expect.stringMatching(/::pulumi-nodejs:dynamic\/webhooks:WebhookSubscription::dynamic$/),
        guid: guids.dynamic,
        fields: [
          {
            field: "subscriberUrl",
            secret: false,
            recorded: "https://hooks.example.com/dynamic",
            live: "https://elsewhere.example.net/dynamic",
          },
        ],
      },
      {
        address: expect.stringMatching(/::webhooks:index:WebhookSubscription::native$/),
        guid: guids.native,
        // Named, never shown.
        fields: [{ field: "customHeaderValue", secret: true }],
      },
    ]);
    // A TypeScript program with dynamic subscriptions on the default provider: the TypeScript snippet.
    expect(findingsOf(review, "unmanaged").map((f) => [f.guid, f.adoption?.kind])).toEqual([
      [unmanaged.GUID, "typescript"],
    ]);
    expect(seen(review, "differs-from-program")).toEqual(programView());
    await expectNoSecrets(stdout + stderr);
    expect(JSON.stringify((await stack.exportStack()).deployment)).toBe(before);
  });

  it("the reported scenario on both front doors: after `pulumi refresh`, only the comparison with the program sees the edits, and exits 2", async () => {
    await run("pulumi", ["refresh", "--yes", "--stack", "both"], dir, env);
    expect((await service.config("Unsubscribe", { query: { webHookSubscriptionGUID: unmanagedGuid } })).status).toBe(
      200,
    );
    const json = await drift("both", dir, ["--format", "json"]);
    expect(json.code, json.stderr).toBe(2);
    const review = reviewOf(json.stdout);
    expect(review).toMatchObject({ status: "drift", exitCode: 2 });
    expect(review.sources[0]!.compared).toEqual(["state", "program"]);
    expect(review.summary).toMatchObject({
      "differs-from-state": 0,
      deleted: 0,
      unmanaged: 0,
      "differs-from-program": 3,
    });
    expect(review.sources[0]!.subscriptions.map((m) => m.name)).toEqual(["dynamic", "native"]);
    expect(seen(review, "differs-from-program")).toEqual(programView());

    const { code, stdout, stderr } = await drift("both", dir);
    expect(code, stderr).toBe(2);
    // Each difference from the program, by resource, with what `pulumi up` would do; a secret masked.
    expect(stdout.split("\n")[2]).toMatch(
      /^\*\*Drift\*\* across 1 source: 3 differ from the program; 0 of 2 managed subscriptions in sync on /,
    );
    expect(stdout).toMatch(
      /\| differs from the program: `pulumi up` would update \| `dynamic` \| `[^`]+` \| `subscriberUrl` \| `https:\/\/hooks\.example\.com\/dynamic` \| {2}\| `https:\/\/elsewhere\.example\.net\/dynamic` \|/,
    );
    expect(stdout).toMatch(
      /\| differs from the program: `pulumi up` would update \| `native` \| `[^`]+` \| `customHeaderValue` \| \(secret\) \| {2}\| \*\*secret differs\*\* \|/,
    );
    expect(stdout).toContain(
      "| differs from the program: `pulumi up` would create | `native-on-provider` |  |  | declared |  | **not live** |",
    );
    await expectNoSecrets(stdout + stderr + json.stdout + json.stderr);
  }, 600_000);
});

describe("a stack deployed by an Automation API inline program", () => {
  let dir: string;
  /** The inline program: a function in the deploying code, nothing on disk. */
  const program = async () => {
    const sub = new WebhookSubscription("inline", {
      webhook: Webhook.BusinessObjectCreated,
      filterObjectType: 5,
      subscriberUrl: "https://hooks.example.com/inline",
    });
    return { guid: sub.guid };
  };

  beforeAll(async () => {
    await service.reset();
    // As the Automation API deploys one: a project written from settings, the program served in-process.
    dir = workDir("drift-inline");
    const stack = await openStack({
      engine: requireEngine(),
      backendDir: join(setting.root, "state"),
      stackName: "inline",
      workDir: dir,
      projectName: "drift-inline",
      env: { PULUMI_HOME: env.PULUMI_HOME!, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE },
      config: {
        "webhooks:baseUrl": { value: service.url },
        "webhooks:token": { value: TOKEN, secret: true },
      },
      program,
    });
    expect((await stack.up()).summary.result).toBe("succeeded");
  });

  it("the review says it was deployed by an inline program, and points to --state-only and to reviewDrift in code: exit 1", async () => {
    const { code, stdout, stderr } = await drift("inline", dir);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(
      'drift: error: Stack "inline" was deployed by an Automation API inline program (its last update ran one), so it has no program on disk',
    );
    expect(stderr).toContain("Pass --state-only to compare the live subscriptions with the state alone");
    expect(stderr).toContain(
      '`reviewDrift({ stacks: [{ name, workDir, program }] })` from "pulumi-webhook-subscriptions/drift"',
    );
    expect(stdout + stderr).not.toContain("expected index.ts or index.js");
  });

  it("--state-only reviews it; reviewDrift in code, given the program, compares with the program too", async () => {
    const stateOnly = await drift("inline", dir, ["--state-only"]);
    expect(stateOnly.code, stateOnly.stderr).toBe(0);
    // The engine is the one on the environment's PATH, as for the command.
    const review = await reviewDrift({ stacks: [{ name: "inline", workDir: dir, program }], env });
    expect(review).toMatchObject({ status: "in-sync", findings: [] });
    expect(review.sources[0]).toMatchObject({ status: "reviewed", compared: ["state", "program"] });
    expect(review.sources[0]!.subscriptions.map((m) => [m.name, m.findings])).toEqual([["inline", []]]);
  });
});
