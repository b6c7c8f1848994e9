/** `drift --policy`: the pack's rules held against live subscriptions, the report's policy section, the exit code. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command";
import { parseDriftArgs } from "../../cli/drift";
import { byClassThenWhere } from "../../drift/review/classify";
import type { SourceRef } from "../../drift/review/model";
import { policyFindings } from "../../drift/review/policy";
import { reviewSources, type SourceReader } from "../../drift/review/reviewSources";
import { render } from "../../drift/render";
import { parsePolicySettings } from "../../policy/settings";
import type { Subscription } from "../../provider/wire";
import { MANUAL_WITH_HEADER } from "./fixtures/live";
import { typeScopedBody, useEmulator } from "../support/emulatorHarness";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const BASE_URL = "http://127.0.0.1:1234";
const STACK: SourceRef = { kind: "pulumi-stack", name: "prod", file: "Pulumi.yaml" };
const TF: SourceRef = { kind: "terraform-directory", name: "infra", file: "infra/main.tf" };
const managed: Subscription = {
  ...MANUAL_WITH_HEADER,
  guid: "aaaaaaaa-0000-4000-8000-000000000002",
  webhook: 3,
  subscriberUrl: "https://hooks.example.com/orders",
};
const settings = parsePolicySettings({
  allowedSubscriberHosts: ["hooks.example.com"],
  "no-legacy-api-version": "disabled",
});

/** The policy findings of `live` on one instance, `managed` claimed by `owner` as `orders`. */
function review(live: readonly Subscription[], s = settings, owner: SourceRef = STACK) {
  const claim = {
    guid: managed.guid,
    address:
      owner.kind === "pulumi-stack"
        ? "urn:pulumi:prod::app::webhooks:index:WebhookSubscription::orders"
        : "webhooks_subscription.orders",
    name: "orders",
    location: { file: owner.file, line: 7 },
  };
  return policyFindings({ file: "policy.json", settings: s }, [{ baseUrl: BASE_URL, apiVersion: "3", live }], {
    claimOf: (guid) => (guid === managed.guid ? { source: owner, claim } : undefined),
    reaching: () => owner,
  });
}

describe("policyFindings", () => {
  it("reports each violation of every live subscription once, managed or not, mandatory first", () => {
    const result = review([managed, MANUAL_WITH_HEADER]);
    expect(
      result.findings.sort(byClassThenWhere).map((f) => [f.rule?.name, f.guid, f.owner?.address, f.fields[0]?.field]),
    ).toEqual([
      ["object-scope-required", MANUAL_WITH_HEADER.guid, BASE_URL, "filterObjectGuid"],
      ["subscriber-host-allowed", MANUAL_WITH_HEADER.guid, BASE_URL, "subscriberUrl"],
    ]);
    expect(result.findings[1]).toMatchObject({
      class: "policy",
      rule: { enforcementLevel: "mandatory" },
      fields: [{ field: "subscriberUrl", secret: false, live: "https://manual.example.org/hook" }],
      message: expect.stringContaining('sends to host "manual.example.org", which is not allowed'),
    });
    expect(result.scope.file).toBe("policy.json");
    expect(result.scope.rules.map((r) => r.name)).not.toContain("custom-header-required");
    expect(JSON.stringify(result)).not.toContain("header-secret");
  });

  it("names the managed resource, and a duplicate's first subscription; a claimed one points at its declaring line", () => {
    const twin = { ...managed, guid: "bbbbbbbb-0000-4000-8000-000000000003" };
    const [dup] = review([managed, twin]).findings;
    expect(dup).toMatchObject({
      rule: { name: "no-duplicate-subscriptions" },
      guid: twin.guid,
      owner: { address: BASE_URL },
    });
    expect(dup!.message).toContain(`through WebhookSubscription "orders" (${managed.guid})`);
    const onManaged = review([{ ...managed, subscriberUrl: "https://elsewhere.example.org/x" }]).findings[0]!;
    expect(onManaged.location).toEqual({ file: "Pulumi.yaml", line: 7 });
  });

  it("names a Terraform source's field as its configuration writes it", () => {
    const [finding] = review([{ ...managed, subscriberUrl: "https://elsewhere.example.org/x" }], settings, TF).findings;
    expect(finding!.fields.map((f) => f.field)).toEqual(["subscriber_url"]);
    // Its message too, and what to do, naming where it is declared.
    expect(finding!.message).toContain("subscriber_url");
    expect(finding!.message).not.toMatch(/subscriberUrl|WebhookSubscription "/);
    expect(finding!.advice).toBe(
      "Change it in infra (webhooks_subscription.orders) as the rule says and apply, or change the rule in policy.json.",
    );
  });
});

describe("the review", () => {
  const emulator = useEmulator();
  const source = (): SourceReader => ({
    ref: STACK,
    read: () =>
      Promise.resolve({
        report: { source: STACK, status: "reviewed", compared: ["state"], instances: [] },
        claims: [],
        observations: [],
        instances: [{ baseUrl: emulator.url, apiVersion: "3" }],
      }),
  });
  const env = () => ({ WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });

  it("exits 2 on a mandatory violation; advisory ones do not count; the rules that were on are listed", async () => {
    await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://manual.example.org/hook" }));
    const ignoreTheRest = ["no-duplicate-subscriptions", "object-scope-required"].map((r) => [r, "disabled"]);
    const mandatory = await reviewSources({
      sources: [source()],
      env: env(),
      ignore: [],
      policy: { file: "policy.json", settings: parsePolicySettings({ allowedSubscriberHosts: ["hooks.example.com"] }) },
    });
    expect(mandatory.findings.filter((f) => f.class === "policy").map((f) => f.rule?.name)).toContain(
      "subscriber-host-allowed",
    );
    expect(mandatory.policy?.rules.length).toBeGreaterThan(0);
    const advisory = await reviewSources({
      sources: [source()],
      env: env(),
      // The subscription itself is left unmanaged-ignored: only the policy counts here.
      ignore: [],
      policy: {
        file: "policy.json",
        settings: parsePolicySettings({
          all: "advisory",
          allowedSubscriberHosts: [],
          ...Object.fromEntries(ignoreTheRest),
        }),
      },
    });
    const policy = advisory.findings.filter((f) => f.class === "policy");
    expect(policy.length).toBeGreaterThan(0);
    expect(policy.every((f) => f.advisory)).toBe(true);
    // Exit 2 here is the unmanaged subscription's; the advisory findings alone add nothing to it.
    expect(advisory.exitCode).toBe(2);
    // What fails the review, the action's new-findings: the unmanaged one, not the advisory ones.
    expect(advisory.failing).toBe(1);
    expect(advisory.findings.filter((f) => !f.advisory).map((f) => f.class)).toEqual(["unmanaged"]);

    // Every format shows the advisory findings as less than drift, the mandatory ones as errors.
    const levels = (review: typeof advisory) => {
      const sarif = JSON.parse(render(review, "sarif")) as { runs: { results: { ruleId: string; level: string }[] }[] };
      const quality = JSON.parse(render(review, "codequality")) as { check_name: string; severity: string }[];
      const junit = render(review, "junit");
      return {
        sarif: [...new Set(sarif.runs[0]!.results.filter((r) => r.ruleId === "policy").map((r) => r.level))],
        codequality: [...new Set(quality.filter((i) => i.check_name === "policy").map((i) => i.severity))],
        junitFailures: [...junit.matchAll(/<failure[^>]*type="policy"/g)].length,
        junitAdvisory: [...junit.matchAll(/<skipped message="advisory: /g)].length,
      };
    };
    expect(levels(advisory)).toEqual({
      sarif: ["warning"],
      codequality: ["minor"],
      junitFailures: 0,
      junitAdvisory: policy.length,
    });
    expect(levels(mandatory)).toMatchObject({ sarif: ["error"], codequality: ["major"], junitAdvisory: 0 });
    expect(levels(mandatory).junitFailures).toBeGreaterThan(0);
  });
});

describe("--policy on the command line", () => {
  const dir = tempDir("policy-flag-");
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return name;
  };

  it("reads the settings file, relative to where the command (or npm) was started", () => {
    const name = file("good.json", JSON.stringify({ allowedSubscriberHosts: ["*.example.org"] }));
    expect(parseDriftArgs(["--stack", "dev", "--policy", name], {}, dir)).toMatchObject({
      policy: { file: name, settings: { allowedSubscriberHosts: ["*.example.org"] } },
    });
  });

  it("refuses a bad file with one line per bad key, before anything runs", () => {
    const bad = file(
      "bad.json",
      JSON.stringify({ allowedSubscriberHosts: ["https://x.example.org"], "https-only": "mandatory" }),
    );
    let error: unknown;
    try {
      parseDriftArgs(["--stack", "dev", "--policy", bad], {}, dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message.split("\n").slice(0, 3)).toEqual([
      "--policy: Invalid policy file bad.json:",
      '  - allowedSubscriberHosts[0] must be a host name such as "hooks.example.com", or "*.example.org" for every host under example.org (no scheme, port or path), got: "https://x.example.org"',
      "  - https-only is not a setting (known: enforcementLevel, all, allowedSubscriberHosts, subscriber-host-allowed, subscriber-url-https, custom-header-required, object-scope-required, no-duplicate-subscriptions, no-legacy-api-version)",
    ]);
    expect(() => parseDriftArgs(["--stack", "dev", "--policy", file("x.json", "{ nope")], {}, dir)).toThrow(
      /--policy: The policy file "x\.json" is not JSON/,
    );
    expect(() => parseDriftArgs(["--stack", "dev", "--policy", "missing.json"], {}, dir)).toThrow(
      /--policy: Cannot read the policy file "missing\.json"/,
    );
  });
});

describe("a live subscription's header value, as the policy sees it", () => {
  it("an empty value is none: the rule that wants one is broken, as the review's own rows say", () => {
    const live = { ...managed, customHeader: "X-Key", customHeaderValue: "" };
    const [finding] = review(
      [live],
      parsePolicySettings({ "custom-header-required": "mandatory", all: "disabled" }),
    ).findings;
    expect(finding).toMatchObject({
      rule: { name: "custom-header-required" },
      fields: [{ field: "customHeaderValue", secret: true }],
    });
  });
});
