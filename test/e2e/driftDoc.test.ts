/**
 * docs/drift.md, run as a team without Node.js runs it, and the transcript issue 50 asks for: a
 * shell whose PATH holds the release's executable (the CLI and the plugin), `pulumi` with its
 * language hosts, `tofu`, and basic tools, and no `node`. In it: the emulator from the executable,
 * a review of a Terraform directory (in sync, then drifted), then a review of a YAML stack and
 * that directory together; then every `sh` block of the page, in order, as written, from the
 * repository layout the page describes (a Pulumi project in `app/` with stacks `prod` and
 * `staging`, Terraform configurations in `infra/hooks/` with a module, and `infra/partners/`).
 * Before the blocks, the fleet in parts: one partial review per source, merged (`--merge`), equals
 * one review of them all.
 * The pipelines the page points to run under act and gitlab-ci-local (action.test.ts,
 * gitlabTemplate.test.ts). Last, tofu killed in the middle of an apply: what it created but never recorded is unmanaged, and
 * `adopt_identical` takes it over on the next apply, as the review says.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requireLanguageHosts, REPO_ROOT } from "../support/engine";
import { freePort } from "../support/freePort";
import { readReview } from "../support/reviewJson";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { shellBlocks } from "../support/shellBlocks";
import { ShellSession } from "../support/shellSession";
import { teamEnv } from "../support/teamShell";
import { requireTofu } from "../support/terraformClis";

const PAGE = readFileSync(join(REPO_ROOT, "docs", "drift.md"), "utf8");

const TOKEN = "dev-builder";
const PACKETS = "6f1c2a3b-0000-4000-8000-0000000000d1";

let root: string;
let team: string;
let shell: ShellSession;
let port: number;
let env: NodeJS.ProcessEnv;

/** The repository the page's commands run in. */
function writeTeamRepository(dir: string): void {
  const provider = `terraform {\n  required_providers {\n    webhooks = {\n      source  = "webhook-subscriptions/webhooks"\n      version = "${RELEASE_VERSION}"\n    }\n  }\n}\n`;
  const subscription = (name: string, url: string, extra = "") =>
    `resource "webhooks_subscription" "${name}" {\n  webhook            = "BusinessObjectCreated"\n  filter_object_type = 2\n  subscriber_url     = "${url}"\n${extra}}\n`;
  mkdirSync(join(dir, "infra/hooks/modules/team"), { recursive: true });
  writeFileSync(
    join(dir, "infra/hooks/main.tf"),
    `${provider}\n${subscription("orders", "https://hooks.example.com/tf/orders")}\nmodule "team" {\n  source = "./modules/team"\n}\n`,
  );
  writeFileSync(
    join(dir, "infra/hooks/modules/team/main.tf"),
    `terraform {\n  required_providers {\n    webhooks = { source = "webhook-subscriptions/webhooks" }\n  }\n}\n\nresource "webhooks_subscription" "packets" {\n  webhook            = "PacketCreated"\n  filter_object_type = 2\n  filter_object_guid = "${PACKETS}"\n  subscriber_url     = "https://hooks.example.com/tf/packets"\n}\n`,
  );
  mkdirSync(join(dir, "infra/partners"), { recursive: true });
  writeFileSync(
    join(dir, "infra/partners/main.tf"),
    `${provider}\n${subscription("partner", "https://partner.example.com/hook")}`,
  );
  mkdirSync(join(dir, "app"), { recursive: true });
  writeFileSync(
    join(dir, "app/Pulumi.yaml"),
    [
      "name: app",
      "runtime: yaml",
      "resources:",
      "  objects:",
      "    type: webhooks:index:WebhookSubscription",
      "    properties:",
      "      webhook: BusinessObjectCreated",
      "      filterObjectType: 7",
      "      subscriberUrl: https://hooks.example.com/app/${pulumi.stack}",
      "",
    ].join("\n"),
  );
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-yaml"]);
  const tofu = requireTofu();
  const release = await sharedRelease();
  root = mkdtempSync(join(tmpdir(), "drift-doc-"));
  team = join(root, "team");
  writeTeamRepository(team);

  port = await freePort();
  env = teamEnv({ root, releaseDir: release.dir, engine, tofu, port, passphrase: "drift-doc" });
  shell = ShellSession.start(team, env);
}, 1_800_000);

afterAll(async () => {
  await shell?.closeKeepingTranscript("drift-doc-transcript.txt");
  // The release unpacked, its mirror, the state and the tools: about 800 MB a run.
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs `script` in the session without ending it on a non-zero exit; resolves with its output and exit code. */
async function attempt(script: string): Promise<{ output: string; code: number }> {
  const output = await shell.run(`set +e\n( set -e\n${script}\n)\necho "exit=$?"\nset -e`);
  const code = Number(/exit=(\d+)\s*$/.exec(output)?.[1]);
  return { output, code };
}

it("no node on PATH: the executable is the CLI, and runs the emulator", async () => {
  const said = await shell.run(
    [
      'if command -v node; then echo "node is on PATH"; exit 1; fi',
      "webhook-subscriptions --version",
      `webhook-subscriptions emulator --port ${port} > emulator.log 2>&1 &`,
      `for i in $(seq 1 100); do grep -q listening emulator.log && break; sleep 0.2; done`,
      "cat emulator.log",
    ].join("\n"),
  );
  expect(said).toContain(RELEASE_VERSION);
  expect(said).toContain(`webhook emulator listening on http://127.0.0.1:${port}`);
}, 120_000);

it("reviews a Terraform directory: in sync, then what changed out of band and what no source claims", async () => {
  await shell.run(
    "tofu -chdir=infra/hooks init -input=false -no-color >/dev/null\ntofu -chdir=infra/hooks apply -auto-approve -input=false -no-color >/dev/null",
  );
  const clean = await attempt("webhook-subscriptions drift --terraform infra/hooks");
  expect(clean.code, clean.output).toBe(0);
  // The summary line of a review in sync.
  expect(clean.output).toContain("**No drift** across 1 source.");
  // Out of band: the module's subscription gets another URL, and one nobody declares appears.
  const state = JSON.parse(readFileSync(join(team, "infra/hooks/terraform.tfstate"), "utf8")) as {
    resources: { module?: string; instances: { attributes: { guid: string } }[] }[];
  };
  const packets = state.resources.find((r) => r.module === "module.team")!.instances[0]!.attributes.guid;
  const api = `curl -fsS -H 'Authorization: Bearer ${TOKEN}' -H 'content-type: application/json' "$WEBHOOKS_BASE_URL/configuration/WebHookSubscription`;
  await shell.run(
    [
      `${api}/UpdateWebhookSubscription?api-version=3" -X POST -d '{"GUID":"${packets}","Webhook":0,"FilterObjectType":2,"FilterObjectGUID":"${PACKETS}","SubscriberURL":"https://evil.example.net/packets"}' >/dev/null`,
      `${api}/SubscribeToWebhook?api-version=3" -X POST -d '{"Webhook":5,"FilterObjectType":2,"SubscriberURL":"https://manual.example.org/hook"}' >/dev/null`,
    ].join("\n"),
  );
  const drifted = await attempt("webhook-subscriptions drift --terraform infra/hooks --format json > tf-review.json");
  expect(drifted.code, drifted.output).toBe(2);
  const review = readReview(join(team, "tf-review.json"));
  expect(review.version).toBe(3);
  expect(review.sources.map((s) => [s.source.kind, s.source.name, s.compared])).toEqual([
    ["terraform-directory", "infra/hooks", ["state", "configuration"]],
  ]);
  expect(review.findings.map((f) => [f.class, f.owner?.address ?? null])).toEqual([
    ["differs-from-state", "module.team.webhooks_subscription.packets"],
    ["differs-from-configuration", "module.team.webhooks_subscription.packets"],
    ["unmanaged", null],
  ]);
  // A Terraform source names fields as its configuration writes them.
  expect(review.findings[0]!.fields).toContainEqual(
    expect.objectContaining({ field: "subscriber_url", live: "https://evil.example.net/packets" }),
  );
  // In markdown, a finding names the .tf line that declares it, and the review ends with the
  // command that runs it again: run as printed, it does.
  const markdown = await attempt("webhook-subscriptions drift --terraform infra/hooks");
  expect(markdown.code, markdown.output).toBe(2);
  // A finding's address beside its declaring .tf line.
  expect(markdown.output).toMatch(/`module\.team\.webhooks_subscription\.packets`<br>`infra\/hooks\/[\w/]+\.tf:\d+`/);
  // The footer's command that runs the review again.
  const again = /<sub>.*`(webhook-subscriptions drift [^`]*)`<\/sub>/.exec(markdown.output)?.[1];
  expect(again).toBe("webhook-subscriptions drift --terraform infra/hooks");
  const rerun = await attempt(again!);
  expect(rerun.code, rerun.output).toBe(2);
}, 600_000);

it("reviews a YAML stack and that directory together, in one report", async () => {
  await shell.run(
    ["prod", "staging"]
      .map((stack) =>
        [
          `pulumi -C app stack init ${stack} --non-interactive >/dev/null`,
          `pulumi -C app --stack ${stack} config set webhooks:baseUrl "$WEBHOOKS_BASE_URL"`,
          `pulumi -C app --stack ${stack} config set --secret webhooks:token -- "$WEBHOOKS_TOKEN"`,
          `pulumi -C app --stack ${stack} up --yes --non-interactive --skip-preview >/dev/null`,
        ].join("\n"),
      )
      .join("\n"),
  );
  const together = await attempt("webhook-subscriptions drift --stack prod --cwd app --terraform infra/hooks");
  expect(together.code, together.output).toBe(2);
  // The sources table, one row a source.
  expect(together.output).toContain("| Pulumi stack | `prod` |");
  expect(together.output).toContain("| Terraform directory | `infra/hooks` |");
  // The staging stack's subscription is claimed by no source reviewed here: unmanaged.
  expect(together.output).toContain("https://hooks.example.com/app/staging");
  expect(together.output).not.toMatch(/serialization failure|pulumirpc/);
  // The stack's footer prints the command that runs this review again: run as printed, it does.
  // The footer's command.
  const again = /<sub>.*`(webhook-subscriptions drift [^`]*)`<\/sub>/.exec(together.output)?.[1];
  expect(again).toBe("webhook-subscriptions drift --stack prod --cwd app --terraform infra/hooks");
  const rerun = await attempt(again!);
  expect(rerun.code, rerun.output).toBe(2);
  // The sources table.
  expect(rerun.output).toContain("| Terraform directory | `infra/hooks` |");
}, 600_000);

it("a fleet in parts: 3 partial reviews (2 stacks, 1 directory), merged, equal one review of the 3; unmanaged and co-owned once each", async () => {
  // Co-owned: the directory's `orders` imported into prod's state too (state only: its program does not declare it).
  const state = JSON.parse(readFileSync(join(team, "infra/hooks/terraform.tfstate"), "utf8")) as {
    resources: { module?: string; name: string; instances: { attributes: { guid: string } }[] }[];
  };
  const orders = state.resources.find((r) => !r.module && r.name === "orders")!.instances[0]!.attributes.guid;
  await shell.run(
    `pulumi -C app --stack prod import webhooks:index:WebhookSubscription orders-too ${orders} --yes --non-interactive --protect=false >/dev/null`,
  );
  try {
    const sources = [
      ["--stack", "prod", "--cwd", "app"],
      ["--stack", "staging", "--cwd", "app"],
      ["--terraform", "infra/hooks"],
    ];
    for (const [i, flags] of sources.entries()) {
      const part = await attempt(
        `webhook-subscriptions drift ${flags.join(" ")} --report part-${i + 1}.json >/dev/null`,
      );
      expect([0, 2], part.output).toContain(part.code);
    }
    const merged = await attempt(
      "webhook-subscriptions drift --merge part-1.json --merge part-2.json --merge part-3.json --format json > merged.json",
    );
    const single = await attempt(
      `webhook-subscriptions drift ${["--stack", "prod", "--stack", "staging", "--cwd", "app", "--terraform", "infra/hooks"].join(" ")} --format json > single.json`,
    );
    expect(merged.code, merged.output).toBe(single.code);
    const [m, o] = ["merged.json", "single.json"].map((file) => readReview(join(team, file)));
    const findings = (r: typeof m) => r!.findings.map((f) => [f.class, f.guid, f.fingerprint]).sort();
    expect(findings(m)).toEqual(findings(o));
    expect(m!.exitCode).toBe(o!.exitCode);
    // The manual one no source claims: unmanaged once. `orders`, claimed by prod and the directory: co-owned once.
    const manual = o!.findings.filter(
      (f) => f.class === "unmanaged" && f.subscription?.subscriberUrl === "https://manual.example.org/hook",
    );
    expect(manual).toHaveLength(1);
    expect(m!.findings.filter((f) => f.class === "co-owned" && f.guid === orders)).toHaveLength(1);
  } finally {
    await shell.run(
      "pulumi -C app --stack prod state delete \"$(pulumi -C app --stack prod stack --show-urns | grep -o 'urn:[^ ]*::orders-too')\" --yes --non-interactive >/dev/null",
    );
  }
}, 600_000);

it("runs every sh block of docs/drift.md as written, none of them failing", async () => {
  await shell.run(
    "tofu -chdir=infra/partners init -input=false -no-color >/dev/null\ntofu -chdir=infra/partners apply -auto-approve -input=false -no-color >/dev/null",
  );
  // The ignore file the page shows, as a team writes it.
  const ignoreFile = shellBlocks(PAGE, "json").find((b) => b.script.includes('"owner"'))!;
  writeFileSync(join(team, "drift-ignore.json"), ignoreFile.script);
  const blocks = shellBlocks(PAGE);
  expect(blocks.length).toBeGreaterThanOrEqual(8);
  for (const block of blocks) {
    const { output, code } = await attempt(block.script);
    expect([0, 2], `under "## ${block.heading}":\n${block.script}\n${output}`).toContain(code);
    expect(output).not.toMatch(/serialization failure|pulumirpc|Error: /);
  }
  for (const file of ["drift.sarif", "drift.xml", "drift.html", "drift.json", "drift-baseline.json"])
    expect(existsSync(join(team, file)), file).toBe(true);
  // Code scanning shows the tool's version beside its alerts: the release's.
  const sarif = JSON.parse(readFileSync(join(team, "drift.sarif"), "utf8")) as {
    runs: { tool: { driver: { version?: string; semanticVersion?: string } } }[];
  };
  expect(sarif.runs[0]!.tool.driver).toMatchObject({ version: RELEASE_VERSION, semanticVersion: RELEASE_VERSION });
}, 900_000);

/** The emulator's admin API (never part of the real service). */
async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`http://127.0.0.1:${port}/_emulator${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} /_emulator${path}`).toBe(true);
  return response.status === 204 ? undefined : response.json();
}

/** Polls `check` every 200 ms until it holds, for at most `ms`. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it("after tofu is killed mid-apply, what it created but never recorded is unmanaged; adopt_identical takes it over", async () => {
  const url = "https://hooks.example.com/tf/late";
  const dir = join(team, "infra/killed");
  mkdirSync(dir);
  const configuration = readFileSync(join(team, "infra/partners/main.tf"), "utf8").replace(
    /resource "webhooks_subscription"[\s\S]*$/,
    `resource "webhooks_subscription" "late" {\n  webhook            = "BusinessObjectCreated"\n  filter_object_type = 3\n  subscriber_url     = "${url}"\n}\n`,
  );
  writeFileSync(join(dir, "main.tf"), configuration);
  await shell.run("tofu -chdir=infra/killed init -input=false -no-color >/dev/null");
  // The Subscribe is held on its way in; tofu is killed while it waits, then the service commits it.
  const subscribes = async () =>
    ((await admin("GET", "/stats")) as { requests: Record<string, number> }).requests.SubscribeToWebhook ?? 0;
  const before = await subscribes();
  await admin("PUT", "/faults", [{ operation: "SubscribeToWebhook", kind: "delay", delayMs: 3000, count: 1 }]);
  const apply = spawn("tofu", ["-chdir=infra/killed", "apply", "-auto-approve", "-input=false", "-no-color"], {
    cwd: team,
    env,
    detached: true,
    stdio: "ignore",
  });
  await until(async () => (await subscribes()) > before, 120_000, "tofu sent the Subscribe");
  process.kill(-apply.pid!, "SIGKILL");
  const all = async () =>
    (await (
      await fetch(
        `http://127.0.0.1:${port}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`,
        {
          headers: { authorization: `Bearer ${TOKEN}` },
        },
      )
    ).json()) as { GUID: string; SubscriberURL: string }[];
  await until(async () => (await all()).some((s) => s.SubscriberURL === url), 15_000, "the service committed it");
  const orphan = (await all()).find((s) => s.SubscriberURL === url)!.GUID;
  await admin("DELETE", "/faults");

  const killed = await attempt("webhook-subscriptions drift --terraform infra/killed --format json > killed.json");
  expect(killed.code, killed.output).toBe(2);
  /** Every GUID a source of the review manages. */
  const managed = (r: ReturnType<typeof readReview>) => r.sources.flatMap((s) => s.subscriptions.map((m) => m.guid));
  const review = readReview(join(team, "killed.json"));
  const finding = review.findings.find((f) => f.guid === orphan);
  expect(finding).toMatchObject({ class: "unmanaged" });
  expect(finding?.advice).toContain("adopt_identical = true");
  // Or adopt it by an import block into the directory reaching its instance.
  expect(finding?.adoption).toMatchObject({ kind: "terraform-import" });
  expect(finding?.adoption?.snippet).toContain(`id = "${orphan}"`);
  expect(managed(review)).not.toContain(orphan);

  // What the advice says: the next apply with adopt_identical takes it over instead of creating a second.
  writeFileSync(join(dir, "main.tf"), `${configuration}\nprovider "webhooks" {\n  adopt_identical = true\n}\n`);
  await shell.run("tofu -chdir=infra/killed apply -auto-approve -input=false -no-color >/dev/null");
  const adopted = await attempt("webhook-subscriptions drift --terraform infra/killed --format json > adopted.json");
  const after = readReview(join(team, "adopted.json"));
  expect(adopted.output).not.toMatch(/Error: /);
  expect(managed(after)).toContain(orphan);
  expect(after.findings.map((f) => f.guid)).not.toContain(orphan);
  expect((await all()).filter((s) => s.SubscriberURL === url)).toHaveLength(1);
}, 600_000);
