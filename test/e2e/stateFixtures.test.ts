/**
 * Upgrades that keep state: the state fixtures of test/fixtures/state/ (README.md there), written
 * by an earlier release and never recorded again, read by this checkout's code against the
 * emulator seeded with the fixture's live subscriptions (its live.json, served at the address the
 * state records). For each fixture, each on its own:
 * - no diff: `pulumi preview` of the matching program changes nothing; `tofu plan` says "No changes";
 * - no replacement: no replace step in the preview, nothing that forces replacement in the plan;
 * - no drift finding, in either comparison: `webhook-subscriptions drift --stack` with
 *   `--state-only` and with the program; `--terraform-state <file>` and `--terraform <dir>` (with
 *   and without `--state-only`): exit 0, zero findings.
 * The stacks are imported with `pulumi stack import` into a fresh file backend; the Terraform state is
 * copied into a fresh directory with the matching main.tf, the provider installed from a mirror of
 * the run's one plugin build (support/pluginBuild.ts), which the Pulumi native stack runs by path.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Review } from "../../drift";
import {
  FIXTURE_BASE_URL,
  FIXTURE_PORT,
  FIXTURE_STACK,
  FIXTURE_TOKEN,
  fixturePulumiEnv,
  LEGACY_WEBHOOK_RESOURCE,
  providerMirrorCliConfig,
  STATE_FIXTURES_DIR,
  writeFixtureProgram,
  type StateFixture,
} from "../../scripts/recordStateFixtures";
import { run, type Result } from "../support/commands";
import { runDriftCli } from "../support/driftCli";
import { reviewOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { requireLanguageHosts, workDir } from "../support/engine";
import { sharedPluginBuild } from "../support/pluginBuild";
import { cliEnv, requireTofu } from "../support/terraformClis";

/** Steps of a preview that replace a resource. */
const REPLACING_OPS = new Set(["replace", "create-replacement", "delete-replaced", "discard-replaced"]);

let pluginDir: string;
let engineBin: string;
const started = Date.now();

beforeAll(async () => {
  engineBin = requireLanguageHosts(["pulumi-language-yaml", "pulumi-language-nodejs"]).binDir;
  pluginDir = (await sharedPluginBuild()).pluginDir;
}, 900_000);

afterAll(() => console.log(`[state fixtures] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`));

/** A fixture's file as text. */
const fixtureText = (fixture: StateFixture, file: string) =>
  readFileSync(join(STATE_FIXTURES_DIR, fixture, file), "utf8");

/**
 * The emulator at the address the fixture's state records, seeded with its live.json (copied: the
 * emulator writes to its state file), for the tests of one describe.
 */
function useFixtureEmulator(fixture: StateFixture): { service: EmulatorHarness; root: string } {
  const context = { service: undefined as unknown as EmulatorHarness, root: "" };
  beforeAll(async () => {
    context.root = mkdtempSync(join(tmpdir(), `state-fixture-${fixture}-`));
    const statePath = join(context.root, "emulator.json");
    copyFileSync(join(STATE_FIXTURES_DIR, fixture, "live.json"), statePath);
    try {
      context.service = await EmulatorHarness.start({ port: FIXTURE_PORT, statePath });
    } catch (err) {
      throw new Error(`the emulator must listen on ${FIXTURE_BASE_URL}, the address the fixtures record: ${err}`, {
        cause: err,
      });
    }
    expect(context.service.url).toBe(FIXTURE_BASE_URL);
  });
  afterAll(async () => {
    await context.service?.close();
    if (context.root) rmSync(context.root, { recursive: true, force: true });
  });
  return context;
}

/** `webhook-subscriptions drift <args> --format json` with `env`: the review, after its exit code is checked to be 0. */
async function reviewWithoutFindings(args: string[], env: NodeJS.ProcessEnv): Promise<Review> {
  const began = Date.now();
  const result = await runDriftCli([...args, "--format", "json"], env);
  console.log(`[state fixtures] drift ${args.join(" ")}: exit ${result.code} in ${Date.now() - began} ms`);
  expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
  const review = reviewOf(result.stdout);
  expect(review.findings).toEqual([]);
  expect(review.status).toBe("in-sync");
  return review;
}

/** The GUIDs the emulator holds, sorted. */
async function liveGuids(service: EmulatorHarness): Promise<string[]> {
  return (await service.all()).map((s) => s.GUID).sort();
}

describe.each([
  { fixture: "dynamic" as const, type: "pulumi-nodejs:dynamic/webhooks:WebhookSubscription" },
  { fixture: "native" as const, type: "webhooks:index:WebhookSubscription" },
])("the $fixture provider's stack (test/fixtures/state/$fixture/stack.json)", ({ fixture, type }) => {
  const setting = useFixtureEmulator(fixture);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let preview: {
    steps: { op: string; urn: string; replaceReasons?: string[] }[];
    changeSummary: Record<string, number>;
  };
  const deployment = JSON.parse(fixtureText(fixture, "stack.json")) as {
    deployment: { resources: { urn: string; type: string; id?: string; inputs?: Record<string, unknown> }[] };
  };
  const subscriptions = deployment.deployment.resources.filter((r) => r.type === type);

  beforeAll(async () => {
    expect(await liveGuids(setting.service), "live.json holds the stack's subscriptions").toEqual(
      subscriptions.map((r) => r.id).sort(),
    );
    dir = workDir(`state-fixture-${fixture}`);
    writeFixtureProgram(fixture, dir, pluginDir);
    env = fixturePulumiEnv(engineBin, setting.root);
    const pulumi = (args: string[]) => run("pulumi", [...args, "--stack", FIXTURE_STACK], dir, env);
    await run("pulumi", ["stack", "init", FIXTURE_STACK, "--secrets-provider", "passphrase"], dir, env);
    await pulumi(["config", "set", "webhooks:baseUrl", FIXTURE_BASE_URL]);
    await pulumi(["stack", "import", "--file", join(STATE_FIXTURES_DIR, fixture, "stack.json")]);
    const began = Date.now();
    // --show-sames: the JSON lists every step, the unchanged ones too.
    preview = JSON.parse((await pulumi(["preview", "--json", "--show-sames"])).stdout) as typeof preview;
    console.log(`[state fixtures] ${fixture}: pulumi preview in ${Date.now() - began} ms`);
  }, 600_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("no diff: the preview of the matching program changes nothing", () => {
    // The stack and each subscription (the engine leaves providers out of the summary).
    expect(preview.changeSummary).toEqual({ same: subscriptions.length + 1 });
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    const own = preview.steps.filter((s) => s.urn.includes(`::${type}::`));
    expect(own.map((s) => s.op)).toEqual(subscriptions.map(() => "same"));
  });

  it("no replacement: no step of the preview replaces", () => {
    expect(preview.steps.filter((s) => REPLACING_OPS.has(s.op) || (s.replaceReasons ?? []).length > 0)).toEqual([]);
  });

  it("no drift finding comparing with the state alone (--state-only)", async () => {
    const review = await reviewWithoutFindings(["--stack", FIXTURE_STACK, "--cwd", dir, "--state-only"], env);
    expect(review.sources.map((s) => [s.compared, s.status, s.subscriptions.length])).toEqual([
      [["state"], "reviewed", subscriptions.length],
    ]);
  });

  it("no drift finding comparing with the state and the program", async () => {
    const review = await reviewWithoutFindings(["--stack", FIXTURE_STACK, "--cwd", dir], env);
    expect(review.sources.map((s) => [s.compared, s.status, s.subscriptions.length])).toEqual([
      [["state", "program"], "reviewed", subscriptions.length],
    ]);
    // A TypeScript program's state says where each subscription is made: the line that makes it.
    if (fixture === "dynamic") {
      const program = readFileSync(join(dir, "index.ts"), "utf8").split("\n");
      const declared = review.sources[0]!.subscriptions.map(({ name, location }) => [
        name,
        location.file,
        program[location.line! - 1],
      ]);
      expect(declared).toEqual([
        ["objects", expect.stringMatching(/index\.ts$/), expect.stringContaining('new WebhookSubscription("objects"')],
        ["packets", expect.stringMatching(/index\.ts$/), expect.stringContaining('new WebhookSubscription("packets"')],
      ]);
    }
  });

  if (fixture === "native")
    it("holds a subscription recorded as `webhook: 0`, from before event names", () => {
      const legacy = deployment.deployment.resources.find((r) => r.urn.endsWith(`::${LEGACY_WEBHOOK_RESOURCE}`));
      expect(legacy?.inputs?.webhook).toBe(0);
      expect((legacy as { outputs?: Record<string, unknown> } | undefined)?.outputs?.webhook).toBe(0);
    });
});

describe("the Terraform state at schema version 0 (test/fixtures/state/terraform/terraform.tfstate)", () => {
  const setting = useFixtureEmulator("terraform");
  const stateFile = join(STATE_FIXTURES_DIR, "terraform", "terraform.tfstate");
  const state = JSON.parse(fixtureText("terraform", "terraform.tfstate")) as {
    resources: { type: string; instances: { schema_version: number; attributes: { guid: string } }[] }[];
  };
  const instances = state.resources.filter((r) => r.type === "webhooks_subscription").flatMap((r) => r.instances);
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let tofu: string;
  let plan: Result;
  let planJson: { resource_changes?: { address: string; change: { actions: string[] } }[] };
  let trace: string;

  beforeAll(async () => {
    expect(await liveGuids(setting.service), "live.json holds the state's subscriptions").toEqual(
      instances.map((i) => i.attributes.guid).sort(),
    );
    tofu = requireTofu().path;
    dir = join(setting.root, "project");
    writeFixtureProgram("terraform", dir, pluginDir);
    copyFileSync(stateFile, join(dir, "terraform.tfstate"));
    env = cliEnv(providerMirrorCliConfig(setting.root, pluginDir), {
      WEBHOOKS_BASE_URL: FIXTURE_BASE_URL,
      WEBHOOKS_TOKEN: FIXTURE_TOKEN,
    });
    await run(tofu, ["init", "-input=false", "-no-color"], dir, env);
    const log = join(setting.root, "plan.log");
    const began = Date.now();
    // -detailed-exitcode: 0 is "no changes", 2 would be changes.
    plan = await run(
      tofu,
      ["plan", "-input=false", "-no-color", "-detailed-exitcode", "-out=fixture.tfplan"],
      dir,
      { ...env, TF_LOG: "trace", TF_LOG_PATH: log },
      0,
    );
    console.log(`[state fixtures] terraform: tofu plan in ${Date.now() - began} ms`);
    trace = readFileSync(log, "utf8");
    planJson = JSON.parse((await run(tofu, ["show", "-json", "fixture.tfplan"], dir, env)).stdout) as typeof planJson;
  }, 600_000);

  it("is at schema version 0", () => {
    expect(instances.map((i) => i.schema_version)).toEqual(instances.map(() => 0));
  });

  it("is read through UpgradeResourceState, once per instance", () => {
    expect(trace.match(/GRPCProvider\.v6: UpgradeResourceState/g)).toHaveLength(instances.length);
  });

  it("no diff: tofu plan says no changes", () => {
    expect(plan.stdout).toContain("No changes. Your infrastructure matches the configuration.");
    expect(planJson.resource_changes?.map((c) => c.change.actions)).toEqual(instances.map(() => ["no-op"]));
  });

  it("no replacement: nothing forces replacement", () => {
    expect(plan.stdout).not.toMatch(/forces replacement|must be replaced/);
    expect((planJson.resource_changes ?? []).filter((c) => c.change.actions.includes("delete"))).toEqual([]);
  });

  it("no drift finding in the state file (--terraform-state)", async () => {
    const review = await reviewWithoutFindings(["--terraform-state", stateFile], env);
    expect(review.sources.map((s) => [s.source.kind, s.compared, s.status, s.subscriptions.length])).toEqual([
      // Read for its claims alone: compared with nothing, so never said to be in sync.
      ["terraform-state", [], "reviewed", instances.length],
    ]);
  });

  it("no drift finding in the directory, comparing with the state alone (--terraform --state-only)", async () => {
    const review = await reviewWithoutFindings(["--terraform", dir, "--terraform-cli", tofu, "--state-only"], env);
    expect(review.sources.map((s) => [s.source.kind, s.compared, s.status, s.subscriptions.length])).toEqual([
      ["terraform-directory", ["state"], "reviewed", instances.length],
    ]);
  });

  it("no drift finding in the directory, comparing with the state and the configuration (--terraform)", async () => {
    const review = await reviewWithoutFindings(["--terraform", dir, "--terraform-cli", tofu], env);
    expect(review.sources.map((s) => [s.source.kind, s.compared, s.status, s.subscriptions.length])).toEqual([
      ["terraform-directory", ["state", "configuration"], "reviewed", instances.length],
    ]);
  });
});
