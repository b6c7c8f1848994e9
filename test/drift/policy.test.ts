/** `drift --policy`: the pack's rules held against live subscriptions, the report's policy section, the exit code. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command";
import { parseDriftArgs } from "../../cli/drift";
import { formatMarkdown } from "../../drift/markdown";
import { reviewPolicy, withPolicy } from "../../drift/policy";
import { driftReport, errorReport, type ReportContext } from "../../drift/report";
import { parsePolicySettings } from "../../policy/settings";
import type { Subscription } from "../../provider/wire";
import { MANUAL_WITH_HEADER } from "./fixtures/live";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const context: ReportContext = {
  stack: "prod",
  backend: "file:///state",
  instance: { baseUrl: "http://127.0.0.1:1234", apiVersion: "3" },
  comparison: "state-and-program",
  startedAt: Date.now(),
};
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

function review(live: readonly Subscription[], s = settings) {
  return reviewPolicy("policy.json", s, [
    {
      baseUrl: "http://127.0.0.1:1234",
      apiVersion: "3",
      live,
      managedNames: new Map([[managed.guid, "orders"]]),
    },
  ]);
}

describe("reviewPolicy", () => {
  it("reports each violation of every live subscription once, managed or not, mandatory first", () => {
    const result = review([managed, MANUAL_WITH_HEADER]);
    expect(result.violations.map((v) => [v.rule, v.guid, v.resource, v.field])).toEqual([
      ["object-scope-required", MANUAL_WITH_HEADER.guid, null, "filterObjectGuid"],
      ["subscriber-host-allowed", MANUAL_WITH_HEADER.guid, null, "subscriberUrl"],
    ]);
    expect(result.violations[1]).toMatchObject({
      subscriberUrl: "https://manual.example.org/hook",
      enforcementLevel: "mandatory",
      message: expect.stringContaining('sends to host "manual.example.org", which is not allowed'),
    });
    expect(result).toMatchObject({ file: "policy.json", mandatory: 2, advisory: 0 });
    expect(result.rules.map((r) => r.name)).not.toContain("custom-header-required");
    expect(JSON.stringify(result)).not.toContain("header-secret");
  });

  it("names the managed resource, and a duplicate's first subscription", () => {
    const twin = { ...managed, guid: "bbbbbbbb-0000-4000-8000-000000000003" };
    const [dup] = review([managed, twin]).violations;
    expect(dup).toMatchObject({ rule: "no-duplicate-subscriptions", guid: twin.guid, resource: null });
    expect(dup!.message).toContain(`through WebhookSubscription "orders" (${managed.guid})`);
  });
});

describe("the report", () => {
  it("exits 2 on a mandatory violation even without drift; advisory ones leave it 0; errors stay 1", () => {
    const clean = driftReport(context, [], []);
    expect(withPolicy(clean, review([MANUAL_WITH_HEADER])).exitCode).toBe(2);
    const advisory = review([MANUAL_WITH_HEADER], parsePolicySettings({ all: "advisory", allowedSubscriberHosts: [] }));
    expect(advisory).toMatchObject({ mandatory: 0, advisory: 2 });
    expect(withPolicy(clean, advisory).exitCode).toBe(0);
    const failed = errorReport(context, { code: "X", message: "no" });
    expect(withPolicy(failed, review([MANUAL_WITH_HEADER])).exitCode).toBe(1);
  });

  it("shows a policy section in markdown: the verdict, then one row per violation; the re-run command keeps --policy", () => {
    const text = formatMarkdown(withPolicy(driftReport(context, [], []), review([MANUAL_WITH_HEADER])));
    const lines = text.split("\n");
    const start = lines.findIndex((l) => l.startsWith("**Policy"));
    expect(lines.slice(start, start + 5)).toEqual([
      "**Policy `policy.json`:** 2 mandatory violations (the review exits 2), 0 advisory.",
      "",
      "| Level | Rule | GUID | Resource | Subscriber URL | What to change |",
      "|---|---|---|---|---|---|",
      expect.stringMatching(
        /^\| mandatory \| `object-scope-required` \| `3f2a9c1d-0000-4000-8000-000000000001` \| \*unmanaged\* \| `https:\/\/manual\.example\.org\/hook` \| filterObjectGuid is not set for SpecificBusinessObjectUpdated/,
      ),
    ]);
    expect(text).toContain("npx webhook-subscriptions drift --stack prod --policy policy.json");
    expect(text).not.toContain("header-secret");
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
