/**
 * The native provider plugin from YAML, as docs/native-provider.md says to use it: `npm run
 * build:plugin` in a checkout, then plain `pulumi` in examples/yaml (the plugin by path), through
 * the real YAML and Node.js language hosts, on an emulator. The lifecycle (create, no changes,
 * update, replace, drift seen and reverted, a delete seen, destroy), secrets at rest, `pulumi
 * import` of a subscription made out of band, and the plugin installed with `pulumi plugin
 * install` instead of by path (README's block, run as written). Every command must exit as asserted.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resourcesSummary, run, UNEXPECTED_CHANGES_EXIT, type Result } from "../support/commands";
import type { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT } from "../support/engine";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";
import { shellBlocks } from "../support/shellBlocks";

const TOKEN = "dev-builder";
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** The example's custom header value, and the one of a subscription made out of band. */
const HEADER_VALUE = "change-me";
const IMPORTED_HEADER_VALUE = "imported-header-value";

let root: string;
/** A copy of this checkout (support/repoCopy.ts), where `npm run build:plugin` ran. */
let checkout: string;
let service: EmulatorHarness;
let env: NodeJS.ProcessEnv;
let setting: PluginCheckout;

/** `pulumi <args> --stack dev` in `dir`; logs the transcript's summary line. */
async function pulumi(dir: string, args: string[], expected = 0, extraEnv: NodeJS.ProcessEnv = {}): Promise<Result> {
  const result = await run("pulumi", [...args, "--stack", "dev"], dir, { ...env, ...extraEnv }, expected);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[native yaml] pulumi ${args.join(" ")} (${dir.split("/").pop()}): ${summary}`);
  return result;
}

/** A stack `dev` in `dir` on the emulator, configured as the docs say. */
async function initStack(dir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<void> {
  await pulumi(dir, ["stack", "init"], 0, extraEnv);
  await pulumi(dir, ["config", "set", "webhooks:baseUrl", service.url], 0, extraEnv);
  await pulumi(dir, ["config", "set", "--secret", "webhooks:token", TOKEN], 0, extraEnv);
}

/** Replaces `from` (which must be there) by `to` in a file: an edit of the program. */
function edit(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`${file} has no ${String(from)}`);
  writeFileSync(file, edited);
}

beforeAll(async () => {
  setting = await startPluginCheckout("native yaml", "yaml-passphrase");
  ({ root, checkout, service, env } = setting);
}, 900_000);

afterAll(() => setting?.close());

describe("examples/yaml with the plugin by path", () => {
  let example: string;
  let program: string;

  beforeAll(async () => {
    example = join(checkout, "examples", "yaml");
    program = join(example, "Pulumi.yaml");
    await initStack(example);
  });

  it("`pulumi up` creates both subscriptions, the events named (`webhook: PacketCreated`); `pulumi preview --expect-no-changes` agrees", async () => {
    expect(readFileSync(program, "utf8")).toContain("webhook: PacketCreated");
    const up = await pulumi(example, ["up", "--yes"]);
    expect(up.stdout).toMatch(/\+ 3 created/);
    const preview = await pulumi(example, ["preview", "--expect-no-changes"]);
    expect(preview.stdout).toMatch(/3 unchanged/);
    // A valid program gets no warning from the YAML host (an integer enum made it print
    // "internal error … schema enum value was type []*schema.Enum but a float64 was expected").
    for (const { stdout, stderr } of [up, preview])
      expect(`${stdout}\n${stderr}`).not.toMatch(/internal error|schema enum value/i);

    const outputs = JSON.parse((await pulumi(example, ["stack", "output", "--show-secrets", "--json"])).stdout) as {
      packetCreatedGuid: string;
      packetCreatedSignature: string;
      objectCreatedGuid: string;
      objectCreatedEvent: string;
      objectCreatedSignature: string;
    };
    const packets = await service.subscriptionAt("https://hooks.example.com/yaml/packets");
    expect(packets).toMatchObject({
      GUID: outputs.packetCreatedGuid,
      Signature: outputs.packetCreatedSignature,
      CustomHeader: "X-Api-Key",
      CustomHeaderValue: HEADER_VALUE,
    });
    expect((await service.subscriptionAt("https://hooks.example.com/yaml/objects")).GUID).toBe(
      outputs.objectCreatedGuid,
    );
    expect(outputs.objectCreatedEvent).toBe("BusinessObjectCreated");
    expect(outputs.objectCreatedSignature).toBe(
      (await service.subscriptionAt("https://hooks.example.com/yaml/objects")).Signature,
    );
  });

  it("the lookup's fields are plain values; its Signature, asked for with includeSecrets, is secret", async () => {
    const shown = JSON.parse((await pulumi(example, ["stack", "output", "--json"])).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({
      objectCreatedEvent: "BusinessObjectCreated",
      objectCreatedUrl: "https://hooks.example.com/yaml/objects",
      objectCreatedSignature: "[secret]",
      packetCreatedSignature: "[secret]",
    });
  });

  it("secrets at rest: `pulumi stack export` holds the Signatures, the header value and the token as ciphertext only", async () => {
    const exported = (await pulumi(example, ["stack", "export"])).stdout;
    const deployment = JSON.parse(exported) as {
      deployment: { resources: { type: string; outputs?: Record<string, unknown> }[] };
    };
    const subscriptions = deployment.deployment.resources.filter(
      (r) => r.type === "webhooks:index:WebhookSubscription",
    );
    expect(subscriptions).toHaveLength(2);
    const ciphertext = { ciphertext: expect.any(String) };
    for (const { outputs } of subscriptions) expect(outputs?.signature).toMatchObject(ciphertext);
    const packet = subscriptions.find((r) => r.outputs?.customHeader === "X-Api-Key");
    expect(packet?.outputs?.customHeaderValue).toMatchObject(ciphertext);

    const plaintexts = [HEADER_VALUE, TOKEN, ...(await service.all()).map((s) => String(s.Signature))];
    for (const plaintext of plaintexts) {
      expect(exported).not.toContain(plaintext);
      expect(readFileSync(join(example, "Pulumi.dev.yaml"), "utf8")).not.toContain(plaintext);
    }
  });

  it("a new subscriberUrl updates in place: same GUID and Signature", async () => {
    const before = await service.subscriptionAt("https://hooks.example.com/yaml/packets");
    edit(program, "https://hooks.example.com/yaml/packets", "https://hooks.example.com/yaml/packets-v2");
    const up = await pulumi(example, ["up", "--yes"]);
    expect(up.stdout).toMatch(/~ 1 updated/);
    const after = await service.subscriptionAt("https://hooks.example.com/yaml/packets-v2");
    expect(after.GUID).toBe(before.GUID);
    expect(after.Signature).toBe(before.Signature);
  });

  it("a new event replaces the subscription: the new one is created first, then the old one deleted", async () => {
    const before = await service.subscriptionAt("https://hooks.example.com/yaml/packets-v2");
    edit(program, "webhook: PacketCreated", "webhook: PacketUpdated");
    const up = await pulumi(example, ["up", "--yes"]);
    expect(up.stdout).toMatch(/\+-1 replaced/);
    const created = up.stdout.indexOf("created replacement");
    expect(created).toBeGreaterThan(-1);
    expect(up.stdout.indexOf("deleting original")).toBeGreaterThan(created);
    const after = await service.subscriptionAt("https://hooks.example.com/yaml/packets-v2");
    expect(after.GUID).not.toBe(before.GUID);
    expect(after.Webhook).toBe(1);
    expect((await service.all()).map((s) => s.GUID)).not.toContain(before.GUID);
  });

  it("an out-of-band edit: `pulumi refresh` records it, `pulumi up` puts it back", async () => {
    const live = await service.subscriptionAt("https://hooks.example.com/yaml/objects");
    const body = { GUID: live.GUID, Webhook: 3, FilterObjectType: 2, SubscriberURL: "https://elsewhere.example.com/x" };
    expect((await service.config("UpdateWebhookSubscription", { body })).status).toBe(200);

    expect((await pulumi(example, ["refresh", "--yes"])).stdout).toMatch(/~ 1 updated/);
    const changes = await pulumi(example, ["preview", "--expect-no-changes"], UNEXPECTED_CHANGES_EXIT);
    expect(changes.stdout).toMatch(/~ 1 to update/);
    expect((await pulumi(example, ["up", "--yes"])).stdout).toMatch(/~ 1 updated/);
    expect((await service.subscriptionAt("https://hooks.example.com/yaml/objects")).GUID).toBe(live.GUID);
  });

  it("an out-of-band delete: `pulumi refresh` drops it, `pulumi up` creates it again, `pulumi destroy` empties the instance", async () => {
    const live = await service.subscriptionAt("https://hooks.example.com/yaml/objects");
    const gone = await service.config("Unsubscribe", { query: { webHookSubscriptionGUID: live.GUID } });
    expect(gone.status).toBe(200);

    expect((await pulumi(example, ["refresh", "--yes"])).stdout).toMatch(/- 1 deleted/);
    expect((await pulumi(example, ["up", "--yes"])).stdout).toMatch(/\+ 1 created/);
    expect((await service.subscriptionAt("https://hooks.example.com/yaml/objects")).GUID).not.toBe(live.GUID);
    expect((await pulumi(example, ["destroy", "--yes"])).stdout).toMatch(/- 3 deleted/);
    expect(await service.all()).toEqual([]);
  });
});

describe("`pulumi import` of a subscription made out of band", () => {
  let project: string;
  let program: string;
  let made: Record<string, unknown> & { GUID: string; Signature: string };

  beforeAll(async () => {
    project = join(root, "import");
    program = join(project, "Pulumi.yaml");
    mkdirSync(project);
    const plugin = setting.pluginDir;
    writeFileSync(
      program,
      `name: webhooks-import\nruntime: yaml\nplugins:\n  providers:\n    - name: webhooks\n      path: ${plugin}\n`,
    );
    await initStack(project);
    made = await service.subscribe({
      Webhook: 5,
      FilterObjectType: 4,
      SubscriberURL: "https://hooks.example.com/imported",
      CustomHeader: "X-Token",
      CustomHeaderValue: IMPORTED_HEADER_VALUE,
    });
  });

  it("imports it with its Signature; the YAML it generates previews with no changes", async () => {
    const imported = await pulumi(project, [
      "import",
      "webhooks:index:WebhookSubscription",
      "adopted",
      made.GUID,
      "--yes",
      "--out",
      "imported.yaml",
    ]);
    expect(imported.stdout).toMatch(/= 1 imported/);
    const generated = readFileSync(join(project, "imported.yaml"), "utf8");
    console.log(`[native yaml] pulumi import generated:\n${generated}`);
    // The value is in the code as a literal; YAML leaves out fn::secret because the schema marks the input secret.
    expect(generated).toContain(`customHeaderValue: ${IMPORTED_HEADER_VALUE}`);
    // The event by name, as the schema's string enum has it.
    expect(generated).toContain("webhook: BusinessObjectTypeUpdated");

    writeFileSync(
      program,
      `${readFileSync(program, "utf8")}${generated}outputs:\n  signature: \${adopted.signature}\n`,
    );
    const preview = await pulumi(project, ["preview", "--expect-no-changes"]);
    expect(preview.stdout).toMatch(/2 unchanged/);
    await pulumi(project, ["up", "--yes"]);
    const outputs = JSON.parse((await pulumi(project, ["stack", "output", "--show-secrets", "--json"])).stdout) as {
      signature: string;
    };
    expect(outputs.signature).toBe(made.Signature);

    const exported = (await pulumi(project, ["stack", "export"])).stdout;
    expect(exported).not.toContain(IMPORTED_HEADER_VALUE);
    expect(exported).not.toContain(made.Signature);
  });

  it("the literal moved into secret stack config: still no changes", async () => {
    edit(program, `customHeaderValue: ${IMPORTED_HEADER_VALUE}`, "customHeaderValue: ${headerValue}");
    writeFileSync(
      program,
      `${readFileSync(program, "utf8")}config:\n  headerValue:\n    type: string\n    secret: true\n`,
    );
    await pulumi(project, ["config", "set", "--secret", "headerValue", IMPORTED_HEADER_VALUE]);
    expect(readFileSync(program, "utf8")).not.toContain(IMPORTED_HEADER_VALUE);
    const preview = await pulumi(project, ["preview", "--expect-no-changes"]);
    expect(preview.stdout).toMatch(/2 unchanged/);
  });
});

describe("the plugin installed with `pulumi plugin install` instead of by path", () => {
  let project: string;
  /** A Pulumi home with only the installed plugin, and a backend of its own (the example's project and stack names again). */
  let own: NodeJS.ProcessEnv;

  beforeAll(() => {
    const state = join(root, "installed-state");
    mkdirSync(state);
    own = { PULUMI_HOME: join(root, "installed-home"), PULUMI_BACKEND_URL: pathToFileURL(state).href };
    project = join(root, "installed");
    mkdirSync(project);
    cpSync(join(checkout, "examples", "yaml", "Pulumi.yaml"), join(project, "Pulumi.yaml"));
    // As the example's comment says: with the plugin installed, drop `plugins:`.
    edit(join(project, "Pulumi.yaml"), /^plugins:\n(?: {2}.*\n)+/m, "");
  });

  it("README's plugin install, run as written in the checkout, installs offline; the example without `plugins:` previews", async () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const blocks = shellBlocks(readme).filter((b) => b.heading === "Choosing a front door");
    if (blocks.length !== 1)
      throw new Error(`README.md "Choosing a front door": expected 1 sh block, found ${blocks.length}`);
    const script = blocks[0]!.script;
    expect(script).toContain(`pulumi-resource-webhooks-v${VERSION}.tgz`);
    const started = Date.now();
    await run("bash", ["-euo", "pipefail", "-c", script], checkout, { ...env, ...own });
    console.log(`[native yaml] README's plugin block: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const listed = await run("pulumi", ["plugin", "ls", "--json"], project, { ...env, ...own });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name: "webhooks", kind: "resource", version: VERSION }),
    ]);

    await initStack(project, own);
    const preview = await pulumi(project, ["preview"], 0, own);
    expect(preview.stdout).toMatch(/\+ 3 to create/);
  });
});

describe('an empty `properties:` (docs/native-provider.md, "An empty `properties:`")', () => {
  let project: string;

  beforeAll(async () => {
    project = join(root, "empty-properties");
    mkdirSync(project);
    declare("properties: {}");
    await initStack(project);
  });

  /** The project with one subscription whose `properties` line is `properties` as given. */
  function declare(properties: string): void {
    writeFileSync(
      join(project, "Pulumi.yaml"),
      `name: webhooks-empty\nruntime: yaml\nplugins:\n  providers:\n    - name: webhooks\n      path: ${setting.pluginDir}\n` +
        `resources:\n  sub:\n    type: webhooks:index:WebhookSubscription\n    ${properties}\n`,
    );
  }

  it("with nothing under it, the YAML host fails before the plugin sees the resource, and `pulumi preview` exits 0", async () => {
    declare("properties:");
    const preview = await pulumi(project, ["preview"], 0);
    expect(preview.stdout).toContain("Error registering resource [sub]: no diagnostics");
  });

  it("`properties: {}` makes the host name every missing required field", async () => {
    declare("properties: {}");
    const preview = await pulumi(project, ["preview"], 1);
    for (const field of ["webhook", "filterObjectType", "subscriberUrl"])
      expect(preview.stdout).toContain(`${field}: Missing required property '${field}'`);
  });
});
