/**
 * The JUnit renderer, read back by a JUnit parser (junit2json, over xml2js in strict mode) as a
 * CI system reads the file: the suites, the cases and their counts, the failures' and errors'
 * text unescaped again, and no secret value anywhere.
 */
import { parse, type TestCase, type TestSuite, type TestSuites } from "junit2json";
import { describe, expect, it } from "vitest";
import { renderJunit, UNCLAIMED_SUITE } from "../../drift/render/junit";
import { CLASS_TITLES, type Review } from "../../drift/review/model";
import { everyClassReview, FINDINGS, MODULE_ADDRESS, withFailedSources } from "./fixtures/review";

async function readBack(review: Review): Promise<TestSuites> {
  return (await parse(renderJunit(review))) as TestSuites;
}

const suite = (report: TestSuites, name: string): TestSuite => report.testsuite!.find((s) => s.name === name)!;
const testcase = (s: TestSuite, name: string): TestCase => s.testcase!.find((c) => c.name === name)!;

describe("renderJunit", () => {
  it("has a suite per source and one for unclaimed findings, a case per reviewed subscription and per finding", async () => {
    const review = withFailedSources(everyClassReview());
    const report = await readBack(review);
    expect(report.testsuite!.map((s) => s.name)).toEqual([
      "pulumi-stack dev",
      "terraform-directory infra/team",
      "terraform-state old.tfstate",
      "pulumi-stack legacy",
      UNCLAIMED_SUITE,
    ]);
    const failedSources = 2;
    const subscriptions = review.sources.filter((s) => s.status === "reviewed").flatMap((s) => s.subscriptions);
    const undetermined = review.sources.filter((s) => s.status === "undetermined").flatMap((s) => s.subscriptions);
    expect(report).toMatchObject({
      tests: subscriptions.length + undetermined.length + review.findings.length + failedSources,
      failures: subscriptions.filter((r) => r.findings.length > 0).length + review.findings.length,
      errors: failedSources,
      skipped: undetermined.length,
    });
    for (const s of report.testsuite!) {
      expect(s.tests).toBe(s.testcase!.length);
      expect(s.failures).toBe(s.testcase!.filter((c) => c.failure).length);
      expect(s.errors).toBe(s.testcase!.filter((c) => c.error).length);
      expect(s.skipped).toBe(s.testcase!.filter((c) => c.skipped).length);
      for (const c of s.testcase!) expect(c.classname).toBe(s.name);
    }

    const terraform = suite(report, "terraform-directory infra/team");
    expect(terraform.testcase!.map((c) => c.name)).toEqual([
      'module.team.webhooks_subscription.by_key["a&b"]',
      MODULE_ADDRESS,
      "webhooks_subscription.invoices",
      "webhooks_subscription.shared",
      `differs from the configuration: ${MODULE_ADDRESS}`,
      "deleted out of band: webhooks_subscription.invoices",
    ]);
    expect(testcase(terraform, 'module.team.webhooks_subscription.by_key["a&b"]').failure).toBeUndefined();
    expect(testcase(terraform, MODULE_ADDRESS).failure).toEqual([
      {
        message: "differs from the configuration",
        type: "drift",
        inner: "differs from the configuration: A refresh accepted a header the configuration does not declare.",
      },
    ]);
    expect(suite(report, UNCLAIMED_SUITE).testcase!.map((c) => c.name)).toEqual([
      "unmanaged: c3c3c3c3-0000-4000-8000-000000000005",
      "policy: c3c3c3c3-0000-4000-8000-000000000005",
    ]);
  });

  it("fails each finding's case with its class, message and detail, escaped and read back intact", async () => {
    const report = await readBack(everyClassReview());
    const dev = suite(report, "pulumi-stack dev");
    const finding = FINDINGS[0]!;
    const failed = testcase(dev, `${CLASS_TITLES[finding.class]}: ${finding.owner!.address}`);
    expect(failed.failure![0]).toMatchObject({ message: finding.message, type: "differs-from-state" });
    expect(failed.failure![0]!.inner!.split("\n")).toEqual([
      `pulumi-stack dev: ${finding.owner!.address}`,
      `GUID: ${finding.guid}`,
      "instance: https://tenant.example.com",
      "location: app/index.ts:12",
      "subscriberUrl: recorded https://hooks.example.com/orders, live https://evil.example/?a=1&b=<2>",
      "signature: secret differs",
      finding.message,
      finding.advice,
      "baseline: known",
    ]);
    const coOwned = testcase(dev, "co-owned: urn:pulumi:dev::app::webhooks:index:WebhookSubscription::shared-hook");
    expect(coOwned.failure![0]!.inner).toContain("terraform-directory infra/team: webhooks_subscription.shared");
  });

  it("errors the sources that could not be reviewed", async () => {
    const report = await readBack(withFailedSources(everyClassReview()));
    expect(suite(report, "terraform-state old.tfstate").testcase).toEqual([
      {
        name: "review of terraform-state old.tfstate",
        classname: "terraform-state old.tfstate",
        file: "old.tfstate",
        error: [
          {
            message: "old.tfstate is not JSON <line 1>",
            type: "unreadable-state",
            inner: "old.tfstate is not JSON <line 1>",
          },
        ],
      },
    ]);
    const legacy = suite(report, "pulumi-stack legacy").testcase!;
    expect(legacy[0]!.error![0]).toMatchObject({
      message: "The instance speaks the legacy API & cannot be listed.",
      type: "undetermined",
    });
    // Its subscriptions were not compared: skipped, never passed.
    expect(legacy.slice(1)).toMatchObject([
      { name: expect.stringContaining("old-hook"), skipped: [expect.anything()] },
    ]);
  });

  it("never prints a secret field's value, whatever the model holds, nor a character XML cannot hold", async () => {
    const review = everyClassReview();
    const leaky: Review = {
      ...review,
      findings: [
        {
          ...FINDINGS[0]!,
          message: "A live value holds a control character: \u0001.",
          fields: [{ field: "signature", secret: true, recorded: "sig-secret", live: "sig-other" }],
        },
      ],
    };
    const xml = renderJunit(leaky);
    expect(xml).not.toMatch(/sig-secret|sig-other/);
    expect(xml).toContain("signature: secret differs");
    const report = await readBack(leaky);
    const failure = testcase(
      suite(report, "pulumi-stack dev"),
      `differs from the state: ${FINDINGS[0]!.owner!.address}`,
    );
    expect(failure.failure![0]!.message).toBe("A live value holds a control character: .");
  });
});
