/**
 * A folder for the test run's one release (support/sharedRelease.ts): made when the run starts,
 * removed when it ends, so that a release is shared by the run's files and never by two runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    releaseRun: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "release-run-"));
  project.provide("releaseRun", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
