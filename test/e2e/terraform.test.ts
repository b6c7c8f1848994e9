/**
 * The conformance scenarios through the real Terraform CLI (and OpenTofu's), against the emulator:
 * the same behaviour as the Pulumi front doors, in a Terraform user's commands, with the provider
 * installed from the run's one release (support/sharedRelease.ts) as a Terraform user installs it:
 * the zip checked against SHA256SUMS, a packed filesystem mirror, `init` with a shared plugin cache
 * (terraform/cli.ts). The registry protocol and its signature checks are install.test.ts's.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tofuVersion } from "../../engine/tofu";
import { readTerraformDirectory } from "../../drift/sources/terraform/directory";
import { useEmulator } from "../support/emulatorHarness";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { cliEnv, requireTofu, type TerraformCli } from "../support/terraformClis";
import { installFromRelease, TerraformProject, type ReleaseInstall } from "./terraform/cli";

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
  let install: ReleaseInstall;
  let root: string;
  /** The lock file of the first `init`, which every project then starts from, as a team commits it. */
  let lockFile: string;
  /** Every project's folder, to check at the end that each links the one cached executable. */
  const projects: string[] = [];

  beforeAll(async () => {
    // tofu's set fails without tofu; terraform's runs whether or not tofu could be had.
    if (name === "tofu") {
      const tofu = requireTofu();
      cli = { name, path: tofu.path, version: tofu.version };
    } else {
      const path = join(terraformDir!, "terraform");
      cli = { name: "terraform", path, version: (await tofuVersion(path)) ?? "" };
    }
    const release = await sharedRelease();
    root = mkdtempSync(join(tmpdir(), `tf-${name}-`));
    install = installFromRelease(root, release.dir, RELEASE_VERSION);
    // The first init unpacks the zip into the cache and writes the lock file the others start from.
    const first = new TerraformProject(cli, join(root, "first"), install, {});
    const init = await first.init();
    expect(init.stdout).toContain(`Installed webhook-subscriptions/webhooks v${RELEASE_VERSION} (unauthenticated)`);
    lockFile = join(first.dir, ".terraform.lock.hcl");
    projects.push(first.dir);
  }, 1_800_000);
  // The projects, each with its .terraform and the provider cache: about 200 MB a run.
  afterAll(() => root && rmSync(root, { recursive: true, force: true }));

  /** A fresh project, initialised, whose provider reaches the emulator through the WEBHOOKS_* variables. */
  async function project(folder: string, env: NodeJS.ProcessEnv = {}): Promise<TerraformProject> {
    const p = new TerraformProject(cli, join(root, folder), install, {
      WEBHOOKS_BASE_URL: emulator.url,
      WEBHOOKS_TOKEN: "dev-builder",
      ...env,
    });
    const init = await p.init(lockFile);
    expect(init.stdout).toContain(
      `Using webhook-subscriptions/webhooks v${RELEASE_VERSION} from the shared cache directory`,
    );
    projects.push(p.dir);
    return p;
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
    const p = await project("lifecycle");
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
    const p = await project("update");
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
    const p = await project("legacy", { WEBHOOKS_API_VERSION: "2024.1" });
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
    const p = await project("drift");
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
    const p = await project("import");
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
      const p = await project("import-identity");
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
    const p = await project("storm");
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
    const p = await project("token", { WEBHOOKS_TOKEN: "not-a-valid-token-8c1d" });
    p.write(subscription("orders", "https://hooks.example.com/orders"));
    const apply = await p.run(["apply", "-auto-approve"], 1);
    const output = apply.stdout + apply.stderr;
    expect(output.match(/WEBHOOKS_TOKEN/g)).toHaveLength(1);
    expect(output).not.toContain("not-a-valid-token-8c1d");
    expect(await emulator.all()).toEqual([]);
  });

  it("refuses bad input at plan, per field, with nothing created", async () => {
    const p = await project("bad-input");
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
    const p = await project("write-only");
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

  /** `plan -out` of `p`, rendered as the user reads it, and the planned values of webhooks_subscription.orders. */
  async function savedPlan(p: TerraformProject): Promise<{ said: string; after: Record<string, unknown> }> {
    const said = (await p.run(["plan", "-out=update.tfplan"])).stdout;
    const json = JSON.parse((await p.run(["show", "-json", "update.tfplan"])).stdout) as {
      resource_changes: { address: string; change: { after: Record<string, unknown> } }[];
    };
    const change = json.resource_changes.find((c) => c.address === "webhooks_subscription.orders");
    return { said, after: change!.change.after };
  }

  /**
   * The provider plans the write-only value null (the plan's JSON), as a write-only attribute must be.
   * What the CLI prints of it is the CLI's: OpenTofu's renderer shows every write-only attribute of
   * a resource that changes, set or not, since it renders without the configuration
   * (opentofu/opentofu#3640: by design); Terraform shows none in an update. Never the value.
   */
  it("plans the write-only header value null in an update; tofu shows it as (write-only attribute) set or not, terraform not; never its value", async () => {
    const secret = "wo-value-7d3e1b";
    const url = "https://hooks.example.com/orders";
    const withValue = `  custom_header = "X-Api-Key"\n  custom_header_value_wo = "${secret}"\n  custom_header_value_wo_version = 1`;
    for (const [folder, extra] of [
      ["wo-unset", ""],
      ["wo-set", withValue],
    ] as const) {
      const p = await project(folder);
      p.write(subscription("orders", url, extra));
      await p.run(["apply", "-auto-approve"]);
      p.write(subscription("orders", `${url}/v2`, extra));
      const { said, after } = await savedPlan(p);
      console.log(`[terraform] ${cli.name} ${cli.version} update plan, ${folder}:\n${said}`);
      expect(said, folder).toMatch(/~ subscriber_url\s+= "https:\/\/hooks.example.com\/orders" -> /);
      expect(said, folder).not.toContain(secret);
      // What the provider planned: a write-only attribute is always null in plan and state.
      expect(after.custom_header_value_wo, folder).toBeNull();
      const line = said.match(/^.*custom_header_value_wo\s+=.*$/m)?.[0]?.trim();
      if (cli.name === "tofu") expect(line, folder).toMatch(/^~ custom_header_value_wo\s+= \(write-only attribute\)$/);
      else expect(line, folder).toBeUndefined();
    }
  });

  /**
   * The drift review's source for a working directory (drift/sources/terraform/directory.ts), with this
   * CLI: a root module and a child module applied, then, out of band, one subscription's URL changed,
   * one deleted, one made that no configuration declares, and one changed and accepted into the state
   * by `apply -refresh-only`. One plan (never applied) finds each, by its address with the module
   * path, and changes neither the state nor the instance.
   */
  it("the drift review's directory source: differs from the state, deleted, and a change apply -refresh-only accepted still differs from the configuration", async () => {
    const p = await project("drift-review");
    const url = (path: string) => `https://hooks.example.com/${path}`;
    p.write(
      [
        subscription("orders", url("orders")),
        subscription("gone", url("gone")),
        `module "team" {\n  source = "./modules/team"\n}`,
      ].join("\n\n"),
    );
    mkdirSync(join(p.dir, "modules", "team"), { recursive: true });
    writeFileSync(
      join(p.dir, "modules", "team", "main.tf"),
      [
        `terraform {\n  required_providers {\n    webhooks = {\n      source = "webhook-subscriptions/webhooks"\n    }\n  }\n}`,
        subscription("packets", url("team/${each.key}"), `  for_each           = toset(["eu"])`),
        subscription("steady", url("team/steady")),
      ].join("\n\n"),
    );
    await p.run(["init", "-input=false"]);
    await p.run(["apply", "-auto-approve"]);
    const update = async (guid: string, subscriberUrl: string) =>
      expect(
        (
          await emulator.config("UpdateWebhookSubscription", {
            body: {
              GUID: guid,
              Webhook: 0,
              FilterObjectType: 2,
              FilterObjectGUID: ORDERS,
              SubscriberURL: subscriberUrl,
            },
          })
        ).status,
      ).toBe(200);
    const packets = await emulator.subscriptionAt(url("team/eu"));
    await update(packets.GUID, "https://elsewhere.example.net/team/eu");
    await p.run(["apply", "-refresh-only", "-auto-approve"]);
    const orders = await emulator.subscriptionAt(url("orders"));
    await update(orders.GUID, "https://attacker.example.net/orders");
    const gone = await emulator.subscriptionAt(url("gone"));
    expect((await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: gone.GUID } })).status).toBe(200);
    const unmanaged = await emulator.subscribe({
      Webhook: 0,
      FilterObjectType: 2,
      FilterObjectGUID: ORDERS,
      SubscriberURL: url("unmanaged"),
    });

    const stateBefore = readFileSync(join(p.dir, "terraform.tfstate"), "utf8");
    const liveBefore = await emulator.all();
    const review = (stateOnly: boolean) =>
      readTerraformDirectory({
        dir: "drift-review",
        absDir: p.dir,
        cli: { path: cli.path, name: cli.name },
        stateOnly,
        env: cliEnv(install.cliConfig, { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" }),
        cwd: root,
      });
    const result = await review(false);
    const found = result.observations.map((o) => `${o.class} ${o.address}`).sort();
    console.log(
      `[terraform] ${cli.name} ${cli.version} review of drift-review:\n${result.observations.map((o) => o.message).join("\n")}`,
    );
    expect(found).toEqual([
      "deleted webhooks_subscription.gone",
      'differs-from-configuration module.team.webhooks_subscription.packets["eu"]',
      "differs-from-configuration webhooks_subscription.orders",
      "differs-from-state webhooks_subscription.orders",
    ]);
    const observed = (cls: string, address: string) =>
      result.observations.find((o) => o.class === cls && o.address === address);
    expect(observed("differs-from-state", "webhooks_subscription.orders")).toMatchObject({
      guid: orders.GUID,
      fields: [
        {
          field: "subscriber_url",
          secret: false,
          recorded: url("orders"),
          live: "https://attacker.example.net/orders",
        },
      ],
      location: { file: "drift-review/main.tf", line: expect.any(Number) },
    });
    expect(observed("deleted", "webhooks_subscription.gone")?.guid).toBe(gone.GUID);
    expect(observed("differs-from-configuration", 'module.team.webhooks_subscription.packets["eu"]')).toMatchObject({
      guid: packets.GUID,
      fields: [
        {
          field: "subscriber_url",
          secret: false,
          live: "https://elsewhere.example.net/team/eu",
          declared: url("team/eu"),
        },
      ],
      location: { file: "drift-review/modules/team/main.tf", line: expect.any(Number) },
    });
    // Claimed: what the state records (the deleted one too), never the unmanaged one.
    expect(result.claims.map((c) => c.address).sort()).toEqual(
      [
        'module.team.webhooks_subscription.packets["eu"]',
        "module.team.webhooks_subscription.steady",
        "webhooks_subscription.gone",
        "webhooks_subscription.orders",
      ].sort(),
    );
    expect(result.claims.map((c) => c.guid)).not.toContain(unmanaged.GUID);
    expect(result.report).toMatchObject({ status: "reviewed", compared: ["state", "configuration"] });
    expect(result.instances).toEqual([
      {
        baseUrl: emulator.url,
        apiVersion: "3",
        adoptInto: { kind: "terraform-directory", dir: "drift-review", cli: cli.name },
      },
    ]);
    // The plan was never applied and wrote no state.
    expect(readFileSync(join(p.dir, "terraform.tfstate"), "utf8")).toBe(stateBefore);
    expect(await emulator.all()).toEqual(liveBefore);

    const stateOnly = await review(true);
    expect(stateOnly.report.compared).toEqual(["state"]);
    expect(stateOnly.observations.map((o) => `${o.class} ${o.address}`).sort()).toEqual([
      "deleted webhooks_subscription.gone",
      "differs-from-state webhooks_subscription.orders",
    ]);
    expect(readFileSync(join(p.dir, "terraform.tfstate"), "utf8")).toBe(stateBefore);
  });

  it("unpacked the release's executable once into the shared plugin cache; every project links it", () => {
    const host = cli.name === "tofu" ? "registry.opentofu.org" : "registry.terraform.io";
    const entry = join(install.pluginCache, host, "webhook-subscriptions", "webhooks", RELEASE_VERSION, "linux_amd64");
    // One unpacked platform folder (beside it, OpenTofu keeps the lock file of its cache entry).
    expect(readdirSync(join(entry, "..")).filter((name) => !name.endsWith(".lock"))).toEqual(["linux_amd64"]);
    expect(projects.length).toBeGreaterThan(5);
    for (const dir of projects) {
      const installed = join(
        dir,
        ".terraform",
        "providers",
        host,
        "webhook-subscriptions",
        "webhooks",
        RELEASE_VERSION,
        "linux_amd64",
      );
      expect(lstatSync(installed).isSymbolicLink(), dir).toBe(true);
      expect(realpathSync(installed), dir).toBe(realpathSync(entry));
    }
  });
});
