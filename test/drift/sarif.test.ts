/**
 * The SARIF renderer against the OASIS SARIF 2.1.0 schema, and what GitHub code scanning needs to
 * track an alert across runs: a location in a file and a stable fingerprint on every result.
 *
 * fixtures/sarif-schema-2.1.0.json is vendored byte for byte from the OASIS TC's repository
 * oasis-tcs/sarif-spec, path sarif-2.1/schema/sarif-schema-2.1.0.json, at commit
 * e0583813964ec43cea53b6b531b402866095ed1f (the file last changed in a560296c); SCHEMA_SHA256 pins
 * those bytes. The schema is draft-04, hence ajv-draft-04.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv04 from "ajv-draft-04";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { FINGERPRINT_KEY, REPOSITORY_URL, SARIF_LEVEL, SARIF_SCHEMA, renderSarif } from "../../drift/render/sarif";
import { CLASS_TITLES, FINDING_CLASSES, type Review } from "../../drift/review/model";
import { REPO_ROOT } from "../support/engine";
import { everyClassReview, FINDINGS, withFailedSources } from "./fixtures/review";

const SCHEMA_FILE = join(__dirname, "fixtures", "sarif-schema-2.1.0.json");
const SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: {
    physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number } };
    logicalLocations?: { fullyQualifiedName: string }[];
  }[];
  partialFingerprints: Record<string, string>;
  properties: { fields: { field: string; secret: boolean }[] };
}
interface SarifLog {
  $schema: string;
  version: string;
  runs: {
    tool: {
      driver: {
        name: string;
        informationUri: string;
        version?: string;
        rules: { id: string; name: string; shortDescription: { text: string } }[];
      };
    };
    invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[];
    results: SarifResult[];
  }[];
}

function schemaText(): string {
  return readFileSync(SCHEMA_FILE, "utf8");
}

/** The vendored schema, compiled once, formats checked too (uri, uri-reference, date-time). */
const validate = (() => {
  const ajv = new Ajv04({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(JSON.parse(schemaText()) as object);
})();

/** The errors of `log` against the schema. */
function schemaErrors(log: unknown): unknown[] {
  return validate(log) ? [] : (validate.errors ?? []);
}

const render = (review: Review, version?: string) =>
  JSON.parse(renderSarif(review, version ? { version } : {})) as SarifLog;

describe("renderSarif", () => {
  it("validates against the vendored OASIS SARIF 2.1.0 schema, with every class and a failed source", () => {
    const log = render(withFailedSources(everyClassReview()), "1.2.3");
    expect(schemaErrors(log)).toEqual([]);
    // The validator bites: a result without its message, or a level SARIF does not have, fails.
    const [result] = log.runs[0]!.results;
    const broken = { ...log, runs: [{ ...log.runs[0], results: [{ ...result, message: undefined, level: "fatal" }] }] };
    expect(schemaErrors(JSON.parse(JSON.stringify(broken)))).toHaveLength(2);
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(JSON.parse(schemaText())).toMatchObject({ id: SARIF_SCHEMA });
    expect(log.runs[0]!.invocations[0]!.executionSuccessful).toBe(false);
    expect(log.runs[0]!.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual([
      "terraform-state old.tfstate: old.tfstate is not JSON <line 1>",
      "pulumi-stack legacy: The instance speaks the legacy API & cannot be listed.",
    ]);
  });

  it("has no category unless asked; --sarif-category's {sources} is the sources' hash, the id ending with /", () => {
    const review = everyClassReview();
    const runOf = (text: string) => (JSON.parse(text) as { runs: { automationDetails?: { id: string } }[] }).runs[0]!;
    expect(runOf(renderSarif(review)).automationDetails).toBeUndefined();
    const lines = review.sources.map((s) => `${s.source.kind}:${s.source.name}`).sort();
    const hash = createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 12);
    expect(runOf(renderSarif(review, { category: "webhook-subscriptions-drift/{sources}" })).automationDetails).toEqual(
      {
        id: `webhook-subscriptions-drift/${hash}/`,
      },
    );
    expect(runOf(renderSarif(review, { category: "drift/prod/" })).automationDetails).toEqual({ id: "drift/prod/" });
    expect(schemaErrors(JSON.parse(renderSarif(review, { category: "x/{sources}" })) as never)).toEqual([]);
  });

  it("gives every result a location in a file and the finding's fingerprint", () => {
    const { results } = render(everyClassReview()).runs[0]!;
    expect(results).toHaveLength(FINDINGS.length);
    results.forEach((result, i) => {
      const finding = FINDINGS[i]!;
      const physical = result.locations[0]!.physicalLocation;
      expect(physical.artifactLocation).toEqual({ uri: finding.location.file, uriBaseId: "%SRCROOT%" });
      expect(physical.region).toEqual(finding.location.line ? { startLine: finding.location.line } : undefined);
      expect(result.partialFingerprints).toEqual({ [FINGERPRINT_KEY]: finding.fingerprint });
      expect(result.ruleId).toBe(finding.class);
      expect(result.message.text).toContain(finding.message);
    });
    const coOwned = results.find((r) => r.ruleId === "co-owned")!;
    expect(coOwned.locations[0]!.logicalLocations!.map((l) => l.fullyQualifiedName)).toEqual([
      "urn:pulumi:dev::app::webhooks:index:WebhookSubscription::shared-hook",
      "webhooks_subscription.shared",
    ]);
  });

  it("has one rule per finding class, results pointing at theirs, errors for what breaks delivery", () => {
    const { tool, results } = render(everyClassReview(), "1.2.3").runs[0]!;
    expect(tool.driver).toMatchObject({
      name: "webhook-subscriptions",
      informationUri: REPOSITORY_URL,
      version: "1.2.3",
    });
    expect(tool.driver.rules.map((r) => r.id)).toEqual([...FINDING_CLASSES]);
    expect(tool.driver.rules.map((r) => r.shortDescription.text)).toEqual(FINDING_CLASSES.map((c) => CLASS_TITLES[c]));
    expect(tool.driver.rules.find((r) => r.id === "differs-from-state")!.name).toBe("DiffersFromTheState");
    for (const result of results) expect(tool.driver.rules[result.ruleIndex]!.id).toBe(result.ruleId);
    const errors = FINDING_CLASSES.filter((c) => SARIF_LEVEL[c] === "error");
    expect(errors).toEqual(["deleted", "co-owned", "policy"]);
    expect(results.filter((r) => r.level === "error").map((r) => r.ruleId)).toEqual(errors);
  });

  it("names no secret value, and percent-encodes a path as a URI reference", () => {
    const review = everyClassReview();
    const leaky: Review = {
      ...review,
      findings: [
        {
          ...review.findings[0]!,
          location: { file: "my app/index#1.ts" },
          fields: [{ field: "signature", secret: true, recorded: "sig-secret", live: "sig-other" }],
        },
      ],
    };
    const text = renderSarif(leaky);
    expect(text).not.toMatch(/sig-secret|sig-other/);
    const result = (JSON.parse(text) as SarifLog).runs[0]!.results[0]!;
    expect(result.properties.fields).toEqual([{ field: "signature", secret: true }]);
    expect(result.locations[0]!.physicalLocation.artifactLocation.uri).toBe("my%20app/index%231.ts");
    expect(schemaErrors(JSON.parse(text))).toEqual([]);
  });

  it("names the repository package.json names, and the vendored schema is the pinned file", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { repository: { url: string } };
    expect(REPOSITORY_URL).toBe(pkg.repository.url);
    expect(createHash("sha256").update(readFileSync(SCHEMA_FILE)).digest("hex")).toBe(SCHEMA_SHA256);
  });
});
