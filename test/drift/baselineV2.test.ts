/**
 * `--baseline` across the upgrade: a version 2 report written by the previous release (e805ac0,
 * fixtures/baseline-v2/README.md says how) still splits this release's findings into the same
 * known ones, because the fingerprints are computed the same way (drift/review/classify.ts). The
 * emulator starts from the state that release reviewed, so the GUIDs are the report's own.
 * A version 1 report is refused, naming the file, in test/cli/drift.test.ts.
 */
import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBaseline } from "../../drift/review/baseline";
import type { Review } from "../../drift/review/model";
import { readSourceReader } from "../../drift/review/review";
import { reviewSources } from "../../drift/review/reviewSources";
import { readTerraformStateFile } from "../../drift/sources/terraform/stateFile";
import { EmulatorHarness, typeScopedBody } from "../support/emulatorHarness";
import { tempDirs } from "../support/tempDirs";

const FIXTURE = join(__dirname, "fixtures", "baseline-v2");
const REPORT = "review-v2.json";
const STATE = "terraform.tfstate";

/** The version 2 report as the previous release printed it. */
const v2 = JSON.parse(readFileSync(join(FIXTURE, REPORT), "utf8")) as {
  version: number;
  findings: { class: string; guid: string }[];
  reviewed: { guid: string }[];
};

/** Sorted `[class, guid]` pairs, to compare findings whatever their order. */
const pairs = (findings: readonly { class: string; guid: string | null }[]) =>
  findings.map((f) => [f.class, f.guid]).sort((a, b) => String(a).localeCompare(String(b)));

describe("--baseline with a version 2 report of the previous release", () => {
  const tempDir = tempDirs();
  const emulatorState = readFileSync(join(FIXTURE, "emulator-state.json"), "utf8");
  let emulator: EmulatorHarness;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    // A copy: the emulator writes its state file, and the fixture must stay as it was made.
    const statePath = join(tempDir("baseline-v2-"), "emulator-state.json");
    copyFileSync(join(FIXTURE, "emulator-state.json"), statePath);
    emulator = await EmulatorHarness.start({ statePath });
    env = { WEBHOOKS_BASE_URL: emulator.url, WEBHOOKS_TOKEN: "dev-builder" };
  });
  afterAll(async () => {
    await emulator?.close();
    expect(readFileSync(join(FIXTURE, "emulator-state.json"), "utf8")).toBe(emulatorState);
  });

  /** This release's review of the same Terraform state, against the baseline. */
  const review = (): Promise<Review> =>
    reviewSources({
      sources: [
        readSourceReader(readTerraformStateFile({ file: STATE, absFile: join(FIXTURE, STATE), cwd: FIXTURE, env })),
      ],
      baseline: { file: REPORT, fingerprints: readBaseline(join(FIXTURE, REPORT), REPORT) },
      env,
    });

  it("the report really is version 2, with two unmanaged subscriptions and one claimed", () => {
    expect(v2.version).toBe(2);
    expect(v2.findings.map((f) => f.class)).toEqual(["unmanaged", "unmanaged"]);
    expect(v2.reviewed).toHaveLength(1);
  });

  it("finds the findings the v2 report lists known, and nothing new: exit 0", async () => {
    const result = await review();
    expect(result.version).toBe(3);
    expect(pairs(result.findings.filter((f) => f.baseline === "known"))).toEqual(pairs(v2.findings));
    expect(result.findings.filter((f) => f.baseline !== "known")).toEqual([]);
    expect(result.baseline).toEqual({ file: REPORT, new: 0, known: 2 });
    expect(result.exitCode).toBe(0);
    // The subscription the state claims is managed and in sync, as the previous release found it.
    expect(result.sources[0]!.subscriptions.map((s) => [s.guid, s.findings])).toEqual([[v2.reviewed[0]!.guid, []]]);
  });

  it("a subscription added since is the one new finding: exit 2", async () => {
    const added = await emulator.subscribe(typeScopedBody({ SubscriberURL: "https://hooks.example.com/added" }));
    const result = await review();
    expect(pairs(result.findings.filter((f) => f.baseline === "new"))).toEqual([["unmanaged", added.GUID]]);
    expect(pairs(result.findings.filter((f) => f.baseline === "known"))).toEqual(pairs(v2.findings));
    expect(result.baseline).toEqual({ file: REPORT, new: 1, known: 2 });
    expect(result.exitCode).toBe(2);
  });
});
