/**
 * A Terraform/OpenTofu working directory as a source of the review (drift/sources/terraform/),
 * read from plans a real CLI made (fixtures/terraformPlan/: `show -json` of a plan, trimmed to what
 * the review reads, and the configuration it was planned from). The scenario behind them: applied,
 * then, out of band, `module.team…accepted`'s URL changed and accepted by `apply -refresh-only`;
 * `orders`' URL and header value changed; `hidden`'s URL (a sensitive variable) changed; `gone`
 * deleted; and in the configuration `old` removed, `wo`'s write-only value version bumped,
 * `replaced`'s filter_object_type changed, `fresh` added. The CLI runs themselves are faked here by
 * a script; test/e2e/terraform.test.ts runs the real ones.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DriftError, DriftErrorCode } from "../../drift/errors";
import { adoptionNames } from "../../drift/review/adoptionNames";
import { terraformAdoption, terraformAdoptionAdvice } from "../../drift/sources/terraform/adoption";
import { findTerraformCli, TERRAFORM_INSTALL_PAGES } from "../../drift/sources/terraform/cli";
import { readTerraformDirectory } from "../../drift/sources/terraform/directory";
import type { PlanJson } from "../../drift/sources/terraform/planJson";
import { readPlan, type PlanContext } from "../../drift/sources/terraform/readPlan";
import { readTerraformStateFile } from "../../drift/sources/terraform/stateFile";
import { checkTerraformDirectory } from "../../drift/sources/terraform/workingDirectory";
import { FULL_MESSAGE_ELSEWHERE } from "../../provider/client";
import { SUBSCRIPTION_FIELDS } from "../../provider/model";
import { Webhook, type Subscription } from "../../provider/wire";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const FIXTURES = join(__dirname, "fixtures");
const DIR = join(FIXTURES, "terraformPlan");
/** The plans, by the CLI that made them. */
const PLANS = ["terraform", "tofu"].filter((cli) => existsSync(join(DIR, `plan.${cli}.json`)));
/** The instance the fixtures' subscriptions were created on. */
const RECORDED_URL = "http://127.0.0.1:18931";
const ENV = { WEBHOOKS_BASE_URL: RECORDED_URL, WEBHOOKS_TOKEN: "dev-builder" };
/** Values of the scenario that are secret in it: none may reach a result. */
const SECRETS = [
  "s3cret-header-value",
  "changed-secret-42",
  "wo-secret-value",
  "hidden-path-7f3a",
  "hidden-moved-9c1d",
];

const planFixture = (file: string): PlanJson => JSON.parse(readFileSync(join(DIR, file), "utf8")) as PlanJson;

/** The context of a plan of the fixture directory, reviewed from FIXTURES. */
function context(overrides: Partial<PlanContext> = {}): PlanContext {
  return {
    ref: { kind: "terraform-directory", name: "terraformPlan", file: "terraformPlan/main.tf" },
    dir: "terraformPlan",
    absDir: DIR,
    cwd: FIXTURES,
    cli: { name: "tofu" },
    stateOnly: false,
    env: ENV,
    ...overrides,
  };
}

/** Every Signature in the plan: secret too. */
function signatures(plan: PlanJson): string[] {
  return [...JSON.stringify(plan).matchAll(/"signature":\s*"([^"]+)"/g)].map((m) => m[1]!);
}

/** The GUID the plan's state (or its drift, for one deleted) records at `address`. */
function guidAt(plan: PlanJson, address: string): string {
  const entries = [...(plan.resource_drift ?? []), ...(plan.resource_changes ?? [])];
  const guid = entries.find((c) => c.address === address && c.change.before)?.change.before?.guid;
  if (typeof guid !== "string") throw new Error(`no GUID at ${address}`);
  return guid;
}

describe.each(PLANS)("a plan made by %s", (cli) => {
  const plan = planFixture(`plan.${cli}.json`);
  const result = readPlan(plan, context());
  const observed = (cls: string, address: string) =>
    result.observations.filter((o) => o.class === cls && o.address === address);

  it("claims every webhooks_subscription the state records, in every module, index keys kept, the deleted one too; each where it is declared", () => {
    expect(result.claims.map((c) => c.address).sort()).toEqual(
      [
        "module.team.webhooks_subscription.accepted",
        'module.team.webhooks_subscription.packets["eu"]',
        "webhooks_subscription.gone",
        "webhooks_subscription.hidden",
        "webhooks_subscription.old",
        "webhooks_subscription.orders",
        "webhooks_subscription.replaced",
        "webhooks_subscription.wo",
      ].sort(),
    );
    const at = (address: string) => result.claims.find((c) => c.address === address);
    expect(at("webhooks_subscription.gone")).toEqual({
      guid: guidAt(plan, "webhooks_subscription.gone"),
      address: "webhooks_subscription.gone",
      name: "webhooks_subscription.gone",
      location: { file: "terraformPlan/main.tf", line: 21 },
    });
    expect(at('module.team.webhooks_subscription.packets["eu"]')?.location).toEqual({
      file: "terraformPlan/modules/team/main.tf",
      line: 9,
    });
    expect(at("module.team.webhooks_subscription.accepted")?.location).toEqual({
      file: "terraformPlan/modules/team/main.tf",
      line: 17,
    });
    // No longer declared: the directory's first file.
    expect(at("webhooks_subscription.old")?.location).toEqual({ file: "terraformPlan/main.tf" });
    expect(result.report).toEqual({
      source: context().ref,
      status: "reviewed",
      compared: ["state", "configuration"],
      instances: [{ baseUrl: RECORDED_URL, apiVersion: "3" }],
    });
  });

  it("a subscription changed out of band differs from the state, field by field; its header value is a secret, by name alone", () => {
    const [orders] = observed("differs-from-state", "webhooks_subscription.orders");
    expect(orders?.guid).toBe(guidAt(plan, "webhooks_subscription.orders"));
    expect(orders?.fields).toEqual([
      { field: "custom_header_value", secret: true },
      {
        field: "subscriber_url",
        secret: false,
        recorded: "https://hooks.example.com/orders",
        live: "https://attacker.example.net/orders",
      },
    ]);
    expect(orders?.location).toEqual({ file: "terraformPlan/main.tf", line: 12 });
    expect(orders?.advice).toContain("`tofu -chdir=terraformPlan apply -refresh-only`");
  });

  it("a value the plan marks sensitive (a sensitive variable's) is a secret too, in both comparisons", () => {
    for (const cls of ["differs-from-state", "differs-from-configuration"])
      expect(observed(cls, "webhooks_subscription.hidden")[0]?.fields, cls).toEqual([
        { field: "subscriber_url", secret: true },
      ]);
  });

  it("one deleted out of band is deleted, once: not also a create the configuration asks for", () => {
    const gone = result.observations.filter((o) => o.address === "webhooks_subscription.gone");
    expect(gone).toEqual([
      expect.objectContaining({ class: "deleted", guid: guidAt(plan, "webhooks_subscription.gone"), fields: [] }),
    ]);
  });

  it("a change `apply -refresh-only` accepted into the state still differs from the configuration, with its module path", () => {
    expect(observed("differs-from-state", "module.team.webhooks_subscription.accepted")).toEqual([]);
    const [accepted] = observed("differs-from-configuration", "module.team.webhooks_subscription.accepted");
    expect(accepted).toMatchObject({
      guid: guidAt(plan, "module.team.webhooks_subscription.accepted"),
      fields: [
        {
          field: "subscriber_url",
          secret: false,
          live: "https://elsewhere.example.net/accepted",
          declared: "https://hooks.example.com/team/accepted",
        },
      ],
      location: { file: "terraformPlan/modules/team/main.tf", line: 17 },
    });
    expect(accepted?.message).toContain("update it in place");
  });

  it("the configuration's other differences: declared never created (no GUID), no longer declared, a replace, a write-only value's new version", () => {
    expect(observed("differs-from-configuration", "webhooks_subscription.fresh")).toEqual([
      expect.objectContaining({ guid: null, fields: [], location: { file: "terraformPlan/main.tf", line: 61 } }),
    ]);
    const [old] = observed("differs-from-configuration", "webhooks_subscription.old");
    expect(old?.guid).toBe(guidAt(plan, "webhooks_subscription.old"));
    expect(old?.message).toContain("no longer declares it");
    const [replaced] = observed("differs-from-configuration", "webhooks_subscription.replaced");
    // The Signature and the GUID a replacement gets are no difference of the configuration.
    expect(replaced?.fields).toEqual([{ field: "filter_object_type", secret: false, live: 8, declared: 10 }]);
    expect(replaced?.message).toContain(
      "replace it (a new GUID and Signature; filter_object_type cannot change in place)",
    );
    // A new version of the write-only value: the value the configuration writes, a secret.
    expect(observed("differs-from-configuration", "webhooks_subscription.wo")[0]?.fields).toEqual([
      { field: "custom_header_value_wo", secret: true },
    ]);
    // In sync: nothing said.
    expect(result.observations.filter((o) => o.address.includes("packets"))).toEqual([]);
  });

  it("the same plan's JSON given as --terraform-state (planned in another job) finds the same, named by its file", () => {
    const file = `plan.${cli}.json`;
    const fromFile = readTerraformStateFile({ file, absFile: join(DIR, file), cwd: DIR, env: ENV });
    expect(fromFile.report.source).toEqual({ kind: "terraform-state", name: file, file });
    expect(fromFile.claims.map((c) => [c.address, c.guid])).toEqual(result.claims.map((c) => [c.address, c.guid]));
    expect(fromFile.observations.map((o) => [o.class, o.address])).toEqual(
      result.observations.map((o) => [o.class, o.address]),
    );
    expect(fromFile.report.compared).toEqual(["state", "configuration"]);
    // A saved plan cannot be applied: nothing is adopted into it.
    expect(fromFile.instances).toEqual([{ baseUrl: RECORDED_URL, apiVersion: "3" }]);
  });

  it("names fields as the configuration writes them (subscriber_url), in the fields and the messages alike: never the model's camelCase", () => {
    const differing = result.observations.filter((o) => o.fields.length > 0);
    expect(differing.length).toBeGreaterThan(0);
    for (const o of differing) {
      for (const { field } of o.fields) expect(field, o.address).toMatch(/^[a-z][a-z0-9_]*$/);
      for (const { field } of o.fields) expect(o.message, o.address).toContain(field);
    }
    // The model's names of more than one word (`subscriberUrl`), which HCL writes otherwise.
    const modelNames = SUBSCRIPTION_FIELDS.filter((name) => /[A-Z]/.test(name));
    for (const o of result.observations)
      for (const name of modelNames) expect(`${o.message} ${o.advice ?? ""}`, o.address).not.toContain(name);
    expect(observed("differs-from-state", "webhooks_subscription.orders")[0]?.message).toMatch(
      / in custom_header_value, subscriber_url\.$/,
    );
  });

  it("no secret value and no Signature reaches the result", () => {
    const text = JSON.stringify(result);
    for (const secret of [...SECRETS, ...signatures(plan)]) expect(text).not.toContain(secret);
  });

  it("the instance is the provider's (WEBHOOKS_BASE_URL here), and any other one the state records a subscription on; each adopts into the directory", () => {
    const adoptInto = { kind: "terraform-directory", dir: "terraformPlan", cli: "tofu" };
    expect(result.instances).toEqual([{ baseUrl: RECORDED_URL, apiVersion: "3", adoptInto }]);
    const elsewhere = readPlan(
      plan,
      context({ env: { ...ENV, WEBHOOKS_BASE_URL: "https://hooks.internal.example", WEBHOOKS_API_VERSION: "2024.1" } }),
    );
    expect(elsewhere.report.instances).toEqual([
      { baseUrl: "https://hooks.internal.example", apiVersion: "2024.1" },
      { baseUrl: RECORDED_URL, apiVersion: "2024.1" },
    ]);
  });
});

describe.each(PLANS)("a refresh-only plan made by %s (--state-only)", (cli) => {
  const plan = planFixture(`refresh-only.${cli}.json`);
  const result = readPlan(plan, context({ stateOnly: true }));

  it("compares live with the state alone: differs from the state and deleted, nothing about the configuration", () => {
    expect(result.report.compared).toEqual(["state"]);
    expect(result.observations.map((o) => `${o.class} ${o.address}`).sort()).toEqual([
      "deleted webhooks_subscription.gone",
      "differs-from-state webhooks_subscription.hidden",
      "differs-from-state webhooks_subscription.orders",
    ]);
    expect(result.claims).toHaveLength(8);
    for (const secret of [...SECRETS, ...signatures(plan)]) expect(JSON.stringify(result)).not.toContain(secret);
  });
});

describe.each(PLANS)("a refresh-only plan made by %s, given as --terraform-state", (cli) => {
  it("compared what it holds: the state alone", () => {
    const file = `refresh-only.${cli}.json`;
    const fromFile = readTerraformStateFile({ file, absFile: join(DIR, file), cwd: DIR, env: ENV });
    expect(fromFile.report.compared).toEqual(["state"]);
    expect(fromFile.observations.map((o) => o.class).sort()).toEqual([
      "deleted",
      "differs-from-state",
      "differs-from-state",
    ]);
  });
});

describe("what the plan format allows beyond the fixtures", () => {
  const base = planFixture(`plan.${PLANS[0]}.json`);
  const orders = base.resource_changes!.find((c) => c.address === "webhooks_subscription.orders")!;

  it("a declared value known only after apply, a whole object marked sensitive", () => {
    const plan: PlanJson = {
      ...base,
      resource_drift: [],
      resource_changes: [
        {
          ...orders,
          change: {
            ...orders.change,
            after: { ...orders.change.after, subscriber_url: null },
            after_unknown: { subscriber_url: true },
          },
        },
        { ...orders, address: "webhooks_subscription.masked", change: { ...orders.change, after_sensitive: true } },
      ],
    };
    const [unknown, masked] = readPlan(plan, context()).observations;
    expect(unknown?.fields).toContainEqual({
      field: "subscriber_url",
      secret: false,
      live: "https://attacker.example.net/orders",
      declared: "(known after apply)",
    });
    expect(masked?.fields).toEqual([
      { field: "custom_header_value", secret: true },
      { field: "subscriber_url", secret: true },
    ]);
  });

  it("a deposed object is claimed and to be deleted; an import block's subscription is not claimed yet", () => {
    const plan: PlanJson = {
      ...base,
      resource_drift: [],
      resource_changes: [
        { ...orders, deposed: "a1b2c3d4", change: { ...orders.change, actions: ["delete"], after: null } },
        {
          ...orders,
          address: "webhooks_subscription.imported",
          change: { ...orders.change, actions: ["no-op"], importing: { id: "9d0c7a3e-1111-4222-8333-444444444444" } },
        },
      ],
    };
    const result = readPlan(plan, context());
    expect(result.claims.map((c) => c.address)).toContain("webhooks_subscription.orders (deposed a1b2c3d4)");
    expect(result.claims.map((c) => c.address)).not.toContain("webhooks_subscription.imported");
    expect(result.observations.map((o) => [o.address, o.guid])).toEqual([
      ["webhooks_subscription.orders (deposed a1b2c3d4)", guidAt(base, "webhooks_subscription.orders")],
      ["webhooks_subscription.imported", "9d0c7a3e-1111-4222-8333-444444444444"],
    ]);
  });

  it("the provider block's constant base_url is the instance; without one and without WEBHOOKS_* a note says what to set", () => {
    const withBlock: PlanJson = {
      ...base,
      configuration: {
        ...base.configuration,
        provider_config: {
          webhooks: {
            expressions: {
              base_url: { constant_value: "https://hooks.eu.example/" },
              api_version: { constant_value: "3" },
            },
          },
        },
      },
    };
    expect(readPlan(withBlock, context()).report.instances[0]).toEqual({
      baseUrl: "https://hooks.eu.example",
      apiVersion: "3",
    });
    const unset = readPlan(base, context({ env: {} }));
    expect(unset.instances).toEqual([]);
    expect(unset.notes?.[0]).toMatch(
      /^terraformPlan: the review cannot tell which instance .*Set WEBHOOKS_BASE_URL and WEBHOOKS_TOKEN/,
    );
    expect(unset.notes?.[0]).not.toContain("pulumi config");
  });

  it("a module installed by init from elsewhere is found through .terraform/modules/modules.json", () => {
    const dir = tempDir("tf-remote-module-");
    mkdirSync(join(dir, ".terraform", "modules", "team"), { recursive: true });
    writeFileSync(join(dir, "main.tf"), 'module "team" {\n  source = "git::https://example.com/team.git"\n}\n');
    writeFileSync(
      join(dir, ".terraform", "modules", "modules.json"),
      JSON.stringify({
        Modules: [
          { Key: "", Dir: "." },
          { Key: "team", Dir: ".terraform/modules/team" },
        ],
      }),
    );
    writeFileSync(
      join(dir, ".terraform", "modules", "team", "hooks.tf"),
      '\n\nresource "webhooks_subscription" "accepted" {\n}\n',
    );
    const plan: PlanJson = {
      ...base,
      configuration: { root_module: { module_calls: { team: { source: "git::https://example.com/team.git" } } } },
    };
    const result = readPlan(
      plan,
      context({ absDir: dir, cwd: dir, ref: { kind: "terraform-directory", name: dir, file: "main.tf" } }),
    );
    expect(result.claims.find((c) => c.address === "module.team.webhooks_subscription.accepted")?.location).toEqual({
      file: ".terraform/modules/team/hooks.tf",
      line: 3,
    });
  });

  it("refuses a plan format of another major version", () => {
    expect(() => readPlan({ ...base, format_version: "2.0" }, context())).toThrow(
      /format_version 2\.0; this review reads 1\.x/,
    );
  });
});

describe("bad input, before anything runs", () => {
  const check =
    (dir: string, env: NodeJS.ProcessEnv = {}) =>
    () =>
      checkTerraformDirectory({ dir, absDir: join(FIXTURES, dir), env, cwd: FIXTURES });
  const refused = (run: () => unknown, message: RegExp) => {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(DriftError);
      expect((err as DriftError).code).toBe(DriftErrorCode.TerraformDirectory);
      expect((err as DriftError).message).toMatch(message);
      return;
    }
    throw new Error("not refused");
  };

  it("a missing directory, a file, a directory without .tf files, one not initialised: the flag, the value, what to do", () => {
    refused(
      check("no-such-dir"),
      /^--terraform no-such-dir: no such directory\. Name a Terraform\/OpenTofu working directory/,
    );
    refused(
      check("terraformPlan/main.tf"),
      /^--terraform terraformPlan\/main\.tf: not a directory\..*--terraform-state/,
    );
    refused(check("."), /^--terraform \.: holds no \.tf file/);
    refused(
      check("terraformPlan"),
      /^--terraform terraformPlan: not initialised \(no \.terraform\/ in it\)\. Run `tofu -chdir=terraformPlan init` first/,
    );
  });

  it("an initialised directory is the source, named by its first .tf file; TF_DATA_DIR is where init put it", () => {
    const dir = tempDir("tf-init-");
    cpSync(DIR, dir, { recursive: true });
    mkdirSync(join(dir, "data"));
    expect(checkTerraformDirectory({ dir: "d", absDir: dir, env: { TF_DATA_DIR: "data" }, cwd: dir })).toEqual({
      kind: "terraform-directory",
      name: "d",
      file: "main.tf",
    });
    refused(() => checkTerraformDirectory({ dir: "d", absDir: dir, env: {}, cwd: dir }), /not initialised/);
  });
});

/** A folder holding fake `tofu`/`terraform` executables, which log their arguments and play the plan fixture back. */
function fakeClis(names: readonly string[]): string {
  const bin = tempDir("tf-bin-");
  const script = [
    "#!/bin/sh",
    'echo "$@" >> "$FAKE_LOG"',
    'case "$1" in',
    '  plan) for a in "$@"; do case "$a" in -out=*) echo plan > "${a#-out=}";; esac; done',
    '    if [ -n "$FAKE_STDERR" ]; then printf "%s" "$FAKE_STDERR" >&2; exit 1; fi',
    '    if [ -n "$FAKE_FAIL" ]; then printf "╷\\n│ Error: Provider refused %s\\n│\\n│   on main.tf line 3:\\n│    3:   token = \\"%s\\"\\n╵\\n" "$WEBHOOKS_TOKEN" "$WEBHOOKS_TOKEN" >&2; exit 1; fi ;;',
    '  show) ls "$4" >> "$FAKE_LOG"; cat "$FAKE_PLAN" ;;',
    "esac",
  ].join("\n");
  for (const name of names) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

describe("the CLI", () => {
  it("--terraform-cli when given, else tofu on PATH, else terraform; none: what to install, and where", () => {
    const both = fakeClis(["tofu", "terraform"]);
    const terraformOnly = fakeClis(["terraform"]);
    expect(findTerraformCli({ PATH: both })).toEqual({ path: join(both, "tofu"), name: "tofu" });
    expect(findTerraformCli({ PATH: terraformOnly })).toEqual({
      path: join(terraformOnly, "terraform"),
      name: "terraform",
    });
    expect(findTerraformCli({ PATH: both }, join(both, "terraform"))).toEqual({
      path: join(both, "terraform"),
      name: "terraform",
    });
    expect(() => findTerraformCli({ PATH: both }, "/no/such/tofu")).toThrow(
      /^--terraform-cli \/no\/such\/tofu: no executable there/,
    );
    try {
      findTerraformCli({ PATH: tempDir("tf-empty-") });
      throw new Error("found a CLI");
    } catch (err) {
      expect((err as DriftError).code).toBe(DriftErrorCode.TerraformCliMissing);
      expect((err as Error).message).toContain(TERRAFORM_INSTALL_PAGES.tofu);
      expect((err as Error).message).toContain(TERRAFORM_INSTALL_PAGES.terraform);
    }
  });

  /** The fixture directory, initialised, and a run of the fake CLI on it. */
  function fakeRun(stateOnly: boolean, extra: NodeJS.ProcessEnv = {}) {
    const dir = tempDir("tf-dir-");
    cpSync(DIR, dir, { recursive: true });
    mkdirSync(join(dir, ".terraform"));
    const bin = fakeClis(["tofu"]);
    const log = join(bin, "log");
    const run = readTerraformDirectory({
      dir: "infra",
      absDir: dir,
      cli: { path: join(bin, "tofu"), name: "tofu" },
      stateOnly,
      env: { ...ENV, FAKE_LOG: log, FAKE_PLAN: join(DIR, `plan.${PLANS[0]}.json`), ...extra },
      cwd: dir,
    });
    return { run, log: () => readFileSync(log, "utf8").trim().split("\n") };
  }

  it("one plan, without the lock, never applied, read back by show -json; the plan file is gone after", async () => {
    const { run, log } = fakeRun(false);
    const result = await run;
    expect(result.report.source).toEqual({ kind: "terraform-directory", name: "infra", file: "main.tf" });
    const [plan, show, listed] = log();
    expect(plan).toMatch(/^plan -input=false -no-color -lock=false -out=(\S+review\.tfplan)$/);
    const planFile = plan!.split("-out=")[1]!;
    expect(show).toBe(`show -json -no-color ${planFile}`);
    expect(listed).toBe(planFile);
    expect(existsSync(planFile)).toBe(false);
    expect(log()).toHaveLength(3);
  });

  it("--state-only plans with -refresh-only", async () => {
    const { run, log } = fakeRun(true);
    expect((await run).report.compared).toEqual(["state"]);
    expect(log()[0]).toMatch(/ -refresh-only$/);
  });

  it("a failing plan: the CLI's error, what to do, and never the credential nor the source line that holds it", async () => {
    const { run } = fakeRun(false, { FAKE_FAIL: "1", WEBHOOKS_TOKEN: "tok-3f9a1c77e2" });
    const err = (await run.catch((e: unknown) => e)) as DriftError;
    expect(err.code).toBe(DriftErrorCode.TerraformPlanFailed);
    expect(err.message).toMatch(
      /^--terraform infra: `tofu plan` failed: Error: Provider refused .* Fix what it says \(`tofu -chdir=infra plan` shows it whole\)/,
    );
    expect(err.message).not.toContain("tok-3f9a1c77e2");
    expect(err.message).not.toContain("token =");
  });
});

describe("a plan refused by the instance", () => {
  it("quotes the refusal's own message first, then what points at it", async () => {
    const dir = tempDir("tf-dir-");
    cpSync(DIR, dir, { recursive: true });
    mkdirSync(join(dir, ".terraform"));
    const bin = fakeClis(["tofu"]);
    const pointer = (name: string) =>
      `Error: Read ${name}: not attempted: http://127.0.0.1:1 refused this run's credentials earlier (UNAUTHORIZED, HTTP 401); ${FULL_MESSAGE_ELSEWHERE}. Fix the credential and run again.\n\n  with webhooks_subscription.${name},\n`;
    const stderr = [
      pointer("a"),
      pointer("b"),
      pointer("c"),
      "Error: Read d: the instance refused the token (HTTP 401): set WEBHOOKS_TOKEN to a valid token.\n",
    ].join("\n");
    const err = (await readTerraformDirectory({
      dir: "infra",
      absDir: dir,
      cli: { path: join(bin, "tofu"), name: "tofu" },
      stateOnly: true,
      env: { ...ENV, FAKE_LOG: join(bin, "log"), FAKE_STDERR: stderr },
      cwd: dir,
    }).catch((e: unknown) => e)) as DriftError;
    expect(err.message).toMatch(
      /^--terraform infra: `tofu plan` failed: Error: Read d: the instance refused the token \(HTTP 401\)/,
    );
    expect(err.message).toContain("(and 1 more errors)");
  });
});

describe("after a killed apply", () => {
  it("the advice for an unmanaged subscription names adopt_identical and the directory's apply", () => {
    const advice = terraformAdoptionAdvice("infra/team", "9d0c7a3e-1111-4222-8333-444444444444", "terraform");
    expect(advice).toContain('set `adopt_identical = true` in the `provider "webhooks"` block');
    expect(advice).toContain("`terraform -chdir=infra/team apply`");
    expect(advice).toContain('`id = "9d0c7a3e-1111-4222-8333-444444444444"`');
  });
});

describe("adopting an unmanaged subscription into a directory", () => {
  const live: Subscription = {
    guid: "9D0C7A3E-1111-4222-8333-444444444444",
    webhook: Webhook.PacketCreated,
    filterObjectType: 8,
    filterObjectGuid: null,
    subscriberUrl: "https://hooks.example.com/packets",
    customHeader: "X-Token",
    customHeaderValue: "header-secret-5b2e",
    signature: "signature-secret-8c1f",
  };

  it("an import block: to the resource named by its host, path and event, id the GUID; no secret in it", () => {
    const name = adoptionNames([live]).get(live.guid)!;
    const { kind, snippet } = terraformAdoption(live, { kind: "terraform-directory", dir: "infra", cli: "tofu" }, name);
    expect(kind).toBe("terraform-import");
    expect(snippet).toBe(
      [
        "import {",
        "  to = webhooks_subscription.hooks_example_com_packets_packet_created",
        '  id = "9D0C7A3E-1111-4222-8333-444444444444"',
        "}",
      ].join("\n"),
    );
    expect(snippet).not.toContain("secret-");
  });
});

describe("a state file (--terraform-state)", () => {
  it("claims what it records, each at the file; compares and observes nothing", () => {
    const result = readTerraformStateFile({
      file: "fixtures/terraform.tfstate",
      absFile: join(FIXTURES, "terraform.tfstate"),
      cwd: __dirname,
      env: ENV,
    });
    expect(result.report).toEqual({
      source: { kind: "terraform-state", name: "fixtures/terraform.tfstate", file: "fixtures/terraform.tfstate" },
      status: "reviewed",
      // Its claims alone: the report must not call them in sync.
      compared: [],
      instances: [{ baseUrl: RECORDED_URL, apiVersion: "3" }],
    });
    expect(result.claims).toHaveLength(3);
    expect(result.claims[1]).toEqual({
      guid: "cc0c7a3e-1111-4222-8333-444444444444",
      address: 'module.regions.webhooks_subscription.per_region["eu"]',
      name: 'module.regions.webhooks_subscription.per_region["eu"]',
      location: { file: "fixtures/terraform.tfstate" },
    });
    expect(result.observations).toEqual([]);
    expect(result.instances).toEqual([{ baseUrl: RECORDED_URL, apiVersion: "3" }]);
  });

  it("one that cannot be read: a DriftError naming the flag and the file", () => {
    const read = () =>
      readTerraformStateFile({
        file: "nope.tfstate",
        absFile: join(FIXTURES, "nope.tfstate"),
        cwd: FIXTURES,
        env: ENV,
      });
    expect(read).toThrow(DriftError);
    expect(read).toThrow(/^--terraform-state nope\.tfstate: cannot read it \(ENOENT\)/);
  });
});
