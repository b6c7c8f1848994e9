/**
 * The GitLab CI template (templates/drift.gitlab-ci.yml) run by gitlab-ci-local with its shell
 * executor (support/pipelineRunners.ts), as a project's `.gitlab-ci.yml` takes it: a job that
 * `extends: .webhook-drift`, in a merge request pipeline. Everything it reaches is on loopback:
 * the run's release (support/sharedRelease.ts) at WEBHOOKS_RELEASES, one emulator as the
 * instance, the GitLab API stand-in of test/pipeline/ recording every call. The review finds
 * drift, so the job fails; its Code Quality and JUnit reports are published all the same, the
 * Code Quality report has GitLab's documented fields and the SARIF's fingerprints, and the review
 * is one comment on the merge request.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { load as loadYaml } from "js-yaml";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CODE_QUALITY_SEVERITIES } from "../../drift/render/codequality";
import { markerOf } from "../../pipeline";
import type { Review } from "../../drift";
import { cliArchiveName } from "../../scripts/release/release";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";
import { gitlabCiLocal } from "../support/pipelineRunners";
import { ReleaseServer } from "../support/releaseServer";
import { GIT_IDENTITY, RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { tempDirs } from "../support/tempDirs";
import { startStandIn, TOKEN, type StandIn } from "../pipeline/standIn";

const execFileAsync = promisify(execFile);
const tempDir = tempDirs();
const started = Date.now();

const MERGE_REQUEST = 5;

let repo: string;
let emulator: EmulatorHarness;
let api: StandIn;
let releases: ReleaseServer;
let job: { code: number; output: string };
let unmanagedGuid: string;

beforeAll(async () => {
  const release = await sharedRelease();
  const gitlabCi = await gitlabCiLocal();
  const root = tempDir("gitlab-template-e2e-");
  emulator = await EmulatorHarness.start();
  api = await startStandIn();
  mkdirSync(join(root, "releases"));
  symlinkSync(release.dir, join(root, "releases", `v${RELEASE_VERSION}`));
  releases = await ReleaseServer.start(join(root, "releases"));

  // The project: the template as the release's checkout holds it (its version, the default), a job
  // extending it, a state file claiming one subscription; the instance holds another: drift.
  repo = join(root, "project");
  mkdirSync(join(repo, "templates"), { recursive: true });
  copyFileSync(
    join(release.checkout, "templates", "drift.gitlab-ci.yml"),
    join(repo, "templates", "drift.gitlab-ci.yml"),
  );
  writeFileSync(
    join(repo, ".gitlab-ci.yml"),
    [
      "include:",
      "  - local: templates/drift.gitlab-ci.yml",
      "",
      "drift:",
      "  extends: .webhook-drift",
      "  variables:",
      "    WEBHOOKS_TERRAFORM_STATE: hooks.tfstate",
      "",
    ].join("\n"),
  );
  expect(
    readFileSync(join(repo, "templates", "drift.gitlab-ci.yml"), "utf8"),
    "npm version moves the template's default release: it is one of scripts/version.ts's VERSIONED_FILES",
  ).toContain(`WEBHOOKS_VERSION: "${RELEASE_VERSION}"`);
  const claimed = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/claimed" }));
  unmanagedGuid = (await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/other" }))).GUID;
  const resource = {
    mode: "managed",
    type: "webhooks_subscription",
    name: "claimed",
    provider: 'provider["registry.opentofu.org/webhook-subscriptions/webhooks"]',
    instances: [{ schema_version: 0, attributes: { guid: claimed.GUID } }],
  };
  writeFileSync(
    join(repo, "hooks.tfstate"),
    JSON.stringify({ version: 4, serial: 1, lineage: "l", resources: [resource] }),
  );
  const git = (...args: string[]) =>
    execFileAsync("git", args, { cwd: repo, env: { ...process.env, ...GIT_IDENTITY } });
  await git("init", "-q");
  await git("add", "-A");
  await git("commit", "-q", "-m", "project");

  // A merge request pipeline: GitLab's own variables, pointed at the stand-in.
  const variables = {
    CI_MERGE_REQUEST_IID: String(MERGE_REQUEST),
    CI_API_V4_URL: `${api.url}/api/v4`,
    CI_PROJECT_ID: "group/project",
    GITLAB_TOKEN: TOKEN,
    WEBHOOKS_RELEASES: releases.url,
    WEBHOOKS_BASE_URL: emulator.url,
    WEBHOOKS_TOKEN: "dev-builder",
  };
  const home = join(root, "home");
  mkdirSync(home);
  const args = [
    ...Object.entries(variables).flatMap(([name, value]) => ["--variable", `${name}=${value}`]),
    // Overridden on purpose: GitLab's API is the stand-in.
    "--ignore-predefined-vars",
    "CI_API_V4_URL,CI_PROJECT_ID",
    "drift",
  ];
  job = await execFileAsync(gitlabCi, args, {
    cwd: repo,
    env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1", FORCE_COLOR: "0", LANG: "C.UTF-8" },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  }).then(
    (done) => ({ code: 0, output: done.stdout + done.stderr }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === "number" ? err.code : -1,
      output: `${err.stdout ?? ""}${err.stderr ?? ""}`,
    }),
  );
}, 1_800_000);

afterAll(async () => {
  await Promise.all([api?.close(), releases?.close(), emulator?.close()]);
  console.log(`[gitlab-template] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

/** What gitlab-ci-local published from the job: its artifacts folder. */
const artifact = (file: string) => join(repo, ".gitlab-ci-local", "artifacts", "drift", "webhook-drift", file);
const readArtifact = <T>(file: string) => JSON.parse(readFileSync(artifact(file), "utf8")) as T;

it("installs the release verified, reviews, and fails on drift only after every report is written and published", () => {
  expect(job.code, job.output).not.toBe(0);
  expect(job.output).toMatch(/drift .*FAIL/);
  expect(job.output).toContain("webhook-subscriptions drift: exit 2, status drift; fail-on: new");
  expect(releases.transcript()).toBe(
    [
      `GET /v${RELEASE_VERSION}/SHA256SUMS 200`,
      `GET /v${RELEASE_VERSION}/${cliArchiveName(RELEASE_VERSION, "linux", "amd64")} 200`,
    ].join("\n"),
  );
  // Published though the job failed: `when: always`, which gitlab-ci-local honours as GitLab does.
  expect(job.output).toContain("exported artifacts");
  for (const file of ["drift.json", "drift.codequality.json", "drift.xml", "drift.sarif", "drift.html"])
    expect(existsSync(artifact(file)), file).toBe(true);
  const expanded = loadYaml(readFileSync(join(repo, ".gitlab-ci-local", "expanded-gitlab-ci.yml"), "utf8")) as {
    drift: { artifacts: { when: string; paths: string[]; reports: { codequality: string; junit: string } } };
  };
  expect(expanded.drift.artifacts).toMatchObject({
    when: "always",
    paths: ["webhook-drift/"],
    reports: { codequality: "webhook-drift/drift.codequality.json", junit: "webhook-drift/drift.xml" },
  });
  expect(readFileSync(artifact("drift.xml"), "utf8")).toContain("<testsuites");
  const review = readArtifact<Review>("drift.json");
  expect(review.findings.map((f) => [f.class, f.guid])).toEqual([["unmanaged", unmanagedGuid]]);
});

it("its Code Quality report has GitLab's documented fields and types, and the SARIF's fingerprints", () => {
  const issues = readArtifact<Record<string, unknown>[]>("drift.codequality.json");
  const sarif = readArtifact<{
    runs: { results: { ruleId: string; partialFingerprints: Record<string, string> }[] }[];
  }>("drift.sarif");
  expect(issues).toHaveLength(1);
  for (const issue of issues) {
    expect(Object.keys(issue).sort()).toEqual(["check_name", "description", "fingerprint", "location", "severity"]);
    expect(issue).toEqual({
      description: expect.any(String),
      check_name: expect.any(String),
      fingerprint: expect.stringMatching(/^\S+$/),
      severity: expect.toBeOneOf([...CODE_QUALITY_SEVERITIES]),
      location: { path: expect.any(String), lines: { begin: expect.any(Number) } },
    });
    expect(Number.isInteger((issue.location as { lines: { begin: number } }).lines.begin)).toBe(true);
  }
  const results = sarif.runs.flatMap((run) => run.results);
  expect(issues.map((i) => [i.check_name, i.fingerprint])).toEqual(
    results.map((r) => [r.ruleId, Object.values(r.partialFingerprints)[0]]),
  );
});

it("posts the review as one comment on the merge request, with the token in the header only", () => {
  const review = readArtifact<Review>("drift.json");
  expect(api.writes().map((call) => `${call.method} ${call.url}`)).toEqual([
    `POST /api/v4/projects/group%2Fproject/merge_requests/${MERGE_REQUEST}/notes`,
  ]);
  const notes = api.notes.get(MERGE_REQUEST)!;
  expect(notes).toHaveLength(1);
  expect(notes[0]!.body.startsWith(`${markerOf(review)}\n## Drift review`)).toBe(true);
  for (const call of api.calls) expect(call.authorization).toBe(`Bearer ${TOKEN}`);
  expect(job.output).not.toContain(TOKEN);
});
