/**
 * A Pulumi stack as a source of the review (drift/sources/pulumiStack.ts): where each finding
 * points. A program whose SDK records where it made each resource (the state's sourcePosition)
 * points at that file and line while the line still makes it; a YAML program at the resource's
 * line in Pulumi.yaml.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { undeterminedReport, type DriftReport } from "../../drift/report";
import { namesResource, stackRef, stackSource } from "../../drift/sources/pulumiStack";

const URN = "urn:pulumi:prod::app::webhooks:index:WebhookSubscription::";
const guid = (n: number) => `a1a1a1a1-0000-4000-8000-00000000000${n}`;

const made: string[] = [];
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A program directory `app` under a new working directory, with `files` in it. */
function program(files: Record<string, string>): { cwd: string; workDir: string } {
  const cwd = mkdtempSync(join(tmpdir(), "stack-source-"));
  made.push(cwd);
  const workDir = join(cwd, "app");
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(workDir, file, ".."), { recursive: true });
    writeFileSync(join(workDir, file), text);
  }
  return { cwd, workDir };
}

const report = (managed: Parameters<typeof undeterminedReport>[1]): DriftReport =>
  undeterminedReport({ stack: "prod", backend: null, instance: null, comparison: "state", startedAt: 0 }, managed, "-");

describe("stackSource", () => {
  it("points each claim at the line that declares it: the state's for a program, Pulumi.yaml's for YAML", () => {
    const lines = Array.from({ length: 20 }, () => "");
    lines[16] = 'const packets = new WebhookSubscription("packets", {';
    const { cwd, workDir } = program({
      "Pulumi.yaml": "name: app\nruntime: yaml\nresources:\n  objects:\n    type: webhooks:WebhookSubscription\n",
      "src/hooks.ts": lines.join("\n"),
    });
    const source = stackSource(
      report([
        { urn: `${URN}packets`, name: "packets", guid: guid(1), declaredAt: { file: "src/hooks.ts", line: 17 } },
        // The program was edited since the last `up`: line 3 no longer makes it.
        { urn: `${URN}moved`, name: "moved", guid: guid(2), declaredAt: { file: "src/hooks.ts", line: 3 } },
        // A file the checkout does not hold (compiled, renamed).
        { urn: `${URN}built`, name: "built", guid: guid(3), declaredAt: { file: "bin/index.js", line: 17 } },
        { urn: `${URN}objects`, name: "objects", guid: guid(4) },
        { urn: `${URN}gone`, name: "gone", guid: guid(5) },
      ]),
      stackRef("prod", workDir, cwd),
      workDir,
    );
    const where = Object.fromEntries(source.claims.map((c) => [c.address.slice(URN.length), c.location]));
    expect(where).toEqual({
      packets: { file: "app/src/hooks.ts", line: 17 },
      moved: { file: "app/src/hooks.ts" },
      built: { file: "app/Pulumi.yaml" },
      objects: { file: "app/Pulumi.yaml", line: 4 },
      gone: { file: "app/Pulumi.yaml" },
    });
  });

  it("a subscription the program no longer declares is not pointed at the line the state last saw", () => {
    const { cwd, workDir } = program({
      "Pulumi.yaml": "name: app\nruntime: nodejs\n",
      "index.ts": 'new WebhookSubscription("old", {});\n',
    });
    const managed = [{ urn: `${URN}old`, name: "old", guid: guid(1), declaredAt: { file: "index.ts", line: 1 } }];
    const deleted: DriftReport = {
      ...report(managed),
      differsFromProgram: [{ urn: `${URN}old`, name: "old", guid: guid(1), action: "delete", changes: [] }],
    };
    const source = stackSource(deleted, stackRef("prod", workDir, cwd), workDir);
    expect(source.claims[0]!.location).toEqual({ file: "app/index.ts", line: 1 });
    expect(source.observations.find((o) => o.class === "differs-from-program")!.location).toEqual({
      file: "app/Pulumi.yaml",
    });
  });
});

describe("namesResource", () => {
  it("takes a line that names the resource quoted, or as a loop's template literal or f-string it fits", () => {
    expect(namesResource('new WebhookSubscription("orders", {', "orders")).toBe(true);
    expect(namesResource("new WebhookSubscription('orders', {", "orders")).toBe(true);
    expect(namesResource("  new WebhookSubscription(`hook-${i}`, {", "hook-3")).toBe(true);
    expect(namesResource("  new WebhookSubscription(`${team}-hook-${i}`, {", "billing-hook-12")).toBe(true);
    expect(namesResource('    WebhookSubscription(f"hook-{i}",', "hook-3")).toBe(true);
    expect(namesResource("    WebhookSubscription(f'{team}-hook-{d[\"n\"]}',", "billing-hook-1")).toBe(true);
    expect(namesResource('    WebhookSubscription(rf"hook-{i}",', "hook-3")).toBe(true);
    // Not this resource: another name, a template whose fixed parts it does not fit, no name at all.
    expect(namesResource('new WebhookSubscription("orders-v2", {', "orders")).toBe(false);
    expect(namesResource("new WebhookSubscription(`hook-${i}`, {", "orders")).toBe(false);
    expect(namesResource("new WebhookSubscription(`hook.${i}`, {", "hookx3")).toBe(false);
    expect(namesResource("new WebhookSubscription(name, {", "orders")).toBe(false);
    // Placeholders alone fit any name: a line such as this one says nothing about which resource it makes.
    expect(namesResource('  subscriberUrl: `${base}`, customHeader: f"{h}"', "orders")).toBe(false);
  });

  it("points a subscription made in a loop at its line", () => {
    const { cwd, workDir } = program({
      "Pulumi.yaml": "name: app\nruntime: nodejs\n",
      "index.ts":
        "for (let i = 0; i < 3; i++)\n  new WebhookSubscription(`hook-${i}`, { subscriberUrl: `https://x/${i}` });\n",
    });
    const source = stackSource(
      report([{ urn: `${URN}hook-2`, name: "hook-2", guid: guid(1), declaredAt: { file: "index.ts", line: 2 } }]),
      stackRef("prod", workDir, cwd),
      workDir,
    );
    expect(source.claims[0]!.location).toEqual({ file: "app/index.ts", line: 2 });
  });
});
