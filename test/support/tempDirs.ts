/**
 * Folders a test file makes under the system's temp directory, removed once its tests have run:
 * left behind, a day of suite runs fills a machine's disk (a cold CI run once failed on it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

/**
 * `mkdtemp` under the temp directory, each folder removed after the tests of the file (or the
 * `describe`) that called this.
 */
export function tempDirs(): (prefix: string) => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (prefix) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
