import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { REPO_ROOT } from "./support/engine";
import { needsRelease } from "./support/runOrder.mjs";

describe("the run's order (support/runOrder.mts)", () => {
  it("starts one release file first, a third of the files needing no release next, the other release files, the rest, unit files last", async () => {
    const vitest = await createVitest("test", {
      watch: false,
      root: REPO_ROOT,
      config: join(REPO_ROOT, "vitest.config.mts"),
    });
    try {
      const specs = await vitest.globTestSpecifications();
      const Sequencer = vitest.config.sequence.sequencer;
      const sorted = await new Sequencer(vitest).sort(specs);
      const kinds = sorted.map((spec) =>
        spec.project.name !== "e2e" ? "unit" : needsRelease(spec) ? "release" : "e2e",
      );
      const releaseFiles = kinds.filter((kind) => kind === "release").length;
      expect(releaseFiles).toBeGreaterThan(1);
      const others = kinds.filter((kind) => kind === "e2e").length;
      expect(others).toBeGreaterThan(1);
      const whileBuilding = Math.ceil(others / 3);
      expect(kinds).toEqual([
        "release",
        ...Array<string>(whileBuilding).fill("e2e"),
        ...Array<string>(releaseFiles - 1).fill("release"),
        ...Array<string>(others - whileBuilding).fill("e2e"),
        ...kinds.filter((kind) => kind === "unit"),
      ]);
      expect(sorted).toHaveLength(specs.length);
    } finally {
      await vitest.close();
    }
  });
});
