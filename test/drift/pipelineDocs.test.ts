/**
 * The pipelines docs/drift.md shows pass the checks their CI systems would make: actionlint for the
 * GitHub workflows, a YAML check of GitLab's job (its JUnit report, its review line), and one
 * version of the release and of each action across them.
 * test/e2e/driftDoc.test.ts runs their scripts.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { load as loadYaml } from "js-yaml";
import { expect, it } from "vitest";
import { actionlint } from "../support/actionlint";
import { REPO_ROOT } from "../support/engine";
import { pipelineBlocks } from "../support/pipelineBlocks";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const { github, gitlab } = pipelineBlocks(readFileSync(join(REPO_ROOT, "docs", "drift.md"), "utf8"));

it("the GitHub workflows pass actionlint: code scanning's SARIF upload and the matrix ending in one review", async () => {
  const dir = tempDir("drift-workflows-");
  const files = github.map((workflow, i) => {
    const file = join(dir, `drift-${i}.yml`);
    writeFileSync(file, workflow);
    return file;
  });
  const { stdout, stderr } = await promisify(execFile)(await actionlint(), ["-color=false", ...files], {
    cwd: REPO_ROOT,
  });
  expect(stdout + stderr).toBe("");
  expect(github[0]).toContain("github/codeql-action/upload-sarif@");
  expect(github[0]).toContain("security-events: write");
  expect(github[1]).toMatch(/needs: plan/);
}, 600_000);

it("the GitLab job is YAML whose JUnit report is the file its review writes", () => {
  const job = (
    loadYaml(gitlab) as { drift: { script: string[]; artifacts: { when: string; reports: { junit: string } } } }
  ).drift;
  expect(job.artifacts).toMatchObject({ when: "always", reports: { junit: "drift.xml" } });
  expect(
    job.script.some((line) => line.startsWith("webhook-subscriptions drift ") && line.includes("--report drift.xml")),
  ).toBe(true);
});

it("the pipelines name one version of the release (package.json's) and one version of each action", () => {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const pipelines = [...github, gitlab].join("\n");
  expect(new Set([...pipelines.matchAll(/WEBHOOKS_VERSION: "([^"]+)"/g)].map((m) => m[1]))).toEqual(new Set([version]));
  const pinned = new Map<string, Set<string>>();
  for (const [, action, ref] of pipelines.matchAll(/uses: ([\w./-]+)@(\S+)/g))
    pinned.set(action!, (pinned.get(action!) ?? new Set()).add(ref!));
  expect([...pinned].filter(([, refs]) => refs.size > 1)).toEqual([]);
});
