import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Forks, not threads: Pulumi's closure serializer and the engine's child processes want a real process.
    pool: "forks",
    // The JSON report lets .ci/run print the plain "N passed, N failed" closing line.
    reporters: ["default", ["json", { outputFile: ".work/test-results.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**"],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // Provisions the engine once per run; without it the end-to-end tests fail, never skip.
          // And the folder of the run's one release, shared by the files (support/sharedRelease.ts).
          globalSetup: ["test/e2e/globalSetup.ts", "test/e2e/releaseSetup.ts"],
          testTimeout: 300_000,
          hookTimeout: 1_800_000,
          // One engine at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
