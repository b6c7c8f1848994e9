import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANCHOR_SOURCE, anchorSourceDigest } from "../../bench/goAnchor";
import { selectedParts } from "../../bench/parts";
import {
  compareRuns,
  compareStarts,
  devOverridesConfig,
  floorComparisons,
  terraformConfig,
  type TfCommand,
  type TfContender,
} from "../../bench/terraform";
import type { PreviewRun } from "../../bench/yamlPreview";
import type { RawCost } from "../../bench/rawRoundTrips";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const runs = (...walls: number[]): PreviewRun[] => walls.map((wall) => ({ wall, cpu: wall / 2 }));

describe("the terraform part", () => {
  it("is a part of its own", () => {
    expect(selectedParts(["--only", "terraform"])).toEqual(new Set(["terraform"]));
  });

  it("declares n subscriptions in one resource block, each to its own URL", () => {
    const config = terraformConfig(500);
    expect(config).toContain('source = "webhook-subscriptions/webhooks"');
    expect(config).toMatch(/resource "webhooks_subscription" "bench" \{\n\s+count\s+= 500\n/);
    expect(config).toContain('subscriber_url     = "https://hooks.example.com/bench/${count.index}"');
  });

  it("installs either provider the same way, by dev_overrides of its folder", () => {
    expect(devOverridesConfig("/x/bin")).toBe(
      'provider_installation {\n  dev_overrides {\n    "webhook-subscriptions/webhooks" = "/x/bin"\n  }\n  direct {}\n}\n',
    );
  });
});

describe("the terraform part's entries", () => {
  it("compares the one-subscription plan by medians of wall time, CPU beside it, each with its rounds' spread", () => {
    expect(compareRuns(runs(1, 3, 1.5), runs(0.5, 0.4, 0.6), "ratio <= 2.5")).toEqual({
      value: 1.5,
      unit: "s",
      baseline: 0.5,
      ratio: 3,
      n: 3,
      rounds: 3,
      spread: { value: [1, 3], baseline: [0.4, 0.6], ratio: [2, 7.5] },
      goal: "ratio <= 2.5",
      cpu: {
        value: 0.75,
        unit: "s",
        baseline: 0.25,
        ratio: 3,
        n: 3,
        rounds: 3,
        spread: { value: [0.5, 1.5], baseline: [0.2, 0.3], ratio: [2, 7.5] },
      },
    });
  });

  it("gives the handshake in milliseconds", () => {
    const comparison = compareStarts([{ wallMs: 100, cpuMs: 80 }], [{ wallMs: 10, cpuMs: 4 }]);
    expect(comparison).toMatchObject({
      value: 100,
      unit: "ms",
      baseline: 10,
      ratio: 10,
      cpu: { unit: "ms", ratio: 20 },
    });
  });

  it("holds each command of the large run against the anchor's same command plus that round's raw round trips", () => {
    // The raw round trips' CPU is a tenth of their wall here.
    const command = (ours: number[], anchor: number[], raw: number[]) =>
      ({
        executable: runs(...ours),
        go_anchor: runs(...anchor),
        raw: raw.map((wall) => ({ wall, cpu: wall / 10 })),
      }) as Record<TfContender, PreviewRun[]> & { raw: RawCost[] };
    const result = floorComparisons(
      {
        apply: command([12, 11, 30], [4, 5, 4], [6, 6, 7]),
        plan: command([5, 5, 5], [2, 2, 2], [2, 2, 2]),
        destroy: command([9, 9, 9], [3, 3, 3], [6, 6, 6]),
      } satisfies Record<TfCommand, unknown>,
      500,
    );
    // The floor per round: 10, 11, 11; its median 11 against ours 12.
    expect(result.apply).toMatchObject({ value: 12, baseline: 11, n: 500, unit: "s" });
    expect(result.apply.ratio).toBeCloseTo(12 / 11);
    expect(result.apply.goal).toBe("ratio <= 1.3 (the Go anchor's apply plus 500 raw SubscribeToWebhook round trips)");
    // CPU: ours against the anchor's run plus the round trips' client: 2.6, 3.1, 2.7 per round.
    expect(result.apply.cpu).toMatchObject({ value: 6, baseline: 2.7, n: 500 });
    expect(result.apply.cpu.ratio).toBeCloseTo(6 / 2.7);
    expect(result.plan.goal).toContain("500 raw GetWebhookSubscription round trips");
    // A destroy refreshes first: a Get and an Unsubscribe of each.
    expect(result.destroy.goal).toContain("500 raw GetWebhookSubscription and Unsubscribe round trips");
    expect(result.destroy).toMatchObject({ value: 9, baseline: 9, ratio: 1 });
  });
});

describe("the Go anchor's build", () => {
  it("is named by its source: a changed source builds a new anchor", () => {
    const copy = tempDir("anchor-");
    cpSync(ANCHOR_SOURCE, copy, { recursive: true });
    expect(anchorSourceDigest(copy)).toBe(anchorSourceDigest());
    writeFileSync(join(copy, "main.go"), "package main\n");
    expect(anchorSourceDigest(copy)).not.toBe(anchorSourceDigest());
  });
});
