/**
 * `drift --merge` (drift/review/merge.ts, readParts.ts): a fleet's sources reviewed in parts (a CI
 * matrix's cells, each writing its JSON report) and merged give the review of all of them at once,
 * against a real emulator: the same sources, findings (fingerprints, classes, owners, adoption),
 * counts, status and exit code; a subscription no source claims is unmanaged once, one claimed by
 * sources of two parts co-owned once. Parts that do not make one review are refused by their file.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adoptionNames } from "../../drift/review/adoptionNames";
import { checkParts, mergeReviews, type MergePart } from "../../drift/review/merge";
import type { Review, SourceRef } from "../../drift/review/model";
import { parsePart, readParts } from "../../drift/review/readParts";
import { reviewSources, type SourceReader } from "../../drift/review/reviewSources";
import { FORMATS, render } from "../../drift/render";
import type { Claim, Observation, ReachedInstance, SourceResult } from "../../drift/sources/source";
import { parsePolicySettings } from "../../policy/settings";
import { typeScopedBody, useEmulator } from "../support/emulatorHarness";
import { parseReview } from "../support/reviewJson";
import { tempDirs } from "../support/tempDirs";

const tempDir = tempDirs();
const TODAY = new Date("2026-11-27T10:00:00Z");
const DEV: SourceRef = { kind: "pulumi-stack", name: "dev", file: "Pulumi.yaml" };
const PROD: SourceRef = { kind: "pulumi-stack", name: "prod", file: "Pulumi.yaml" };
const DIR: SourceRef = { kind: "terraform-directory", name: "infra/team", file: "infra/team/main.tf" };
const POLICY = {
  file: "policy.json",
  settings: parsePolicySettings({ allowedSubscriberHosts: ["hooks.example.com"] }),
};

/** A source as its reader returns it: claiming `claims` (name → GUID) on the instance at `baseUrl`. */
function source(ref: SourceRef, baseUrl: string, claims: Record<string, string>, observations: Observation[] = []) {
  const stack = ref.kind === "pulumi-stack";
  const instance: ReachedInstance = {
    baseUrl,
    apiVersion: "3",
    ...(stack ? { provider: null } : {}),
    adoptInto: stack
      ? { kind: "pulumi-stack", frontDoor: "dynamic", stack: ref.name, provider: null, runtime: "nodejs" }
      : { kind: "terraform-directory", dir: ref.name, cli: "tofu" },
  };
  const { adoptInto: _, ...described } = instance;
  const result: SourceResult = {
    report: {
      source: ref,
      status: "reviewed",
      compared: stack ? ["state", "program"] : ["state", "configuration"],
      instances: [described],
    },
    claims: Object.entries(claims).map(([name, guid], i): Claim => ({
      guid,
      address: stack
        ? `urn:pulumi:${ref.name}::app::webhooks:index:WebhookSubscription::${name}`
        : `webhooks_subscription.${name}`,
      name: stack ? name : `webhooks_subscription.${name}`,
      location: { file: stack ? "index.ts" : "infra/team/main.tf", line: 10 + i },
    })),
    observations,
    instances: [instance],
  };
  const reader: SourceReader = { ref, read: () => Promise.resolve(result) };
  return reader;
}

/** A review as its JSON report says it, read back and held to the documented schema. */
function asReport(review: Review): Review {
  return parseReview(render(review, "json"));
}

/** What must agree: all but when it ran and how long it took. */
function comparable(review: Review) {
  const { generatedAt: _, durationMs: __, ...rest } = review;
  return rest;
}

describe("drift --merge", () => {
  const emulator = useEmulator();
  const env = () => ({ WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" });

  /** Two stacks and a Terraform directory: `shared` claimed by dev and the directory, `stray` by none. */
  async function fleet() {
    const sub = (path: string, host = "hooks.example.com") =>
      emulator.subscribe(typeScopedBody({ SubscriberURL: `https://${host}/${path}` }));
    const orders = await sub("orders", "elsewhere.example.org");
    const shared = await sub("shared", "elsewhere.example.org");
    const billing = await sub("billing");
    const audit = await sub("audit");
    const stray = await sub("stray", "elsewhere.example.org");
    const differs: Observation = {
      class: "differs-from-program",
      address: "urn:pulumi:dev::app::webhooks:index:WebhookSubscription::orders",
      guid: orders.GUID,
      fields: [
        {
          field: "subscriberUrl",
          secret: false,
          declared: "https://hooks.example.com/orders",
          live: "https://elsewhere.example.org/orders",
        },
      ],
      message: "differs",
      location: { file: "index.ts", line: 10 },
      step: "update",
    };
    const readers = [
      source(DEV, emulator.url, { orders: orders.GUID, shared: shared.GUID }, [differs]),
      source(PROD, emulator.url, { billing: billing.GUID }),
      source(DIR, emulator.url, { audit: audit.GUID, shared: shared.GUID }),
    ];
    return { readers, orders, shared, stray };
  }

  const review = (sources: readonly SourceReader[]) =>
    reviewSources({ sources, env: env(), policy: POLICY, now: () => TODAY });

  it("three partial reviews, merged, equal the review of the three sources: findings, owners, adoption, counts and exit code", async () => {
    const { readers, shared, stray } = await fleet();
    const single = asReport(await review(readers));
    const parts = await Promise.all(
      readers.map(async (r, n): Promise<MergePart> => ({
        file: `part-${n}.json`,
        review: asReport(await review([r])),
      })),
    );
    // Alone, each part calls the others' subscriptions unmanaged.
    expect(parts.map((p) => p.review.summary.unmanaged)).toEqual([3, 4, 3]);

    const merged = asReport(mergeReviews(parts, { now: TODAY }));
    expect(comparable(merged)).toEqual(comparable(single));
    expect(merged.findings.map((f) => [f.class, f.guid, f.owner?.source.name ?? null])).toEqual(
      single.findings.map((f) => [f.class, f.guid, f.owner?.source.name ?? null]),
    );
    expect(merged.findings.map((f) => f.fingerprint)).toEqual(single.findings.map((f) => f.fingerprint));
    expect(merged).toMatchObject({ status: "drift", exitCode: 2 });
    for (const format of FORMATS) expect(render(merged, format)).not.toBe("");

    // Claimed by no source: unmanaged exactly once, adopted into the first stack.
    const unmanaged = merged.findings.filter((f) => f.class === "unmanaged");
    expect(unmanaged.map((f) => f.guid)).toEqual([stray.GUID]);
    expect(unmanaged[0]!.adoption).toMatchObject({ kind: "typescript", into: DEV });
    // Claimed by a stack and a directory, reviewed in different parts: co-owned exactly once.
    const coOwned = merged.findings.filter((f) => f.class === "co-owned");
    expect(coOwned.map((f) => [f.guid, f.owners?.map((o) => o.source.name)])).toEqual([
      [shared.GUID, ["dev", "infra/team"]],
    ]);
    // A policy finding is the claiming source's (the directory's, in its words), whichever part saw it.
    const policy = merged.findings.filter((f) => f.class === "policy");
    expect(policy.map((f) => [f.guid, f.owner?.source.name, f.fields[0]?.field]).sort()).toEqual(
      single.findings
        .filter((f) => f.class === "policy")
        .map((f) => [f.guid, f.owner?.source.name, f.fields[0]?.field])
        .sort(),
    );
    expect(policy.find((f) => f.guid === shared.GUID)).toMatchObject({
      owner: { source: DIR },
      fields: [{ field: "subscriber_url" }],
    });
    // Each source's subscriptions name the merged findings about them.
    expect(merged.sources.map((s) => [s.source.name, s.subscriptions.map((m) => m.findings.length)])).toEqual([
      ["dev", [2, 1]],
      ["prod", [0]],
      ["infra/team", [0, 2]],
    ]);

    // The tail again: --ignore and --baseline as one review applies them.
    const ignored = mergeReviews(parts, {
      now: TODAY,
      ignore: [stray.GUID],
      baseline: { file: "old.json", fingerprints: new Set(single.findings.map((f) => f.fingerprint)) },
    });
    expect(ignored.findings.some((f) => f.guid === stray.GUID)).toBe(false);
    expect(ignored.ignored.suppressed.map((s) => s.match)).toEqual([stray.GUID]);
    expect(ignored).toMatchObject({ exitCode: 0, baseline: { file: "old.json", new: 0 } });
  });

  it("a policy finding seen only by a part that does not hold its claim is owned again as one review owns it", async () => {
    const { readers, shared } = await fleet();
    const single = asReport(await review(readers));
    // The directory's part ran without --policy: the stack's part saw the shared subscription's finding, as its own.
    const parts: MergePart[] = [
      { file: "dev.json", review: asReport(await review([readers[0]!])) },
      { file: "prod.json", review: asReport(await review([readers[1]!])) },
      {
        file: "dir.json",
        review: asReport(await reviewSources({ sources: [readers[2]!], env: env(), now: () => TODAY })),
      },
    ];
    const inPart = parts[0]!.review.findings.find((f) => f.class === "policy" && f.guid === shared.GUID)!;
    expect(inPart.owner?.source).toEqual(DEV);
    const merged = asReport(mergeReviews(parts, { now: TODAY }));
    const pick = (r: Review) => {
      const f = r.findings.find((x) => x.class === "policy" && x.guid === shared.GUID)!;
      return { owner: f.owner, fingerprint: f.fingerprint, location: f.location, fields: f.fields, rule: f.rule };
    };
    expect(pick(merged)).toEqual(pick(single));
    expect(merged.findings.map((f) => f.fingerprint)).toEqual(single.findings.map((f) => f.fingerprint));
    expect(merged.exitCode).toBe(single.exitCode);
  });

  it("a source of another part that could not be read: unmanaged as one review says it, with no adoption", async () => {
    const { readers, stray } = await fleet();
    const unreadable: SourceReader = { ref: DEV, read: () => Promise.reject(new Error("the backend is down")) };
    const sources = [unreadable, readers[1]!, readers[2]!];
    const single = asReport(await review(sources));
    const parts = await Promise.all(
      sources.map(async (r, n): Promise<MergePart> => ({
        file: `part-${n}.json`,
        review: asReport(await review([r])),
      })),
    );
    const merged = asReport(mergeReviews(parts, { now: TODAY }));
    expect(comparable(merged)).toEqual(comparable(single));
    const strayFinding = merged.findings.find((f) => f.guid === stray.GUID)!;
    expect(strayFinding.adoption).toBeUndefined();
    expect(strayFinding.advice).toBe(
      "Review again once dev can be read: it may claim this one. Until then, neither adopt it nor delete it.",
    );
  });

  it("a GUID a stack's state records beyond its claims is unmanaged in no part's merge, as in one review", async () => {
    const { readers, stray } = await fleet();
    const prod = readers[1]!;
    // A replace killed before its delete: the old subscription stays in prod's state, claimed by nothing.
    const recording: SourceReader = {
      ref: PROD,
      read: async () => {
        const read = await prod.read();
        return { ...read, report: { ...read.report, recorded: [stray.GUID.toLowerCase()] } };
      },
    };
    const sources = [readers[0]!, recording, readers[2]!];
    const single = asReport(await review(sources));
    expect(single.findings.some((f) => f.class === "unmanaged" && f.guid === stray.GUID)).toBe(false);
    const parts = await Promise.all(
      sources.map(async (r, n): Promise<MergePart> => ({
        file: `part-${n}.json`,
        review: asReport(await review([r])),
      })),
    );
    // The other parts, alone, call it unmanaged; prod's report says it records it.
    expect(parts[0]!.review.findings.some((f) => f.class === "unmanaged" && f.guid === stray.GUID)).toBe(true);
    const merged = asReport(mergeReviews(parts, { now: TODAY }));
    expect(comparable(merged)).toEqual(comparable(single));
  });

  it("an unmanaged subscription's adoption never takes a name a source already uses", async () => {
    const { readers, stray } = await fleet();
    const live = (await emulator.all()).find((s) => s.GUID === stray.GUID)!;
    const name = adoptionNames([
      { guid: stray.GUID, subscriberUrl: String(live.SubscriberURL), webhook: Number(live.Webhook) },
    ]).get(stray.GUID)!.kebab;
    // prod already has a resource of the name the subscription's own words make.
    const prod = source(PROD, emulator.url, { [name]: (await emulator.subscribe(typeScopedBody())).GUID });
    const single = await review([readers[0]!, prod, readers[2]!]);
    const snippet = single.findings.find((f) => f.class === "unmanaged" && f.guid === stray.GUID)!.adoption!.snippet;
    expect(snippet).toContain(`${name}-${stray.GUID.replace(/-/g, "").slice(0, 6).toLowerCase()}`);
  });

  it("refuses a part of another instance, of another version, or not JSON, naming the file and what to give", async () => {
    const { readers } = await fleet();
    const part = asReport(await review([readers[0]!]));
    const dir = tempDir("merge-");
    const write = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      return { file: name, path: join(dir, name) };
    };
    const good = write("a.json", JSON.stringify(part));
    const elsewhere = write(
      "b.json",
      JSON.stringify({ ...part, instances: [{ baseUrl: "https://other.example.com", apiVersion: "3" }] }),
    );
    expect(() => readParts([good, elsewhere])).toThrow(
      /^--merge b\.json: a review of another instance \(https:\/\/other\.example\.com\), not one that a\.json or the parts sharing its instances reach/,
    );
    // A part reaching both links them, in any order: a fleet may span instances.
    const both = write(
      "c.json",
      JSON.stringify({
        ...part,
        instances: [...part.instances, { baseUrl: "https://other.example.com", apiVersion: "3" }],
      }),
    );
    expect(readParts([good, elsewhere, both]).map((p) => p.file)).toEqual(["a.json", "b.json", "c.json"]);
    const old = write("old.json", JSON.stringify({ ...part, version: 2 }));
    expect(() => readParts([good, old])).toThrow(
      "--merge old.json: not a review report of version 3 (it has version 2). Give the JSON report (version 3)",
    );
    expect(() => parsePart("<html>", "x.json")).toThrow(/^--merge x\.json: not JSON .*Give the JSON report/);
    expect(readParts([good]).map((p) => p.file)).toEqual(["a.json"]);
  });

  it("refuses two parts that name one source, naming both files; and parts of different policies", async () => {
    const { readers } = await fleet();
    const part = asReport(await review([readers[0]!]));
    expect(() =>
      checkParts([
        { file: "a.json", review: part },
        { file: "b.json", review: part },
      ]),
    ).toThrow('--merge b.json: stack "dev" is also in a.json. Review each source in one part only');
    const other = asReport(await review([readers[1]!]));
    expect(() =>
      checkParts([
        { file: "a.json", review: part },
        { file: "c.json", review: { ...other, policy: { file: "strict.json", rules: [] } } },
      ]),
    ).toThrow("--merge c.json: its policy (strict.json) is not the one of a.json (policy.json)");
  });
});
