/**
 * A Pulumi stack as a source of the review (drift/sources/pulumiStack.ts): where each finding
 * points. A program whose SDK records where it made each resource (the state's sourcePosition)
 * points at that file and line; a YAML program at the resource's line in Pulumi.yaml.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { undeterminedReport } from "../../drift/report";
import { stackRef, stackSource } from "../../drift/sources/pulumiStack";

const URN = "urn:pulumi:prod::app::webhooks:index:WebhookSubscription::";

describe("stackSource", () => {
  it("points each claim at the line that declares it: the state's for a program, Pulumi.yaml's for YAML", () => {
    const cwd = mkdtempSync(join(tmpdir(), "stack-source-"));
    const workDir = join(cwd, "app");
    mkdirSync(workDir);
    writeFileSync(
      join(workDir, "Pulumi.yaml"),
      "name: app\nruntime: yaml\nresources:\n  objects:\n    type: webhooks:WebhookSubscription\n",
    );
    const report = undeterminedReport(
      { stack: "prod", backend: null, instance: null, comparison: "state", startedAt: Date.now() },
      [
        {
          urn: `${URN}packets`,
          name: "packets",
          guid: "a1a1a1a1-0000-4000-8000-000000000001",
          declaredAt: { file: "src/hooks.ts", line: 17 },
        },
        { urn: `${URN}objects`, name: "objects", guid: "a1a1a1a1-0000-4000-8000-000000000002" },
        { urn: `${URN}gone`, name: "gone", guid: "a1a1a1a1-0000-4000-8000-000000000003" },
      ],
      "legacy",
    );
    const source = stackSource(report, stackRef("prod", workDir, cwd), workDir);
    const where = Object.fromEntries(source.claims.map((c) => [c.address.slice(URN.length), c.location]));
    expect(where).toEqual({
      packets: { file: join("app", "src", "hooks.ts"), line: 17 },
      objects: { file: join("app", "Pulumi.yaml"), line: 4 },
      gone: { file: join("app", "Pulumi.yaml") },
    });
  });
});
