/**
 * The order a run starts its files in. The run's one release (support/sharedRelease.ts) takes
 * minutes to build, and a file that needs it holds its worker while it waits. So one such file
 * starts first and builds it, the files that need no release keep the other workers busy
 * meanwhile, and the rest of the release's files come after them, when it is built; the unit
 * files fill the tail. Within each group, vitest's own order (failed, then longest, first).
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
    const rest = endToEnd.filter((spec) => !release.includes(spec));
    const unit = files.filter((spec) => !endToEnd.includes(spec));
    return [...release.slice(0, 1), ...(await super.sort(rest)), ...release.slice(1), ...(await super.sort(unit))];
  }
}
