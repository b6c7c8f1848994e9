/**
 * The order a run starts its files in. The run's one release (support/sharedRelease.ts) takes
 * minutes to build, and a file that needs it holds its worker while it waits. So one such file
 * starts first and builds it, and the files that need no release keep the other workers busy
 * meanwhile. The release is ready about when a third of those have started (a cold run: built at
 * 26 min, as the 11th of 31 started), so the other release files come there, and the rest of the
 * end-to-end files after them: queued behind all of them, the longest release file (12 minutes)
 * had run alone at the end of the run. The unit files fill the tail. Within each group, vitest's
 * own order (failed, then longest, first).
 */
import { readFileSync } from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** Whether `spec`'s file waits for the run's release. */
export function needsRelease(spec: TestSpecification): boolean {
  return readFileSync(spec.moduleId, "utf8").includes("sharedRelease()");
}

export class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const endToEnd = files.filter((spec) => spec.project.name === "e2e");
    const release = await super.sort(endToEnd.filter(needsRelease));
    const rest = await super.sort(endToEnd.filter((spec) => !release.includes(spec)));
    const unit = files.filter((spec) => !endToEnd.includes(spec));
    const whileBuilding = Math.ceil(rest.length / 3);
    return [
      ...release.slice(0, 1),
      ...rest.slice(0, whileBuilding),
      ...release.slice(1),
      ...rest.slice(whileBuilding),
      ...(await super.sort(unit)),
    ];
  }
}
