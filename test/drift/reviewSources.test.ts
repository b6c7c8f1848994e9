/**
 * The review of several sources (drift/review/reviewSources.ts) with sources that say what they
 * claim and observe, against a real emulator for the instance the Terraform sources' provider
 * reaches through WEBHOOKS_*: the one classification (unmanaged and co-owned across tools),
 * the ignore file's entries (suppressing, expired, stale), the baseline, and the exit codes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { driftReport } from "../../drift/report";
import { fingerprint } from "../../drift/review/classify";
import type { IgnoreEntry, SourceRef } from "../../drift/review/model";
import { reviewSources, type StackReader, type TerraformReader } from "../../drift/review/reviewSources";
import { render } from "../../drift/render";
import type { SourceResult } from "../../drift/sources/source";
import { stackRef, stackSource } from "../../drift/sources/pulumiStack";
import { typeScopedBody, useEmulator } from "../support/emulatorHarness";
import { tempDirs } from "../support/tempDirs";

const DIR: SourceRef = { kind: "terraform-directory", name: "infra/team", file: "infra/team/main.tf" };
const STATE: SourceRef = { kind: "terraform-state", name: "other.tfstate", file: "other.tfstate" };
const TODAY = new Date("2026-11-27T10:00:00Z");

/** A Terraform source claiming `guids` (addresses in module.team), on the instance at `baseUrl`. */
function terraformSource(
  ref: SourceRef,
  baseUrl: string,
  guids: string[],
  extra: Partial<SourceResult> = {},
): TerraformReader {
  const result: SourceResult = {
    summary: { source: ref, comparison: "state-and-program", status: "reviewed", claimed: guids.length },
    claims: guids.map((guid, i) => ({
      guid,
      address: `module.team.webhooks_subscription.s${i}`,
      location: { file: ref.file, line: 1 + i },
    })),
    observations: [],
    instances: [{ baseUrl, apiVersion: "3" }],
    ...extra,
  };
  return { ref, read: () => Promise.resolve(result) };
}

describe("reviewSources", () => {
  const emulator = useEmulator();
  const tempDir = tempDirs();
  const env = () => ({ WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });

  it("one report: claimed by no source is unmanaged, claimed by two is co-owned, each with its location and a stable fingerprint", async () => {
    const [a, b, c] = await Promise.all(
      ["a", "b", "c"].map((n) =>
        emulator.subscribe(typeScopedBody({ SubscriberURL: `https://hooks.example.com/${n}` })),
      ),
    );
    const review = await reviewSources({
      terraform: [
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
      stacks: [],
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
    expect(review.reviewed.map((r) => [r.owner.source.name, r.findings.length])).toEqual([
      ["infra/team", 1],
      ["infra/team", 1],
      ["other.tfstate", 1],
    ]);

    // The markdown: each source with what it was compared with, each finding with the line that
    // declares it, and (no stack's report closing it) the command that runs the review again.
    const markdown = render(review, "md", {
      invocation: "executable",
      reviewFlags: ["--terraform", "infra/team", "--terraform-state", "other.tfstate"],
    });
    expect(markdown).toContain(
      "| Terraform directory | `infra/team` | state and configuration | 2 subscriptions claimed |",
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
      terraform: [terraformSource(DIR, emulator.url, [])],
      stacks: [],
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
    const first = await reviewSources({ terraform, stacks: [], env: env(), now: () => TODAY });
    const fingerprints = new Set(first.findings.map((f) => f.fingerprint));
    const again = await reviewSources({
      terraform,
      stacks: [],
      env: env(),
      baseline: { file: "old.json", fingerprints },
    });
    expect(again).toMatchObject({ exitCode: 0, status: "drift", baseline: { file: "old.json", new: 0, known: 1 } });
    expect(again.findings.map((f) => [f.guid, f.baseline])).toEqual([[known.GUID, "known"]]);
    const fresh = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/new" }));
    const later = await reviewSources({
      terraform,
      stacks: [],
      env: env(),
      baseline: { file: "old.json", fingerprints },
    });
    expect(later.exitCode).toBe(2);
    expect(later.findings.filter((f) => f.baseline === "new").map((f) => f.guid)).toEqual([fresh.GUID]);
  });

  it("a failed source is reported and makes the review exit 1; the others are still reviewed", async () => {
    const failing: TerraformReader = {
      ref: STATE,
      read: () =>
        Promise.reject(Object.assign(new Error("`tofu plan` failed: boom"), { code: "TERRAFORM_PLAN_FAILED" })),
    };
    const review = await reviewSources({
      terraform: [failing, terraformSource(DIR, emulator.url, [])],
      stacks: [],
      env: env(),
    });
    expect(review.exitCode).toBe(1);
    expect(review.sources.map((s) => [s.source.name, s.status, s.error?.code])).toEqual([
      ["other.tfstate", "error", "TERRAFORM_PLAN_FAILED"],
      ["infra/team", "reviewed", undefined],
    ]);
  });

  it("a stack's own report shows under each subscription's name the line its finding points at", async () => {
    const cwd = tempDir("review-lines-");
    const workDir = join(cwd, "app");
    mkdirSync(workDir);
    writeFileSync(join(workDir, "Pulumi.yaml"), "name: app\nruntime: nodejs\n");
    writeFileSync(
      join(workDir, "index.ts"),
      'import { WebhookSubscription } from "x";\nnew WebhookSubscription("gone", {});\n',
    );
    const gone = {
      urn: "urn:pulumi:prod::app::webhooks:index:WebhookSubscription::gone",
      name: "gone",
      guid: "00000000-0000-4000-8000-00000000beef",
      declaredAt: { file: "index.ts", line: 2 },
      status: "deleted" as const,
      changes: [],
    };
    const report = driftReport(
      {
        stack: "prod",
        backend: null,
        instance: { baseUrl: emulator.url, apiVersion: "3" },
        comparison: "state",
        startedAt: 0,
      },
      [gone],
      [],
    );
    const ref = stackRef("prod", workDir, cwd);
    const stack: StackReader = { ref, read: () => Promise.resolve(stackSource(report, ref, workDir)) };
    const review = await reviewSources({ terraform: [], stacks: [stack], env: env() });
    expect(render(review, "md")).toContain("| `gone`<br>`app/index.ts:2` |");
  });

  it("runs sources of one kind side by side, a few at a time, and hands the stacks the Terraform sources' claims", async () => {
    let running = 0;
    let most = 0;
    const slow = (n: number): TerraformReader => ({
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
    const seen: [string, boolean | undefined][][] = [];
    const stack: StackReader = {
      ref: { kind: "pulumi-stack", name: "dev", file: "Pulumi.yaml" },
      read: ({ otherTools }) => {
        seen.push(otherTools.map((t) => [t.file, t.directory]));
        return Promise.reject(new Error("no engine here"));
      },
    };
    const review = await reviewSources({
      terraform: [0, 1, 2, 3, 4, 5].map(slow),
      stacks: [stack],
      env: env(),
      concurrency: 3,
    });
    expect(most).toBe(3);
    // Each as a directory: a stack's report names it with --terraform, not --terraform-state.
    expect(seen).toEqual([["d0", "d1", "d2", "d3", "d4", "d5"].map((dir) => [dir, true])]);
    expect(review.sources[0]).toMatchObject({ source: { name: "dev" }, status: "error" });
  });
});
