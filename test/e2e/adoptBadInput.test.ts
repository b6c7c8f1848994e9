/**
 * `adopt`'s bad input, through the real engine and a stack in a file backend: each exits 1
 * naming the flag and the value, and writes nothing (no file, no secret config); then `--names`
 * honoured. Run from source as a pipeline runs it (from the checkout, the program named by
 * --cwd); the release's executable runs the whole adoption in install.test.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runCli } from "../support/driftCli";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireEngine } from "../support/engine";

let service: EmulatorHarness;
let root: string;
let app: string;
let env: NodeJS.ProcessEnv;
const SECRET = `bad-input-header-${Date.now()}`;

/** The program directory's files and their text: what "nothing written" compares. */
const files = () => Object.fromEntries(readdirSync(app).map((f) => [f, readFileSync(join(app, f), "utf8")]));

beforeAll(async () => {
  service = await EmulatorHarness.start();
  await service.subscribe({
    Webhook: 3,
    FilterObjectType: 2,
    SubscriberURL: "https://bad-input.example.com/hook",
    CustomHeader: "X-Api-Key",
    CustomHeaderValue: SECRET,
  });
  root = mkdtempSync(join(tmpdir(), "adopt-bad-input-"));
  app = join(root, "app");
  mkdirSync(app);
  mkdirSync(join(root, "state"));
  // A Python program: adopt reads its stack's state only, so no Python runs here.
  writeFileSync(join(app, "Pulumi.yaml"), "name: app\nruntime: python\n");
  writeFileSync(join(app, "__main__.py"), "import pulumi\n");
  env = {
    PATH: `${requireEngine().binDir}${delimiter}${process.env.PATH ?? ""}`,
    PULUMI_BACKEND_URL: `file://${join(root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: "bad-input",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    WEBHOOKS_BASE_URL: service.url,
    WEBHOOKS_TOKEN: "dev-builder",
  };
  execFileSync("pulumi", ["stack", "init", "dev", "--non-interactive"], { cwd: app, env: { ...process.env, ...env } });
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs adopt in the program directory; expects exit 1 with nothing written, and no header value said. */
async function refused(args: string[]): Promise<string> {
  const before = files();
  const result = await runCli("adopt", [...args, "--cwd", app], env);
  expect(result.code, result.stderr).toBe(1);
  expect(files()).toEqual(before);
  expect(result.stdout + result.stderr).not.toContain(SECRET);
  return result.stderr;
}

it("a stack that does not exist: said once, and no report to see", async () => {
  const said = await refused(["--into-stack", "nope"]);
  expect(said.split('No stack named "nope"')).toHaveLength(2);
  // The flag the user typed.
  expect(said).toContain("Correct --into-stack (or --cwd)");
  expect(said).not.toContain("see the report");
}, 120_000);

it("a target instance that cannot be listed is not an empty one", async () => {
  const before = files();
  const result = await runCli("adopt", ["--into-stack", "dev", "--cwd", app], {
    ...env,
    WEBHOOKS_BASE_URL: "http://127.0.0.1:1",
  });
  expect(result.code, result.stdout).toBe(1);
  expect(files()).toEqual(before);
  expect(result.stdout).not.toContain("Nothing to adopt");
  expect(result.stderr).toMatch(/http:\/\/127\.0\.0\.1:1/);
}, 120_000);

it("a target directory that is not an initialised working directory", async () => {
  mkdirSync(join(root, "infra"), { recursive: true });
  writeFileSync(join(root, "infra", "main.tf"), "");
  expect(await refused(["--into-terraform", join(root, "infra")])).toMatch(/^--into-terraform \/.*\/infra: /);
}, 120_000);

it("a --match that matches nothing", async () => {
  expect(await refused(["--into-stack", "dev", "--match", "https://nowhere.example/"])).toContain(
    '--match "https://nowhere.example/" matched none of the 1 unmanaged subscriptions on',
  );
}, 120_000);

it("an output file that exists already, without --force", async () => {
  writeFileSync(join(app, "webhooks_adopted.py"), "# the team's own\n");
  try {
    expect(await refused(["--into-stack", "dev"])).toContain(
      "webhooks_adopted.py already exists: adopt does not overwrite it.",
    );
    // No secret config either.
    expect(
      existsSync(join(app, "Pulumi.dev.yaml")) ? readFileSync(join(app, "Pulumi.dev.yaml"), "utf8") : "",
    ).not.toMatch(/HeaderValue/);
  } finally {
    rmSync(join(app, "webhooks_adopted.py"));
  }
}, 120_000);

it("a names file holding an invalid identifier", async () => {
  const [guid] = (await service.all()).map((s) => s.GUID);
  const names = join(root, "names.json");
  writeFileSync(names, JSON.stringify({ [guid!]: "9lives" }));
  expect(await refused(["--into-stack", "dev", "--names", names])).toContain(
    `--names ${names}: the name of ${guid}, "9lives", is not a valid identifier`,
  );
}, 120_000);

it("--names: the subscription is declared under the name given, the same on a second run", async () => {
  const [guid] = (await service.all()).map((s) => s.GUID);
  const names = join(root, "good-names.json");
  writeFileSync(names, JSON.stringify({ [guid!]: "partnerInbound" }));
  try {
    const first = await runCli("adopt", ["--into-stack", "dev", "--names", names, "--cwd", app], env);
    expect(first.code, first.stderr).toBe(0);
    const code = readFileSync(join(app, "webhooks_adopted.py"), "utf8");
    expect(code).toContain('partner_inbound = webhooks.WebhookSubscription(\n    "partner-inbound",');
    expect(code).not.toContain(SECRET);
    const again = await runCli("adopt", ["--into-stack", "dev", "--names", names, "--cwd", app, "--force"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(app, "webhooks_adopted.py"), "utf8")).toBe(code);
  } finally {
    rmSync(join(app, "webhooks_adopted.py"), { force: true });
  }
}, 120_000);
