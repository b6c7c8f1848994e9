/**
 * The review of several sources (drift/review/reviewSources.ts) with sources that say what they
 * claim and observe, against a real emulator for the instance the Terraform sources' provider
 * reaches through WEBHOOKS_*: the one classification (unmanaged and co-owned across tools),
 * the ignore file's entries (suppressing, expired, stale), the baseline, and the exit codes.
 */
import { describe, expect, it } from "vitest";
import { fingerprint } from "../../drift/review/classify";
import type { IgnoreEntry, SourceRef } from "../../drift/review/model";
import { reviewSources, type SourceReader } from "../../drift/review/reviewSources";
import { render } from "../../drift/render";
import type { SourceResult } from "../../drift/sources/source";
import { typeScopedBody, useEmulator } from "../support/emulatorHarness";

const DIR: SourceRef = { kind: "terraform-directory", name: "infra/team", file: "infra/team/main.tf" };
const STATE: SourceRef = { kind: "terraform-state", name: "other.tfstate", file: "other.tfstate" };
const TODAY = new Date("2026-11-27T10:00:00Z");

/** A Terraform source claiming `guids` (addresses in module.team), on the instance at `baseUrl`. */
function terraformSource(
  ref: SourceRef,
  baseUrl: string,
  guids: string[],
  extra: Partial<SourceResult> = {},
): SourceReader {
  const result: SourceResult = {
    report: { source: ref, status: "reviewed", compared: ["state", "configuration"], instances: [] },
    claims: guids.map((guid, i) => ({
      guid,
      address: `module.team.webhooks_subscription.s${i}`,
      name: `module.team.webhooks_subscription.s${i}`,
      location: { file: ref.file, line: 1 + i },
    })),
    observations: [],
    instances: [{ baseUrl, apiVersion: "3", adoptInto: { kind: "terraform-directory", dir: ref.name, cli: "tofu" } }],
    ...extra,
  };
  return { ref, read: () => Promise.resolve(result) };
}

describe("reviewSources", () => {
  const emulator = useEmulator();
  const env = () => ({ WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });

  it("one report: claimed by no source is unmanaged, claimed by two is co-owned, each with its location and a stable fingerprint", async () => {
    const [a, b, c] = await Promise.all(
      ["a", "b", "c"].map((n) =>
        emulator.subscribe(typeScopedBody({ SubscriberURL: `https://hooks.example.com/${n}` })),
      ),
    );
    const review = await reviewSources({
      sources: [
        terraformSource(DIR, emulator.url, [a!.GUID, b!.GUID], {
          observations: [
            {
              class: "differs-from-configuration",
              address: "module.team.webhooks_subscription.s0",
              guid: a!.GUID,
              fields: [
                {
                  field: "subscriberUrl",
                  secret: false,
                  declared: "https://x.example.com/",
                  live: "https://hooks.example.com/a",
                },
              ],
              message: "differs",
              location: { file: "infra/team/modules/hooks/main.tf", line: 3 },
            },
          ],
        }),
        terraformSource(STATE, emulator.url, [b!.GUID]),
      ],
      env: env(),
      now: () => TODAY,
    });
    expect(review.exitCode).toBe(2);
    // In the classes' order: differs, then unmanaged, then co-owned.
    expect(review.findings.map((f) => [f.class, f.guid])).toEqual([
      ["differs-from-configuration", a!.GUID],
      ["unmanaged", c!.GUID],
      ["co-owned", b!.GUID],
    ]);
    const coOwned = review.findings.find((f) => f.class === "co-owned")!;
    expect(coOwned.owners?.map((o) => [o.source.name, o.address])).toEqual([
      ["infra/team", "module.team.webhooks_subscription.s1"],
      ["other.tfstate", "module.team.webhooks_subscription.s0"],
    ]);
    expect(coOwned.advice).toContain("tofu state rm");
    const unmanaged = review.findings.find((f) => f.class === "unmanaged")!;
    expect(unmanaged).toMatchObject({ baseUrl: emulator.url, location: { file: "infra/team/main.tf" } });
    // The directory reaching the instance says how to take it over, adopt_identical included.
    expect(unmanaged.advice).toContain("adopt_identical = true");
    expect(review.findings[0]!.location).toEqual({ file: "infra/team/modules/hooks/main.tf", line: 3 });
    expect(unmanaged.fingerprint).toBe(fingerprint("unmanaged", null, c!.GUID.toUpperCase()));
    expect(review.summary).toMatchObject({ unmanaged: 1, "co-owned": 1, "differs-from-configuration": 1, deleted: 0 });
    expect(review.sources.map((s) => [s.source.name, s.subscriptions.map((r) => r.findings.length)])).toEqual([
      ["infra/team", [1, 1]],
      ["other.tfstate", [1]],
    ]);
    expect(unmanaged.adoption).toMatchObject({ kind: "terraform-import", into: DIR });

    // The markdown: each source with what it was compared with, each finding with the line that
    // declares it, and (no stack's report closing it) the command that runs the review again.
    const markdown = render(review, "md", {
      rerun: "webhook-subscriptions drift --terraform infra/team --terraform-state other.tfstate",
    });
    expect(markdown).toContain(
      "| Terraform directory | `infra/team` | state and configuration | reviewed: 2 subscriptions",
    );
    const differs = markdown.split("\n").find((line) => line.includes(a!.GUID))!;
    expect(differs).toContain(
      "`infra/team` `module.team.webhooks_subscription.s0`<br>`infra/team/modules/hooks/main.tf:3`",
    );
    expect(markdown.trimEnd().split("\n").at(-1)).toMatch(
      /^<sub>reviewed in \d+\.\ds · `webhook-subscriptions drift --terraform infra\/team --terraform-state other\.tfstate`<\/sub>$/,
    );
  });

  it("ignore entries suppress what they match until they expire; expired and stale entries are reported", async () => {
    const legacy = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://legacy.example.com/hook" }));
    const other = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://other.example.com/hook" }));
    const entries: IgnoreEntry[] = [
      { match: "https://legacy.example.com/", reason: "the old portal", owner: "team-a", expires: "2027-01-31" },
      { match: other.GUID, reason: "until the move", owner: "team-b", expires: "2026-11-26" },
      { match: "https://gone.example.com/", reason: "long gone", owner: "team-c" },
    ];
    const review = await reviewSources({
      sources: [terraformSource(DIR, emulator.url, [])],
      ignoreEntries: entries,
      env: env(),
      now: () => TODAY,
    });
    expect(review.findings.map((f) => f.guid)).toEqual([other.GUID]);
    expect(review.ignored.suppressed).toEqual([
      { match: "https://legacy.example.com/", fingerprints: [fingerprint("unmanaged", null, legacy.GUID)] },
    ]);
    expect(review.ignored.expired.map((e) => e.owner)).toEqual(["team-b"]);
    expect(review.ignored.stale.map((e) => e.owner)).toEqual(["team-c"]);
    expect(review.exitCode).toBe(2);
  });

  it("with a baseline, exits 2 only when a finding is new", async () => {
    const known = await emulator.subscribe(typeScopedBody());
    const terraform = [terraformSource(DIR, emulator.url, [])];
    const first = await reviewSources({ sources: terraform, env: env(), now: () => TODAY });
    const fingerprints = new Set(first.findings.map((f) => f.fingerprint));
    const again = await reviewSources({
      sources: terraform,
      env: env(),
      baseline: { file: "old.json", fingerprints },
    });
    expect(again).toMatchObject({ exitCode: 0, status: "drift", baseline: { file: "old.json", new: 0, known: 1 } });
    expect(again.findings.map((f) => [f.guid, f.baseline])).toEqual([[known.GUID, "known"]]);
    const fresh = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/new" }));
    const later = await reviewSources({
      sources: terraform,
      env: env(),
      baseline: { file: "old.json", fingerprints },
    });
    expect(later.exitCode).toBe(2);
    expect(later.findings.filter((f) => f.baseline === "new").map((f) => f.guid)).toEqual([fresh.GUID]);
  });

  it("a failed source is reported and makes the review exit 1; the others are still reviewed", async () => {
    const failing: SourceReader = {
      ref: STATE,
      read: () =>
        Promise.reject(Object.assign(new Error("`tofu plan` failed: boom"), { code: "TERRAFORM_PLAN_FAILED" })),
    };
    const stray = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/stray" }));
    const review = await reviewSources({
      sources: [failing, terraformSource(DIR, emulator.url, [])],
      env: env(),
    });
    expect(review.exitCode).toBe(1);
    // The source that failed may claim what looks unmanaged: no adoption is offered, and it says why.
    const unmanaged = review.findings.find((f) => f.guid === stray.GUID)!;
    expect(unmanaged.message).toContain("other.tfstate could not be read and may claim it");
    expect(unmanaged.advice).toContain("Review again once other.tfstate can be read");
    expect(unmanaged).not.toHaveProperty("adoption");
    expect(review.sources.map((s) => [s.source.name, s.status, s.error?.code, s.compared])).toEqual([
      ["other.tfstate", "error", "TERRAFORM_PLAN_FAILED", []],
      ["infra/team", "reviewed", undefined, ["state", "configuration"]],
    ]);
  });

  it("a stack's pending creates: the orphan each matches is a pending create, not unmanaged; the stack's report holds the commands that finish the run", async () => {
    const orphan = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/orphan" }));
    const stray = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/stray" }));
    const ref: SourceRef = { kind: "pulumi-stack", name: "prod", file: "Pulumi.yaml" };
    const urn = "urn:pulumi:prod::app::webhooks:index:WebhookSubscription::orders";
    const stack: SourceReader = {
      ref,
      read: () =>
        Promise.resolve({
          report: { source: ref, status: "reviewed", compared: ["state", "program"], instances: [] },
          claims: [],
          observations: [],
          instances: [{ baseUrl: emulator.url, apiVersion: "3" }],
          pendingCreates: [
            { urn, guid: orphan.GUID.toLowerCase(), key: "any" },
            { urn: `${urn}-2`, key: "nothing sent matches this" },
          ],
        }),
    };
    const review = await reviewSources({ sources: [stack], env: env(), now: () => TODAY });
    expect(review.findings.map((f) => [f.class, f.guid, f.owner?.address])).toEqual([
      ["unmanaged", stray.GUID, undefined],
      ["pending-create", orphan.GUID, urn],
      ["pending-create", null, `${urn}-2`],
    ]);
    expect(review.sources[0]!.recovery).toEqual([
      "pulumi refresh --stack prod --clear-pending-creates --yes",
      `WEBHOOKS_ADOPT_IDENTICAL=true pulumi up --stack prod --target ${urn} --yes`,
      "pulumi up --stack prod --yes",
    ]);
    expect(review.findings.find((f) => f.guid === orphan.GUID)?.subscription).toMatchObject({
      subscriberUrl: "https://hooks.example.com/orphan",
      hasCustomHeaderValue: false,
    });
  });

  it("an ignored subscription is in no finding and counted nowhere: the summary, the findings and every source agree", async () => {
    const ignored = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://legacy.example.com/ignored" }));
    const shown = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/shown" }));
    const review = await reviewSources({
      sources: [terraformSource(DIR, emulator.url, [])],
      ignoreEntries: [{ match: "https://legacy.example.com/", reason: "the old portal", owner: "team-a" }],
      env: env(),
      now: () => TODAY,
    });
    expect(review.findings.filter((f) => f.class === "unmanaged").map((f) => f.guid)).toEqual([shown.GUID]);
    expect(review.summary.unmanaged).toBe(1);
    expect(JSON.stringify(review.findings)).not.toContain(ignored.GUID);
  });

  it("a managed subscription whose finding is ignored is not called in sync, in any format", async () => {
    const a = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/a" }));
    const differs = {
      class: "differs-from-configuration" as const,
      address: "module.team.webhooks_subscription.s0",
      guid: a.GUID,
      fields: [],
      message: "differs",
      location: { file: "infra/team/main.tf", line: 1 },
    };
    const review = await reviewSources({
      sources: [terraformSource(DIR, emulator.url, [a.GUID], { observations: [differs] })],
      ignore: [a.GUID],
      env: env(),
    });
    expect(review.findings).toEqual([]);
    const [managed] = review.sources[0]!.subscriptions;
    expect(managed!.findings).toEqual(review.ignored.suppressed[0]!.fingerprints);
    const markdown = render(review, "md");
    expect(markdown).not.toMatch(/^\| in sync /m);
    expect(markdown).not.toContain("managed subscription is in sync");
    expect(render(review, "junit")).toContain('<skipped message="its findings are ignored (--ignore, --ignore-file)"');
    expect(render(review, "html")).not.toMatch(/<td>in sync<\/td>/);
  });

  it("an empty custom header value is no value: not said to be set", async () => {
    const empty = await emulator.subscribe(
      typeScopedBody({
        SubscriberURL: "https://hooks.example.com/empty",
        CustomHeader: "X-Key",
        CustomHeaderValue: "",
      }),
    );
    const review = await reviewSources({ sources: [terraformSource(DIR, emulator.url, [])], env: env() });
    expect(review.findings.find((f) => f.guid === empty.GUID)?.subscription).toMatchObject({
      customHeader: "X-Key",
      hasCustomHeaderValue: false,
    });
  });

  it("runs the sources side by side, a few at a time, in command-line order", async () => {
    let running = 0;
    let most = 0;
    const slow = (n: number): SourceReader => ({
      ref: { ...DIR, name: `d${n}` },
      read: async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return terraformSource({ ...DIR, name: `d${n}` }, emulator.url, [
          `00000000-0000-4000-8000-00000000000${n}`,
        ]).read();
      },
    });
    const stack: SourceReader = {
      ref: { kind: "pulumi-stack", name: "dev", file: "Pulumi.yaml" },
      read: () => Promise.reject(new Error("no engine here")),
    };
    const review = await reviewSources({
      sources: [stack, ...[0, 1, 2, 3, 4, 5].map(slow)],
      env: env(),
      concurrency: 3,
    });
    expect(most).toBe(3);
    expect(review.sources[0]).toMatchObject({ source: { name: "dev" }, status: "error", compared: [] });
    expect(review.sources.slice(1).map((s) => s.source.name)).toEqual(["d0", "d1", "d2", "d3", "d4", "d5"]);
  });
});
