import { readdirSync, readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { GO_BUILD_ENV } from "./engine/goBuild";
import { MAVEN_JVM_ENV } from "./test/support/mavenJvm";
import { RunOrder } from "./test/support/runOrder.mjs";

/**
 * The unit files that replace a module with `vi.mock`. A worker that shares its modules between
 * files shares their mocks too: a file's mock reaches the next file, and a module an earlier file
 * loaded unmocked stays so (a receiver test once saw no call to its spied timingSafeEqual). So
 * these run each in a fresh process, as every file did before `isolate: false`.
 */
const MOCKING_FILES = readdirSync("test", { recursive: true, encoding: "utf8" })
  .map((file) => `test/${file}`)
  .filter((file) => file.endsWith(".test.ts") && !file.startsWith("test/e2e/"))
  .filter((file) => readFileSync(file, "utf8").includes("vi.mock("));

export default defineConfig({
  test: {
    // Forks, not threads: Pulumi's closure serializer and the engine's child processes want a real process.
    pool: "forks",
    // The JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: ["default", ["json", { outputFile: ".work/test-results.json" }]],
    // Three files at a time in both projects, one pool, on 2 cores: an end-to-end file leaves a core
    // idle while it waits on the engine's processes, and with two files a cold CI run kept the
    // cores 167% busy of 200% (57 min). With four, 181%: the release took 1201 s instead of 964,
    // the files waiting for it left a core idle, and a 127-s test passed its 300-s timeout.
    maxWorkers: 3,
    // Every Go build a test starts (examples/README.md's, a Go program's `pulumi up`) compiles as
    // the CLI's own build did, so it reuses the packages that build compiled (engine/goBuild.ts);
    // every Maven run spends half the CPU (support/mavenJvm.ts).
    env: { ...GO_BUILD_ENV, ...MAVEN_JVM_ENV },
    // End-to-end files first, one that builds the run's release ahead of the rest (test/support/runOrder.mts).
    sequence: { sequencer: RunOrder },
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", ...MOCKING_FILES],
          testTimeout: 30_000,
          // One module cache per worker, not per file: each file in a fresh process loaded vitest and
          // our modules again (335 s of CPU for these files, 192 without).
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "mocks", include: MOCKING_FILES, testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // Provisions the engine once per run; without it the end-to-end tests fail, never skip.
          // And the run's folder for what its files build once and share (support/oncePerRun.ts).
          globalSetup: ["test/e2e/globalSetup.ts", "test/e2e/runFolderSetup.ts"],
          testTimeout: 300_000,
          hookTimeout: 1_800_000,
        },
      },
    ],
  },
});
