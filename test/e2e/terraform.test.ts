/**
 * The conformance scenarios through the real Terraform CLI (and OpenTofu's), with the plugin the
 * run builds once, against the emulator: the same behaviour as the Pulumi front doors, in a
 * Terraform user's commands. One apply per scenario; the CLIs need no `init` with dev_overrides.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tofuVersion } from "../../engine/tofu";
import { useEmulator } from "../support/emulatorHarness";
import { sharedPluginBuild } from "../support/pluginBuild";
import { requireTofu, type TerraformCli } from "../support/terraformClis";
import { devOverrides, TerraformProject } from "./terraform/cli";

const ORDERS = "6f1c2a3b-0000-4000-8000-000000000001";
/**
 * tofu always (provisioned by the global setup: its absence fails the scenarios, never skips them),
 * terraform when one is on PATH. Named here; the CLIs themselves are found before each set runs.
 */
const terraformDir = (process.env.PATH ?? "").split(delimiter).find((dir) => dir && existsSync(join(dir, "terraform")));
const onPath = terraformDir !== undefined;
const CLI_NAMES = ["tofu", ...(onPath ? ["terraform"] : [])];

/** Whether `version` imports by identity (`import { identity = { … } }`): Terraform and OpenTofu 1.12 on. */
function importsByIdentity(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 1 || (major === 1 && minor >= 12);
}

/** A subscription in HCL: PacketCreated on ORDERS, to `url`, plus any `extra` lines. */
function subscription(name: string, url: string, extra = ""): string {
  return [
    `resource "webhooks_subscription" "${name}" {`,
    `  webhook            = "PacketCreated"`,
    `  filter_object_type = 2`,
    `  filter_object_guid = "${ORDERS}"`,
    `  subscriber_url     = "${url}"`,
    extra,
    `}`,
  ].join("\n");
}

describe.each(CLI_NAMES)("%s", (name) => {
  const emulator = useEmulator();
  let cli: TerraformCli;
  let cliConfig: string;
  let root: string;

  beforeAll(async () => {
    // tofu's set fails without tofu; terraform's runs whether or not tofu could be had.
    if (name === "tofu") {
      const tofu = requireTofu();
      cli = { name, path: tofu.path, version: tofu.version };
    } else {
      const path = join(terraformDir!, "terraform");
      cli = { name: "terraform", path, version: (await tofuVersion(path)) ?? "" };
    }
    const { pluginDir } = await sharedPluginBuild();
    root = mkdtempSync(join(tmpdir(), `tf-${name}-`));
    cliConfig = devOverrides(root, pluginDir);
  }, 900_000);

  /** A fresh project whose provider reaches the emulator through the WEBHOOKS_* variables. */
  function project(folder: string, env: NodeJS.ProcessEnv = {}): TerraformProject {
    return new TerraformProject(cli, join(root, folder), cliConfig, {
      WEBHOOKS_BASE_URL: emulator.url,
      WEBHOOKS_TOKEN: "dev-builder",
      ...env,
    });
  }

  /** A subscription made outside Terraform, as `subscription("orders", …/orders)` declares it. */
  const existingOrders = () =>
    emulator.subscribe({
      Webhook: 0,
      FilterObjectType: 2,
      FilterObjectGUID: ORDERS,
      SubscriberURL: "https://hooks.example.com/orders",
    });

  /** Applies `p`'s import block into webhooks_subscription.orders; then a plan has no change and the state holds `guid`. */
  async function importsWithNoChangeLeft(p: TerraformProject, guid: string): Promise<void> {
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout).toContain("1 imported, 0 added, 0 changed, 0 destroyed");
    await p.run(["plan", "-detailed-exitcode"], 0);
    const state = await p.state();
    const imported = state.values?.root_module?.resources?.find((r) => r.address === "webhooks_subscription.orders");
    expect(imported?.values).toMatchObject({ guid, id: guid });
  }

  it("creates, then plans no change, then destroys", async () => {
    const p = project("lifecycle");
    p.write(subscription("orders", "https://hooks.example.com/orders", `  custom_header = "X-Api-Key"`));
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    const [live] = await emulator.all();
    expect(live).toMatchObject({ SubscriberURL: "https://hooks.example.com/orders", FilterObjectGUID: ORDERS });
    await p.run(["plan", "-detailed-exitcode"], 0);
    await p.run(["destroy", "-auto-approve"]);
    expect(await emulator.all()).toEqual([]);
  });

  it("updates in place, keeping the GUID", async () => {
    const p = project("update");
    p.write(subscription("orders", "https://hooks.example.com/orders"));
    await p.run(["apply", "-auto-approve"]);
    const [before] = await emulator.all();
    p.write(subscription("orders", "https://hooks.example.com/v2/orders"));
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout).toContain("will be updated in-place");
    expect(apply.stdout).toContain("0 added, 1 changed, 0 destroyed");
    expect(await emulator.all()).toEqual([
      expect.objectContaining({ GUID: before!.GUID, SubscriberURL: "https://hooks.example.com/v2/orders" }),
    ]);
  });

  it("replaces on a legacy-only API whatever changes", async () => {
    const p = project("legacy", { WEBHOOKS_API_VERSION: "2024.1" });
    p.write(subscription("orders", "https://hooks.example.com/orders"));
    await p.run(["apply", "-auto-approve"]);
    const [before] = await emulator.all();
    p.write(subscription("orders", "https://hooks.example.com/v2/orders"));
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout).toMatch(
      /subscriber_url += "https:\/\/hooks.example.com\/orders" -> "https:\/\/hooks.example.com\/v2\/orders" # forces replacement/,
    );
    const after = await emulator.all();
    expect(after).toHaveLength(1);
    expect(after[0]!.GUID).not.toBe(before!.GUID);
  });

  it("shows an out-of-band edit in plan -refresh-only, and creates again what was deleted out of band", async () => {
    const p = project("drift");
    p.write(subscription("orders", "https://hooks.example.com/orders"));
    await p.run(["apply", "-auto-approve"]);
    const [live] = await emulator.all();
    const edit = await emulator.config("UpdateWebhookSubscription", {
      body: {
        GUID: live!.GUID,
        Webhook: 0,
        FilterObjectType: 2,
        FilterObjectGUID: ORDERS,
        SubscriberURL: "https://attacker.example.net/orders",
      },
    });
    expect(edit.status).toBe(200);
    const refresh = await p.run(["plan", "-refresh-only", "-detailed-exitcode"], 2);
    expect(refresh.stdout).toMatch(
      /~ subscriber_url\s+= "https:\/\/hooks.example.com\/orders" -> "https:\/\/attacker.example.net\/orders"/,
    );

    expect((await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: live!.GUID } })).status).toBe(200);
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    expect(await emulator.all()).toEqual([
      expect.objectContaining({ SubscriberURL: "https://hooks.example.com/orders" }),
    ]);
  });

  it("imports a subscription by its GUID, then plans no change; the data sources read it", async () => {
    const existing = await existingOrders();
    const p = project("import");
    p.write(
      [
        `import {\n  to = webhooks_subscription.orders\n  id = "${existing.GUID}"\n}`,
        subscription("orders", "https://hooks.example.com/orders"),
        `data "webhooks_subscription" "existing" {\n  guid = "${existing.GUID}"\n}`,
        `data "webhooks_subscriptions" "all" {}`,
        `output "url" {\n  value = data.webhooks_subscription.existing.subscriber_url\n}`,
        `output "listed" {\n  value = [for s in data.webhooks_subscriptions.all.subscriptions : s.guid]\n}`,
      ].join("\n\n"),
    );
    await importsWithNoChangeLeft(p, existing.GUID);
    const outputs = JSON.parse((await p.run(["output", "-json"])).stdout) as Record<string, { value: unknown }>;
    expect(outputs.url?.value).toBe("https://hooks.example.com/orders");
    expect(outputs.listed?.value).toEqual([existing.GUID]);
    expect(await emulator.all()).toHaveLength(1);
  });

  it(
    "imports a subscription by its identity (an import block with identity = { guid }), then plans no change; " +
      "skipped for a terraform older than 1.12, which predates import by identity",
    async (context) => {
      if (!importsByIdentity(cli.version)) {
        // The provisioned tofu (1.12.6) must run it: only an older terraform on PATH may skip.
        expect(cli.name, `tofu ${cli.version} cannot import by identity`).toBe("terraform");
        context.skip(`terraform ${cli.version || "(version unknown)"} predates import by identity (1.12)`);
      }
      const existing = await existingOrders();
      const p = project("import-identity");
      p.write(
        [
          `import {\n  to = webhooks_subscription.orders\n  identity = {\n    guid = "${existing.GUID}"\n  }\n}`,
          subscription("orders", "https://hooks.example.com/orders"),
        ].join("\n\n"),
      );
      await importsWithNoChangeLeft(p, existing.GUID);
      expect(await emulator.all()).toHaveLength(1);
    },
  );

  it("rides out a storm of 429s and an ambiguous Subscribe with no duplicate and no orphan", async () => {
    expect(
      (
        await emulator.admin("PUT", "/faults", {
          seed: 7,
          rules: [
            { operation: "SubscribeToWebhook", kind: "reset-after-commit", count: 2 },
            { operation: "*", kind: "status", status: 429, probability: 0.5 },
          ],
        })
      ).status,
    ).toBe(200);
    const p = project("storm");
    p.write(["a", "b", "c"].map((name) => subscription(name, `https://hooks.example.com/${name}`)).join("\n\n"));
    await p.run(["apply", "-auto-approve"]);
    const stats = (await emulator.admin("GET", "/stats")).json as { faults: Record<string, number> };
    expect(stats.faults["reset-after-commit"]).toBeGreaterThanOrEqual(1);
    expect(stats.faults["429"] ?? stats.faults.status).toBeGreaterThanOrEqual(1);
    await emulator.admin("DELETE", "/faults");
    const live = await emulator.all();
    const inState = (await p.state()).values?.root_module?.resources?.map((r) => r.values.guid);
    expect(live.map((s) => s.SubscriberURL).sort()).toEqual(
      ["a", "b", "c"].map((n) => `https://hooks.example.com/${n}`),
    );
    expect(new Set(inState)).toEqual(new Set(live.map((s) => s.GUID)));
  });

  it("names a refused token once, with the variable it came from, and never shows it", async () => {
    const p = project("token", { WEBHOOKS_TOKEN: "not-a-valid-token-8c1d" });
    p.write(subscription("orders", "https://hooks.example.com/orders"));
    const apply = await p.run(["apply", "-auto-approve"], 1);
    const output = apply.stdout + apply.stderr;
    expect(output.match(/WEBHOOKS_TOKEN/g)).toHaveLength(1);
    expect(output).not.toContain("not-a-valid-token-8c1d");
    expect(await emulator.all()).toEqual([]);
  });

  it("refuses bad input at plan, per field, with nothing created", async () => {
    const p = project("bad-input");
    p.write(
      subscription("orders", "ftp://hooks.example.com/orders", `  custom_header = "X Api Key"`).replace(
        ORDERS,
        ORDERS.toUpperCase(),
      ),
    );
    const plan = await p.run(["plan"], 1);
    // As a person reads it: Terraform wraps long lines.
    const said = plan.stderr.replace(/\s+/g, " ");
    expect(said).toContain("Error: Invalid subscriber_url with webhooks_subscription.orders, on main.tf line");
    expect(said).toContain('subscriber_url must be an absolute http(s) URL, got: "ftp://hooks.example.com/orders"');
    expect(said).toContain(
      'custom_header "X Api Key" is saved by the service as "X-Api-Key" (spaces become hyphens): write it as "X-Api-Key".',
    );
    expect(said).toContain(`Error: Invalid filter_object_guid`);
    expect(said).toContain(`write it as "${ORDERS}"`);
    expect(await emulator.all()).toEqual([]);
  });

  it("keeps a write-only header value out of state and plan output", async () => {
    const secret = "wo-value-5f2a9c";
    const p = project("write-only");
    p.write(
      subscription(
        "orders",
        "https://hooks.example.com/orders",
        `  custom_header = "X-Api-Key"\n  custom_header_value_wo = "${secret}"\n  custom_header_value_wo_version = 1`,
      ),
    );
    const apply = await p.run(["apply", "-auto-approve"]);
    expect(apply.stdout + apply.stderr).not.toContain(secret);
    expect(readFileSync(join(p.dir, "terraform.tfstate"), "utf8")).not.toContain(secret);
    expect(await emulator.all()).toEqual([
      expect.objectContaining({ CustomHeader: "X-Api-Key", CustomHeaderValue: secret }),
    ]);
    await p.run(["plan", "-detailed-exitcode"], 0);
  });
});
