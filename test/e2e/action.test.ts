/**
 * The GitHub Action (action.yml) run end to end by a real Actions runner: nektos/act in host mode
 * (`-P ubuntu-latest=-self-hosted`, built without Docker: support/pipelineRunners.ts), on a
 * workflow that takes the action with `uses: ./`. Everything it reaches is on loopback: the run's
 * release (support/sharedRelease.ts) served as a GitHub server serves release assets, with
 * `github.server_url` pointed at it; one emulator as the instance; the GitHub API stand-in of
 * test/pipeline/ recording every call. The action installs the release's linux-amd64 executable
 * into act's tool cache, reviews a Terraform state file against the emulator, and publishes.
 *
 * The runs, in order, share the tool cache, the pull request and the issues:
 * a tampered archive; three runs on one pull request with 120 comments already on it; three
 * scheduled runs (drift, other drift, clean). Then the example pipelines as the release holds them
 * (examples/pipelines/github/, the action at the release's tag): opentofu.yml's apply, plan and
 * nightly review, pulumi.yml's nightly review, fleet.yml's matrix and merge, then pulumi.yml's
 * preview held to examples/policy-pack (blocked, then passing with its comment) and its apply;
 * act cannot fetch third-party actions here, so each is a local stand-in (`--local-repository`):
 * the setup actions do nothing (Node.js, pulumi with its hosts, tofu and the release's plugin are
 * on PATH), upload-sarif and the artifact actions copy files. Plus: actionlint on every workflow
 * (the test's and the examples', which load action.yml's inputs and outputs through `uses: ./`),
 * shellcheck on every script of action.yml and of the GitLab template, and the job summary's cut
 * at 1 MiB, run from action.yml's own step outside a runner.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { delimiter, join } from "node:path";
import { promisify, stripVTControlCharacters } from "node:util";
import { load as loadYaml } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Review } from "../../drift";
import { sourcesHash } from "../../drift";
import { markerOf } from "../../pipeline";
import { cliArchiveName, executableArchiveName } from "../../scripts/release/release";
import { actionlint } from "../support/actionlint";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";
import { run } from "../support/commands";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { act, shellcheck } from "../support/pipelineRunners";
import { ReleaseServer } from "../support/releaseServer";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { tempDirs } from "../support/tempDirs";
import { requireTofu } from "../support/terraformClis";
import { mirrorCliConfig, packedMirror, writeConfiguration } from "../support/terraformUser";
import { startStandIn, TOKEN, type StandIn } from "../pipeline/standIn";

const execFileAsync = promisify(execFile);
const tempDir = tempDirs();
const started = Date.now();

/** Where a GitHub server serves a release's assets, under the action's repository. */
const DOWNLOADS = `webhook-subscriptions/pulumi-webhook-subscriptions/releases/download/v${RELEASE_VERSION}`;
const ARCHIVE = cliArchiveName(RELEASE_VERSION, "linux", "amd64");
const PULL_REQUEST = 7;
const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

/** The test's workflow: the action from the workspace, then a step that keeps what it made. */
const WORKFLOW = `name: drift
on:
  pull_request:
  schedule:
    - cron: "23 2 * * *"

permissions:
  contents: read
  issues: write
  pull-requests: write

jobs:
  drift:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: Review drift
        id: drift
        uses: ./
        with:
          terraform-state: hooks.tfstate
          baseline: \${{ vars.BASELINE }}
          fail-on: \${{ vars.FAIL_ON || 'new' }}
      - name: Keep the outputs and the reports
        if: always()
        env:
          OUTPUTS: \${{ toJSON(steps.drift.outputs) }}
          REPORTS: \${{ steps.drift.outputs.report-json }} \${{ steps.drift.outputs.report-sarif }} \${{ steps.drift.outputs.report-md }}
        run: |
          printf '%s' "$OUTPUTS" > "$KEEP/outputs.json"
          for report in $REPORTS; do cp "$report" "$KEEP/"; done
`;

let root: string;
let workspace: string;
let emulator: EmulatorHarness;
let api: StandIn;
let releases: ReleaseServer;
let tampered: ReleaseServer;
let actBinary: string;
/** The subscription the state file claims, and the ones no source claims, by name. */
const unmanaged = new Map<string, string>();

beforeAll(async () => {
  const release = await sharedRelease();
  actBinary = await act();
  root = tempDir("action-e2e-");
  emulator = await EmulatorHarness.start();
  api = await startStandIn();
  api.pageSize = 25;

  // The release as a GitHub server serves it, and a copy whose archive lost a byte's worth of truth.
  mkdirSync(join(root, "server", DOWNLOADS, ".."), { recursive: true });
  symlinkSync(release.dir, join(root, "server", DOWNLOADS));
  releases = await ReleaseServer.start(join(root, "server"));
  const bad = join(root, "tampered", DOWNLOADS);
  mkdirSync(bad, { recursive: true });
  copyFileSync(join(release.dir, "SHA256SUMS"), join(bad, "SHA256SUMS"));
  const archive = readFileSync(join(release.dir, ARCHIVE));
  const middle = archive.length >> 1;
  archive[middle] = archive[middle]! ^ 0xff;
  writeFileSync(join(bad, ARCHIVE), archive);
  tampered = await ReleaseServer.start(join(root, "tampered"));

  // The workspace: this action as the release's checkout holds it (its package.json names the
  // release's version, the action's default), a state file claiming one subscription, the workflow.
  workspace = join(root, "workspace");
  mkdirSync(join(workspace, ".github", "workflows"), { recursive: true });
  for (const file of ["action.yml", "package.json"]) copyFileSync(join(release.checkout, file), join(workspace, file));
  writeFileSync(join(workspace, ".github", "workflows", "drift.yml"), WORKFLOW);
  const claimed = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/claimed" }));
  writeFileSync(join(workspace, "hooks.tfstate"), stateFile(claimed.GUID));
  await addUnmanaged("first");
}, 1_800_000);

afterAll(async () => {
  await Promise.all([api?.close(), releases?.close(), tampered?.close(), emulator?.close()]);
  console.log(`[action] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

/** A Terraform state (format 4) whose one subscription is `guid`, as the emulator holds it. */
function stateFile(guid: string): string {
  const attributes = {
    guid,
    webhook: "BusinessObjectCreated",
    filter_object_type: 2,
    subscriber_url: "https://hooks.example.com/claimed",
  };
  const resource = {
    mode: "managed",
    type: "webhooks_subscription",
    name: "claimed",
    provider: 'provider["registry.opentofu.org/webhook-subscriptions/webhooks"]',
    instances: [{ schema_version: 0, attributes }],
  };
  return JSON.stringify({ version: 4, terraform_version: "1.10.10", serial: 1, lineage: "l", resources: [resource] });
}

/** A subscription on the instance that no source claims: drift. */
async function addUnmanaged(name: string): Promise<void> {
  const made = await emulator.subscribe(typeScopedBody({ SubscriberURL: `https://hooks.example.com/${name}` }));
  unmanaged.set(name, made.GUID);
}

async function removeUnmanaged(name: string): Promise<void> {
  await emulator.config("Unsubscribe", { query: { webHookSubscriptionGUID: unmanaged.get(name)! } });
  unmanaged.delete(name);
}

/** One act run: its exit code, its log (act's JSON lines), and what the workflow kept. */
interface ActRun {
  readonly code: number;
  readonly log: readonly Record<string, unknown>[];
  readonly text: string;
  readonly outputs: Record<string, string>;
  readonly kept: string;
  /** The job summary the action's step wrote. */
  readonly summary: string;
  /** Whether the job succeeded, as act reports it. */
  readonly succeeded: boolean;
}

let runs = 0;

/** What one act run is given besides the event. */
interface ActOptions {
  /** `--var`s: the workflow's `vars`. */
  readonly vars?: Record<string, string>;
  /** The release's server: `github.server_url`. */
  readonly server?: ReleaseServer;
  /** The repository act runs in (default: the test's workspace), and its workflow. */
  readonly workspace?: string;
  readonly workflow?: string;
  /** The event's payload (default: pull request 7's, or none). */
  readonly payload?: object;
  /** More `--env`s, `-s` secrets, and variables of act's own environment (which host mode passes to the job). */
  readonly env?: Record<string, string>;
  readonly secrets?: Record<string, string>;
  readonly processEnv?: Record<string, string>;
  /** More flags: `--local-repository`. */
  readonly args?: readonly string[];
}

/** Runs a workflow under act for `event`, the release from the good server unless told otherwise. */
async function runAct(event: "pull_request" | "push" | "schedule", options: ActOptions = {}): Promise<ActRun> {
  const kept = join(root, `run-${++runs}`);
  mkdirSync(kept);
  const eventFile = join(kept, "event.json");
  const payload =
    options.payload ??
    (event === "pull_request" ? { number: PULL_REQUEST, pull_request: { number: PULL_REQUEST } } : {});
  writeFileSync(eventFile, JSON.stringify(payload));
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  const pairs = (values: Record<string, string>, flag: string) =>
    Object.entries(values).flatMap(([name, value]) => [flag, `${name}=${value}`]);
  const args = [
    event,
    "--json",
    "-P",
    "ubuntu-latest=-self-hosted",
    "-e",
    eventFile,
    ...(options.workflow ? ["-W", options.workflow] : []),
    // act's own cache, and the runner's tool cache under it (tool_cache/), shared by the file's runs.
    "--action-cache-path",
    join(root, "act-cache"),
    "--no-cache-server",
    ...pairs(
      {
        GITHUB_SERVER_URL: (options.server ?? releases).url,
        GITHUB_API_URL: api.url,
        GITHUB_REPOSITORY: "octo/infra",
        KEEP: kept,
        WEBHOOKS_BASE_URL: emulator.url,
        WEBHOOKS_TOKEN: "dev-builder",
        ...options.env,
      },
      "--env",
    ),
    ...pairs(options.vars ?? {}, "--var"),
    ...pairs({ GITHUB_TOKEN: TOKEN, ...options.secrets }, "-s"),
    ...(options.args ?? []),
  ];
  const { code, stdout, stderr } = await execFileAsync(actBinary, args, {
    cwd: options.workspace ?? workspace,
    // Nothing of this machine's CI leaks in: act passes its own environment to the job.
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_CACHE_HOME: join(home, ".cache"),
      ACT_DISABLE_VERSION_CHECK: "1",
      LANG: "C.UTF-8",
      ...options.processEnv,
    },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 280_000,
  }).then(
    (done) => ({ code: 0, ...done }),
    (err: { code?: number; stdout?: string; stderr?: string }) => ({
      code: typeof err.code === "number" ? err.code : -1,
      stdout: err.stdout ?? "",
      stderr: err.stderr ?? "",
    }),
  );
  const log = stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const text = `${log.map((entry) => String(entry.msg ?? "")).join("\n")}\n${stderr}`;
  const outputsFile = join(kept, "outputs.json");
  return {
    code,
    log,
    text,
    outputs: existsSync(outputsFile) ? (JSON.parse(readFileSync(outputsFile, "utf8")) as Record<string, string>) : {},
    kept,
    summary: log
      .filter((entry) => entry.command === "summary")
      .map((entry) => String(entry.content))
      .join(""),
    succeeded: log.some((entry) => entry.jobResult === "success"),
  };
}

const readKept = <T>(run: ActRun, file: string) => JSON.parse(readFileSync(join(run.kept, file), "utf8")) as T;
const writes = () => api.writes().map((call) => `${call.method} ${call.url}`);

it("actionlint passes every workflow, action.yml's inputs and outputs among them; shellcheck every script of the action and the GitLab template", async () => {
  const examples = join(REPO_ROOT, "examples", "pipelines", "github");
  const names = readdirSync(examples);
  expect(names.sort()).toEqual(["fleet.yml", "opentofu.yml", "pulumi.yml"]);
  // actionlint reads a local action's metadata through `uses: ./`: the workflows are linted where
  // action.yml is, the repository's own and the test's.
  const lint = join(tempDir("action-lint-"), "repo");
  mkdirSync(join(lint, ".github", "workflows"), { recursive: true });
  copyFileSync(join(REPO_ROOT, "action.yml"), join(lint, "action.yml"));
  for (const name of names) copyFileSync(join(examples, name), join(lint, ".github", "workflows", name));
  writeFileSync(join(lint, ".github", "workflows", "drift.yml"), WORKFLOW);
  const checker = await shellcheck();
  const workflows = readdirSync(join(lint, ".github", "workflows")).map((name) => join(".github", "workflows", name));
  const linted = await execFileAsync(await actionlint(), ["-color=false", "-shellcheck", checker, ...workflows], {
    cwd: lint,
  }).catch((err: { stdout: string; stderr: string }) => err);
  expect(linted.stdout + linted.stderr).toBe("");

  // The scripts actionlint does not see: each of action.yml's steps (bash), and the template's (sh).
  const dir = tempDir("action-scripts-");
  const action = loadYaml(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as {
    runs: { steps: { name: string; shell: string; run: string }[] };
  };
  const scripts = action.runs.steps.map((step, i) => {
    expect(step.run, `step "${step.name}" reads its env:, never \${{ }}`).not.toContain("${{");
    const file = join(dir, `action-${i}.sh`);
    writeFileSync(file, `#!/usr/bin/env ${step.shell}\n${step.run}`);
    return file;
  });
  const template = loadYaml(readFileSync(join(REPO_ROOT, "templates", "drift.gitlab-ci.yml"), "utf8")) as {
    ".webhook-drift": { script: string[] };
  };
  const templateScript = join(dir, "template.sh");
  writeFileSync(templateScript, `#!/bin/sh\n${template[".webhook-drift"].script.join("\n")}`);
  const checked = await execFileAsync(checker, ["--format=gcc", ...scripts, templateScript]).catch(
    (err: { stdout: string; stderr: string }) => err,
  );
  expect(checked.stdout + checked.stderr).toBe("");
}, 900_000);

it("a tampered archive fails the install: nothing is cached, reviewed or posted", async () => {
  const run = await runAct("pull_request", { server: tampered });
  expect(run.code, run.text).not.toBe(0);
  expect(run.succeeded).toBe(false);
  expect(run.text).toContain(`${ARCHIVE} does not match SHA256SUMS`);
  expect(tampered.transcript()).toBe(`GET /${DOWNLOADS}/SHA256SUMS 200\nGET /${DOWNLOADS}/${ARCHIVE} 200`);
  const cached = join(root, "act-cache", "tool_cache", "webhook-subscriptions", RELEASE_VERSION);
  expect(existsSync(join(cached, "amd64"))).toBe(false);
  expect(existsSync(join(cached, "amd64.complete"))).toBe(false);
  expect(run.text).not.toContain("drift: reviewed");
  expect(Object.values(run.outputs).every((value) => value === "")).toBe(true);
  expect(api.calls).toEqual([]);
}, 300_000);

it("on a pull request: exit 2 stops no report and sets the outputs; one comment, found past 120 others, left alone when unchanged, edited when the review changes", async () => {
  // 120 comments already on the pull request: five pages of 25.
  api.comments.set(
    PULL_REQUEST,
    Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `a comment ${i + 1}` })),
  );

  const first = await runAct("pull_request");
  // Drift fails the job (fail-on: new), but only after every report and the comment.
  expect(first.code, first.text).not.toBe(0);
  expect(first.succeeded).toBe(false);
  // The action's last step fails the job. (Its one `::error` line is not always in act's log: act
  // can lose the output of a step that ends within milliseconds, so the step's failure is checked.)
  expect(first.text).toContain("Failure - Main Fail as fail-on says");
  expect(first.outputs).toMatchObject({ drift: "true", "exit-code": "2", "new-findings": "1" });
  for (const output of ["report-json", "report-sarif", "report-md"]) expect(first.outputs[output]).toMatch(/^\//);
  const review = readKept<Review>(first, "drift.json");
  expect(review.findings.map((f) => [f.class, f.guid])).toEqual([["unmanaged", unmanaged.get("first")]]);
  // The SARIF, ready for upload-sarif: its category names the review's sources.
  const sarif = readKept<{ runs: { automationDetails: { id: string }; results: unknown[] }[] }>(first, "drift.sarif");
  expect(sarif.runs[0]!.automationDetails.id).toBe(`webhook-subscriptions-drift/${sourcesHash(review)}/`);
  expect(sarif.runs[0]!.results).toHaveLength(1);
  expect(readFileSync(join(first.kept, "drift.md"), "utf8")).toContain("## Drift review");
  expect(first.summary).toContain("## Drift review");
  expect(first.summary).toContain(unmanaged.get("first"));
  // Installed once, from the server the workflow runs on, and verified.
  expect(releases.transcript()).toBe(`GET /${DOWNLOADS}/SHA256SUMS 200\nGET /${DOWNLOADS}/${ARCHIVE} 200`);
  expect(first.text).toContain("verified against SHA256SUMS and cached");
  // The marker looked for on every page, then one comment posted.
  const pages = api.calls
    .filter((c) => c.method === "GET")
    .map((c) => new URL(c.url, api.url).searchParams.get("page") ?? "1");
  expect(pages).toEqual(["1", "2", "3", "4", "5"]);
  expect(writes()).toEqual([`POST /repos/octo/infra/issues/${PULL_REQUEST}/comments`]);
  const comments = () => api.comments.get(PULL_REQUEST)!;
  expect(comments()).toHaveLength(121);
  const ours = comments()[120]!;
  expect(ours.body.startsWith(`${markerOf(review)}\n## Drift review`)).toBe(true);
  for (const call of api.calls) expect(call.authorization).toBe(`Bearer ${TOKEN}`);
  expect(first.text).not.toContain(TOKEN);

  // The same review again: the comment, on the fifth page, is left alone; the executable from the tool cache.
  api.calls.length = 0;
  const again = await runAct("pull_request");
  expect(again.outputs).toMatchObject({ drift: "true", "exit-code": "2" });
  expect(again.text).toContain("from the tool cache");
  expect(releases.log).toHaveLength(2);
  expect(api.calls.length).toBe(5);
  expect(writes()).toEqual([]);

  // Another subscription appears: with the first review as the baseline, one finding is new, and
  // fail-on: never lets the job pass. The one comment is edited in place.
  await addUnmanaged("second");
  api.calls.length = 0;
  const changed = await runAct("pull_request", {
    vars: { BASELINE: join(first.kept, "drift.json"), FAIL_ON: "never" },
  });
  expect(changed.code, changed.text).toBe(0);
  expect(changed.succeeded).toBe(true);
  expect(changed.outputs).toMatchObject({ drift: "true", "exit-code": "2", "new-findings": "1" });
  expect(readKept<Review>(changed, "drift.json").findings).toHaveLength(2);
  expect(writes()).toEqual([`PATCH /repos/octo/infra/issues/comments/${ours.id}`]);
  expect(comments()).toHaveLength(121);
  expect(comments().filter((c) => c.body.startsWith(markerOf(review)))).toHaveLength(1);
  expect(ours.body).toContain(unmanaged.get("second"));
  // No issue on a pull request.
  expect(api.issues.filter((i) => !i.pull_request)).toEqual([]);
}, 600_000);

it("on a schedule: the drift issue is opened on drift, updated while it lasts, and closed by a clean run; no comment", async () => {
  api.calls.length = 0;
  const opened = await runAct("schedule");
  expect(opened.succeeded).toBe(false);
  expect(opened.outputs).toMatchObject({ drift: "true", "exit-code": "2", "new-findings": "2" });
  expect(writes()).toEqual(["POST /repos/octo/infra/issues"]);
  expect(api.issues).toHaveLength(1);
  const issue = api.issues[0]!;
  expect(issue).toMatchObject({ state: "open", labels: ["webhook-drift"] });
  expect(issue.body).toContain(unmanaged.get("second"));

  // The drift changes: the same issue's body follows it.
  const gone = unmanaged.get("second")!;
  await removeUnmanaged("second");
  api.calls.length = 0;
  const updated = await runAct("schedule");
  expect(updated.outputs).toMatchObject({ drift: "true", "new-findings": "1" });
  expect(writes()).toEqual([`PATCH /repos/octo/infra/issues/${issue.number}`]);
  expect(issue.body).not.toContain(gone);
  expect(issue.state).toBe("open");

  // Clean: the issue gets a last comment and is closed; the job passes.
  await removeUnmanaged("first");
  api.calls.length = 0;
  const clean = await runAct("schedule");
  expect(clean.code, clean.text).toBe(0);
  expect(clean.outputs).toMatchObject({ drift: "false", "exit-code": "0", "new-findings": "0" });
  expect(clean.summary).toContain("**No drift**");
  expect(writes()).toEqual([
    `POST /repos/octo/infra/issues/${issue.number}/comments`,
    `PATCH /repos/octo/infra/issues/${issue.number}`,
  ]);
  expect(issue.state).toBe("closed");
  expect(api.issues).toHaveLength(1);
  expect(api.comments.get(PULL_REQUEST)).toHaveLength(121);
}, 600_000);

it("bad inputs are refused before anything is downloaded, naming the input and the value (the install step, outside a runner)", async () => {
  const action = loadYaml(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as {
    runs: { steps: { id?: string; run: string }[] };
  };
  const install = action.runs.steps.find((step) => step.id === "install")!.run;
  const cache = tempDir("action-tool-cache-");
  const attempt = (inputs: Record<string, string>) =>
    execFileAsync("bash", ["-c", install], {
      env: {
        PATH: process.env.PATH,
        // Every variable of the step's env, as a runner sets it: empty when the input is.
        ...Object.fromEntries(
          [
            "WEBHOOKS_VERSION",
            "WEBHOOKS_COMMENT",
            "WEBHOOKS_ISSUE",
            "ACTION_REF",
            "ACTION_REPOSITORY",
            "ACTION_PATH",
          ].map((name) => [name, ""]),
        ),
        WEBHOOKS_FAIL_ON: "new",
        // A server nothing listens on: a download would fail with another message.
        SERVER_URL: "http://127.0.0.1:1",
        OS_NAME: "Linux",
        ARCH_NAME: "X64",
        TOOL_CACHE: cache,
        ...inputs,
      },
    }).then(
      () => ({ code: 0, stdout: "" }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
  for (const [inputs, message] of [
    [{ WEBHOOKS_VERSION: "../../home" }, 'version must be a release\'s version such as 1.2.3, got: "../../home"'],
    [
      { WEBHOOKS_VERSION: "1.2.3", WEBHOOKS_FAIL_ON: "sometimes" },
      'fail-on must be new, any or never, got: "sometimes"',
    ],
    [{ WEBHOOKS_VERSION: "1.2.3", WEBHOOKS_COMMENT: "yes" }, 'comment must be true or false, got: "yes"'],
  ] as const) {
    const result = await attempt(inputs);
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toBe(`::error title=webhook-subscriptions::${message}\n`);
  }
  expect(readdirSync(cache)).toEqual([]);
});

it("the job summary is cut at 1 MiB at a line, with a note; the reports stay whole (the review step, outside a runner)", async () => {
  const dir = tempDir("action-summary-");
  const action = loadYaml(readFileSync(join(REPO_ROOT, "action.yml"), "utf8")) as {
    runs: { steps: { id?: string; run: string }[] };
  };
  const review = action.runs.steps.find((step) => step.id === "review")!.run;
  // An executable that writes each --report as the real one would, the markdown 1.2 MiB long.
  const fake = join(dir, "webhook-subscriptions");
  const line = `| unmanaged | ${"x".repeat(100)} |`;
  writeFileSync(
    fake,
    [
      "#!/usr/bin/env bash",
      'while [ $# -gt 0 ]; do case "$1" in --report) shift; case "$1" in',
      `  *.json) printf '{\\n  "version": 3,\\n  "status": "drift",\\n  "exitCode": 2,\\n  "failing": 12000,\\n  "summary": {\\n    "unmanaged": 12000\\n  },\\n  "sources": []\\n}\\n' > "$1" ;;`,
      `  *.sarif) printf '{\\n  "runs": [\\n    {\\n      "results": []\\n    }\\n  ]\\n}\\n' > "$1" ;;`,
      `  *.md) { echo "## Drift review"; for i in $(seq 1 12000); do echo '${line}'; done; } > "$1" ;;`,
      "esac ;; esac; shift; done; exit 2",
    ].join("\n"),
  );
  chmodSync(fake, 0o755);
  const [summary, output] = [join(dir, "summary.md"), join(dir, "output")];
  writeFileSync(summary, "");
  writeFileSync(output, "");
  await execFileAsync("bash", ["-e", "-c", review], {
    env: {
      PATH: process.env.PATH,
      WEBHOOKS: fake,
      WEBHOOKS_TERRAFORM_STATE: "hooks.tfstate",
      RUNNER_TEMP: dir,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      EVENT_NAME: "push",
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
  expect(outputs).toMatchObject({ "exit-code": "2", drift: "true", "new-findings": "12000", comment: "false" });
  const md = readFileSync(outputs["report-md"]!, "utf8");
  expect(md.length).toBeGreaterThan(1024 * 1024);
  const written = readFileSync(summary);
  expect(written.length).toBeLessThanOrEqual(1024 * 1024);
  expect(written.length).toBeGreaterThan(1024 * 1024 - 1024);
  const text = written.toString("utf8");
  expect(text.startsWith("## Drift review\n")).toBe(true);
  expect(text).toContain("> **Cut here:** the job summary holds at most 1 MiB.");
  // Cut at a line: every table row before the note is whole.
  const rows = text.slice(0, text.indexOf("\n\n> **Cut here:**")).split("\n").slice(1);
  expect(rows.every((row) => row === line)).toBe(true);
});

/**
 * A composite action standing in for a third-party one that act cannot fetch here (the network is
 * loopback only): the setup actions do nothing (the project's own builds are on PATH), upload-sarif
 * keeps the file it is given, the artifact actions copy through a folder.
 */
function standInAction(dir: string, inputs: readonly string[], run = 'echo "the tools are on PATH already"'): string {
  mkdirSync(dir, { recursive: true });
  const declared = inputs.map((name) => `  ${name}:\n    description: ${name}\n    required: false\n`).join("");
  const env = inputs
    .map((name) => `        INPUT_${name.toUpperCase().replace(/-/g, "_")}: \${{ inputs.${name} }}\n`)
    .join("");
  writeFileSync(
    join(dir, "action.yml"),
    `name: stand-in\ndescription: stand-in\n${declared ? `inputs:\n${declared}` : ""}runs:\n  using: composite\n  steps:\n    - shell: bash\n${env ? `      env:\n${env}` : ""}      run: ${JSON.stringify(run)}\n`,
  );
  return dir;
}

describe("the example pipelines, run as written", () => {
  /** The repository the examples run in, the act options they share, and where the stand-ins keep things. */
  let repo: string;
  let options: ActOptions;
  let sarifUploads: string;
  let artifacts: string;
  let pulumiEnv: NodeJS.ProcessEnv;

  const uploaded = () => readdirSync(sarifUploads).sort();
  const examplesRun = (workflow: string, event: "pull_request" | "push" | "schedule", payload?: object) =>
    runAct(event, { ...options, workflow: join(".github", "workflows", workflow), ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    const release = await sharedRelease();
    const engine = requireLanguageHosts(["pulumi-language-yaml", "pulumi-language-nodejs"]);
    const tofu = requireTofu();
    const base = join(root, "examples");
    repo = join(base, "repo");
    // The examples as the release holds them: `npm version` moved the action's tag to the release's.
    mkdirSync(join(repo, ".github", "workflows"), { recursive: true });
    for (const name of ["pulumi.yml", "opentofu.yml", "fleet.yml"])
      copyFileSync(
        join(release.checkout, "examples", "pipelines", "github", name),
        join(repo, ".github", "workflows", name),
      );
    expect(
      readFileSync(join(repo, ".github", "workflows", "fleet.yml"), "utf8"),
      "npm version moves the examples' tag of the action: they are among scripts/version.ts's VERSIONED_FILES",
    ).toContain(`uses: webhook-subscriptions/pulumi-webhook-subscriptions@v${RELEASE_VERSION}`);

    // The tools the jobs take from PATH: pulumi with its YAML host, tofu, the release's plugin.
    const plugins = join(base, "plugins");
    mkdirSync(plugins);
    await execFileAsync("tar", [
      "-xzf",
      join(release.dir, executableArchiveName(RELEASE_VERSION, "linux", "amd64")),
      "-C",
      plugins,
    ]);
    const mirror = packedMirror(release.dir, RELEASE_VERSION, join(base, "mirror"), [{ os: "linux", arch: "amd64" }]);
    const path = [plugins, engine.binDir, tofu.binDir, process.env.PATH].join(delimiter);
    const state = join(base, "state");
    mkdirSync(state);
    const secrets = { PULUMI_CONFIG_PASSPHRASE: "examples", WEBHOOKS_TOKEN: "dev-builder" };
    const vars = { PULUMI_BACKEND_URL: `file://${state}`, WEBHOOKS_BASE_URL: emulator.url };
    const processEnv = {
      PATH: path,
      TF_CLI_CONFIG_FILE: mirrorCliConfig(join(base, "cli.tfrc"), mirror),
      CHECKPOINT_DISABLE: "1",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // The machine's trust for its registry, as a runner image has its own: the jobs' `npm ci`.
      ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
    };
    pulumiEnv = { ...processEnv, ...vars, ...secrets, HOME: join(root, "home") };

    // The team's repository: a Pulumi program in infra/ (stacks prod and staging, up), two
    // OpenTofu configurations with their state outside the checkout (act copies the repository
    // for each job), the policy pack's settings and an ignore file.
    mkdirSync(join(repo, "infra"), { recursive: true });
    writeFileSync(
      join(repo, "infra", "Pulumi.yaml"),
      [
        "name: hooks",
        "runtime: yaml",
        "resources:",
        "  hook:",
        "    type: webhooks:index:WebhookSubscription",
        "    properties:",
        "      webhook: BusinessObjectCreated",
        "      filterObjectType: 7",
        "      subscriberUrl: https://hooks.example.com/app/${pulumi.stack}",
        "",
      ].join("\n"),
    );
    for (const stack of ["prod", "staging"]) {
      const cwd = join(repo, "infra");
      await run("pulumi", ["stack", "init", stack, "--non-interactive"], cwd, pulumiEnv);
      await run("pulumi", ["config", "set", "--stack", stack, "webhooks:baseUrl", emulator.url], cwd, pulumiEnv);
      await run(
        "pulumi",
        ["config", "set", "--stack", stack, "--secret", "webhooks:token", "dev-builder"],
        cwd,
        pulumiEnv,
      );
      await run("pulumi", ["up", "--stack", stack, "--yes", "--skip-preview", "--non-interactive"], cwd, pulumiEnv);
    }
    for (const name of ["hooks", "partners"]) {
      const dir = join(repo, "infra", name);
      writeConfiguration(dir, RELEASE_VERSION);
      const main = readFileSync(join(dir, "main.tf"), "utf8").replace(
        /\n}\n$/,
        `\n  backend "local" {\n    path = ${JSON.stringify(join(state, `${name}.tfstate`))}\n  }\n}\n`,
      );
      writeFileSync(
        join(dir, "main.tf"),
        `${main}\nresource "webhooks_subscription" "${name}" {\n  webhook            = "BusinessObjectCreated"\n  filter_object_type = 3\n  subscriber_url     = "https://hooks.example.com/tf/${name}"\n}\n`,
      );
    }
    // infra/partners is applied by hand; infra/hooks by opentofu.yml on main.
    const tofuEnv = { ...pulumiEnv };
    await run("tofu", ["-chdir=infra/partners", "init", "-input=false", "-no-color"], repo, tofuEnv);
    await run("tofu", ["-chdir=infra/partners", "apply", "-auto-approve", "-input=false", "-no-color"], repo, tofuEnv);
    // The policy pack as examples/policy-pack holds it, with its lock file as a team commits it.
    // Two edits: this package from the release's npm tarball, vendored beside the pack (it is not
    // on the registry before the first release; a path inside the checkout survives act's copy of
    // it), and `@pulumi/pulumi` at the engine's version (the newest needs a newer Node than 20).
    const policy = join(repo, "policy");
    cpSync(join(release.checkout, "examples", "policy-pack"), policy, { recursive: true });
    const tarball = `pulumi-webhook-subscriptions-${RELEASE_VERSION}.tgz`;
    copyFileSync(join(release.dir, tarball), join(policy, tarball));
    const manifest = JSON.parse(readFileSync(join(policy, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@pulumi/policy", "pulumi-webhook-subscriptions"]);
    manifest.dependencies["pulumi-webhook-subscriptions"] = `file:${tarball}`;
    manifest.dependencies["@pulumi/pulumi"] = engine.version;
    writeFileSync(join(policy, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    await run("npm", ["install", "--package-lock-only", ...NPM], policy, pulumiEnv);
    writeFileSync(
      join(repo, "drift-ignore.json"),
      JSON.stringify([
        {
          match: "https://legacy.example.com/",
          reason: "retired with the old API",
          owner: "platform",
          expires: "2099-12-31",
        },
      ]),
    );

    // The third-party actions, and the action itself at the release's tag.
    const actions = join(base, "actions");
    sarifUploads = join(base, "sarif");
    artifacts = join(base, "artifacts");
    mkdirSync(sarifUploads);
    mkdirSync(artifacts);
    const ours = join(actions, "webhook-subscriptions");
    mkdirSync(ours, { recursive: true });
    for (const file of ["action.yml", "package.json"]) copyFileSync(join(release.checkout, file), join(ours, file));
    const local = {
      "actions/setup-node@v4": standInAction(join(actions, "setup-node"), ["node-version"]),
      "pulumi/actions@v7": standInAction(join(actions, "pulumi"), []),
      "opentofu/setup-opentofu@v1": standInAction(join(actions, "setup-opentofu"), ["tofu_wrapper"]),
      "actions/upload-artifact@v4": standInAction(
        join(actions, "upload-artifact"),
        ["name", "path"],
        'mkdir -p "$ARTIFACTS/$INPUT_NAME" && cp $INPUT_PATH "$ARTIFACTS/$INPUT_NAME/"',
      ),
      "actions/download-artifact@v4": standInAction(
        join(actions, "download-artifact"),
        ["pattern", "merge-multiple", "path"],
        'mkdir -p "$INPUT_PATH" && for artifact in "$ARTIFACTS"/$INPUT_PATTERN; do cp "$artifact"/* "$INPUT_PATH/"; done',
      ),
      "github/codeql-action@v3": actions,
      [`webhook-subscriptions/pulumi-webhook-subscriptions@v${RELEASE_VERSION}`]: ours,
    };
    standInAction(
      join(actions, "upload-sarif"),
      ["sarif_file"],
      'cp "$INPUT_SARIF_FILE" "$SARIF_UPLOADS/$GITHUB_WORKFLOW-$GITHUB_JOB-$(date +%s%N).sarif"',
    );
    options = {
      workspace: repo,
      vars,
      secrets,
      processEnv,
      env: { ARTIFACTS: artifacts, SARIF_UPLOADS: sarifUploads },
      args: Object.entries(local).flatMap(([action, dir]) => ["--local-repository", `${action}=${dir}`]),
    };
  }, 1_800_000);

  it("opentofu.yml: the apply on main, the plan with its comment on a pull request, the nightly review with its issue and SARIF", async () => {
    const apply = await examplesRun("opentofu.yml", "push", { ref: "refs/heads/main" });
    expect(apply.code, apply.text).toBe(0);
    expect(apply.text).toContain("Apply complete!");
    const hooks = await emulator.subscriptionAt("https://hooks.example.com/tf/hooks");

    api.calls.length = 0;
    const pull = await examplesRun("opentofu.yml", "pull_request", { number: 8, pull_request: { number: 8 } });
    // The plan decides; the review, which sees the fleet's other subscriptions as unmanaged, informs.
    expect(pull.code, pull.text).toBe(0);
    expect(pull.text).toContain("No changes.");
    expect(writes()).toEqual(["POST /repos/octo/infra/issues/8/comments"]);
    expect(api.comments.get(8)![0]!.body).toContain("| Terraform directory | `infra/hooks` |");

    // Out of band, the subscription gets another URL: the nightly review fails after its issue and its SARIF.
    const { GUID, Webhook, FilterObjectType, FilterObjectGUID } = hooks;
    const moved = await emulator.config("UpdateWebhookSubscription", {
      body: { GUID, Webhook, FilterObjectType, FilterObjectGUID, SubscriberURL: "https://evil.example.net/hooks" },
    });
    expect(moved.status, moved.text).toBe(200);
    api.calls.length = 0;
    const before = uploaded().length;
    const nightly = await examplesRun("opentofu.yml", "schedule");
    expect(nightly.code, nightly.text).not.toBe(0);
    expect(nightly.text).toContain("Failure - Main Fail as fail-on says");
    expect(writes()).toEqual(["POST /repos/octo/infra/issues"]);
    expect(api.issues.at(-1)!.body).toContain("https://evil.example.net/hooks");
    const sarif = uploaded().slice(before);
    expect(sarif).toHaveLength(1);
    const log = JSON.parse(readFileSync(join(sarifUploads, sarif[0]!), "utf8")) as {
      runs: { automationDetails: { id: string }; results: { ruleId: string }[] }[];
    };
    expect(log.runs[0]!.automationDetails.id).toMatch(/^webhook-subscriptions-drift\/[0-9a-f]{12}\/$/);
    expect(log.runs[0]!.results.map((r) => r.ruleId)).toContain("differs-from-state");
  }, 600_000);

  it("pulumi.yml: the nightly review of the stack, held to the policy pack's settings, with its issue and SARIF", async () => {
    api.calls.length = 0;
    const before = uploaded().length;
    const nightly = await examplesRun("pulumi.yml", "schedule");
    // The fleet's other subscriptions are unmanaged here: drift.
    expect(nightly.code, nightly.text).not.toBe(0);
    expect(nightly.summary).toContain("| Pulumi stack | `prod` |");
    expect(writes()).toEqual(["POST /repos/octo/infra/issues"]);
    expect(uploaded().slice(before)).toHaveLength(1);
  }, 600_000);

  it("fleet.yml: four cells review a source each, the merge job reviews the fleet: unmanaged is claimed by no source", async () => {
    api.calls.length = 0;
    const before = uploaded().length;
    const fleet = await examplesRun("fleet.yml", "schedule");
    expect(fleet.code, fleet.text).not.toBe(0);
    // The cells pass whatever they see (fail-on: never); the merge fails on the fleet's drift.
    const results = fleet.log.filter((entry) => entry.jobResult).map((entry) => `${entry.jobID} ${entry.jobResult}`);
    expect(results.sort()).toEqual(["merge failure", ...Array(4).fill("part success")]);
    const parts = readdirSync(artifacts).sort();
    expect(parts).toEqual(["part-hooks", "part-partners", "part-prod", "part-staging"]);
    const merged = JSON.parse(readFileSync(join(sarifUploads, uploaded().slice(before)[0]!), "utf8")) as {
      runs: { results: { ruleId: string; message: { text: string } }[] }[];
    };
    expect(merged.runs[0]!.results.length).toBeGreaterThan(0);
    // Each cell alone saw the others' subscriptions as unmanaged; the merge sees them claimed.
    const part = (name: string) =>
      JSON.parse(readFileSync(join(artifacts, `part-${name}`, `part-${name}.json`), "utf8")) as Review;
    const claimed = new Set(
      ["hooks", "partners", "prod", "staging"].flatMap((name) =>
        part(name).sources.flatMap((source) => source.subscriptions.map((s) => s.guid.toLowerCase())),
      ),
    );
    expect(claimed.size).toBe(4);
    const unmanagedInProd = part("prod")
      .findings.filter((f) => f.class === "unmanaged")
      .map((f) => f.guid!.toLowerCase());
    expect(unmanagedInProd.filter((guid) => claimed.has(guid))).toHaveLength(3);
    // The fleet's review, in its issue: what no source claims is unmanaged, and nothing else.
    expect(writes()).toEqual(["POST /repos/octo/infra/issues"]);
    const issue = api.issues.at(-1)!;
    expect(issue.body).toContain("| Pulumi stack | `staging` |");
    expect(issue.body).toContain("| Terraform directory | `infra/partners` |");
    const unmanagedRows = issue.body.split("\n").filter((line) => line.startsWith("| unmanaged |"));
    expect(unmanagedRows.some((row) => row.includes("https://hooks.example.com/claimed"))).toBe(true);
    for (const row of unmanagedRows) for (const guid of claimed) expect(row.toLowerCase()).not.toContain(guid);
  }, 600_000);

  // Last: it adds a subscription to the stack, which the runs above do not expect.
  it("pulumi.yml: a pull request's preview is held to the policy pack, the review comments once; main applies", async () => {
    const program = join(repo, "infra", "Pulumi.yaml");
    const audit = (url: string) =>
      writeFileSync(
        program,
        `${readFileSync(program, "utf8").replace(/\n {2}audit:\n[^]*$/, "\n")}  audit:\n    type: webhooks:index:WebhookSubscription\n    properties:\n      webhook: BusinessObjectCreated\n      filterObjectType: 8\n      subscriberUrl: ${url}\n`,
      );
    const pullRequest = { number: 9, pull_request: { number: 9 } };
    // pulumi colours its transcript under act.
    const plain = (done: ActRun) => stripVTControlCharacters(done.text);

    // A host off the pack's list: the preview fails, naming the resource and the host.
    audit("https://evil.example.net/audit");
    api.calls.length = 0;
    const blocked = await examplesRun("pulumi.yml", "pull_request", pullRequest);
    expect(blocked.code, blocked.text).not.toBe(0);
    expect(plain(blocked)).toMatch(
      /\[mandatory\] {2}subscriber-host-allowed {2}\(webhooks:index:WebhookSubscription: audit\)/,
    );
    expect(plain(blocked)).toContain('sends to host "evil.example.net", which is not allowed');
    expect(blocked.text).toContain("Failure - Main Preview, held to the policy pack");
    // The review still comments: what the instance holds is news either way.
    expect(writes()).toEqual(["POST /repos/octo/infra/issues/9/comments"]);
    expect(api.comments.get(9)![0]!.body).toContain("| Pulumi stack | `prod` |");

    // On the list: the preview passes; the instance is as it was, so the comment is not touched.
    audit("https://hooks.example.com/audit");
    api.calls.length = 0;
    const passed = await examplesRun("pulumi.yml", "pull_request", pullRequest);
    expect(passed.code, passed.text).toBe(0);
    expect(plain(passed)).toMatch(/\+ 1 to create/);
    expect(writes()).toEqual([]);

    // Merged: main applies it, held to the same pack.
    const auditAt = async () =>
      (await emulator.all()).filter((s) => s.SubscriberURL === "https://hooks.example.com/audit");
    expect(await auditAt()).toHaveLength(0);
    const applied = await examplesRun("pulumi.yml", "push", { ref: "refs/heads/main" });
    expect(applied.code, applied.text).toBe(0);
    expect(plain(applied)).toMatch(/\+ 1 created/);
    expect(await auditAt()).toHaveLength(1);
  }, 900_000);
});
