import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { comparePreviews, yamlProject, type PreviewRun } from "../../bench/yamlPreview";

describe("the YAML programs of the preview comparison", () => {
  it("gives the floor the same project with no provider and no resource", () => {
    expect(yamlProject()).toEqual({ name: "bench-yaml", runtime: "yaml" });
  });

  it("adds the packaging's plugin by path, with its version (so the engine caches its schema), and one subscription", () => {
    const project = yamlProject("/plugins/webhooks") as {
      plugins: unknown;
      resources: Record<string, { type: string }>;
    };
    expect(project).toMatchObject({ name: "bench-yaml", runtime: "yaml" });
    const { version } = JSON.parse(readFileSync(join(__dirname, "../../package.json"), "utf8")) as { version: string };
    expect(project.plugins).toEqual({ providers: [{ name: "webhooks", path: "/plugins/webhooks", version }] });
    expect(Object.values(project.resources).map((r) => r.type)).toEqual(["webhooks:index:WebhookSubscription"]);
  });
});

describe("each packaging's preview against the floor", () => {
  const runs = (...walls: number[]): PreviewRun[] => walls.map((wall) => ({ wall, cpu: wall / 2 }));
  const result = comparePreviews({
    floor: runs(4, 2, 3),
    executable: runs(3, 9, 3.75),
    runtime_nodejs: runs(6, 6, 7),
    bundle: runs(3.6, 3, 4),
  });

  it("compares medians of wall time in the shape of a results.json entry, CPU time beside it, each with its rounds' spread", () => {
    expect(result.executable).toEqual({
      value: 3.75,
      unit: "s",
      baseline: 3,
      ratio: 1.25,
      n: 3,
      rounds: 3,
      spread: { value: [3, 9], baseline: [2, 4], ratio: [0.75, 4.5] },
      goal: "ratio <= 1.25",
      cpu: {
        value: 1.875,
        unit: "s",
        baseline: 1.5,
        ratio: 1.25,
        n: 3,
        rounds: 3,
        spread: { value: [1.5, 4.5], baseline: [1, 2], ratio: [0.75, 4.5] },
        goal: "ratio <= 1.15",
      },
    });
    expect(result.runtime_nodejs.ratio).toBe(2);
    expect(result.bundle.cpu.value).toBe(1.8);
  });
});
