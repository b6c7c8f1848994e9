/**
 * A folder of the test run's own, for what its files build once and share (support/oncePerRun.ts:
 * the release, the plugin): made when the run starts, removed when it ends, so that a build is
 * shared by the run's files and never by two runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    runFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "e2e-run-"));
  project.provide("runFolder", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
