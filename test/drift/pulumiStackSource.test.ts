/**
 * A Pulumi stack as a source of the review (drift/sources/pulumi/): where each finding points, and
 * what each says to do. A program whose SDK records where it made each resource (the state's
 * sourcePosition) points at that file and line while the line still makes it; a YAML program at
 * the resource's line in Pulumi.yaml.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ManagedVerdict } from "../../drift/sources/pulumi/classifyManaged";
import { declaringLocations, namesResource, stackRef } from "../../drift/sources/pulumi/locations";
import { stackObservations } from "../../drift/sources/pulumi/observations";
import type { DeclaredAt } from "../../drift/sources/pulumi/stateSnapshot";
import type { Claim } from "../../drift/sources/source";

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

/** Where the stack `prod` of `workDir` says each resource is declared, as `[name, declaredAt?]`. */
function claimsOf(dir: { cwd: string; workDir: string }, resources: [string, DeclaredAt?][]): Claim[] {
  const locate = declaringLocations(stackRef("prod", dir.workDir, dir.cwd), dir.workDir);
  return resources.map(([name, at], n) => ({
    guid: guid(n + 1),
    address: `${URN}${name}`,
    name,
    location: locate(name, at),
  }));
}

const verdict = (name: string, status: ManagedVerdict["status"], changes: ManagedVerdict["changes"] = []) => ({
  urn: `${URN}${name}`,
  name,
  guid: guid(1),
  status,
  changes,
});

describe("declaringLocations", () => {
  it("points each claim at the line that declares it: the state's for a program, Pulumi.yaml's for YAML", () => {
    const lines = Array.from({ length: 20 }, () => "");
    lines[16] = 'const packets = new WebhookSubscription("packets", {';
    const dir = program({
      "Pulumi.yaml": "name: app\nruntime: yaml\nresources:\n  objects:\n    type: webhooks:WebhookSubscription\n",
      "src/hooks.ts": lines.join("\n"),
    });
    const claims = claimsOf(dir, [
      ["packets", { file: "src/hooks.ts", line: 17 }],
      // The program was edited since the last `up`: line 3 no longer makes it.
      ["moved", { file: "src/hooks.ts", line: 3 }],
      // A file the checkout does not hold (compiled, renamed).
      ["built", { file: "bin/index.js", line: 17 }],
      ["objects"],
      ["gone"],
    ]);
    expect(Object.fromEntries(claims.map((c) => [c.name, c.location]))).toEqual({
      packets: { file: "app/src/hooks.ts", line: 17 },
      moved: { file: "app/src/hooks.ts" },
      built: { file: "app/Pulumi.yaml" },
      objects: { file: "app/Pulumi.yaml", line: 4 },
      gone: { file: "app/Pulumi.yaml" },
    });
  });

  it("a subscription the program no longer declares is not pointed at the line the state last saw", () => {
    const dir = program({
      "Pulumi.yaml": "name: app\nruntime: nodejs\n",
      "index.ts": 'new WebhookSubscription("old", {});\n',
    });
    const claims = claimsOf(dir, [["old", { file: "index.ts", line: 1 }]]);
    expect(claims[0]!.location).toEqual({ file: "app/index.ts", line: 1 });
    const observations = stackObservations(
      { verdicts: [], differences: [{ urn: `${URN}old`, name: "old", guid: guid(1), step: "delete", fields: [] }] },
      "prod",
      claims,
      declaringLocations(stackRef("prod", dir.workDir, dir.cwd), dir.workDir),
    );
    expect(observations.map((o) => [o.class, o.location])).toEqual([
      ["differs-from-program", { file: "app/Pulumi.yaml" }],
    ]);
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
    const dir = program({
      "Pulumi.yaml": "name: app\nruntime: nodejs\n",
      "index.ts":
        "for (let i = 0; i < 3; i++)\n  new WebhookSubscription(`hook-${i}`, { subscriberUrl: `https://x/${i}` });\n",
    });
    const [claim] = claimsOf(dir, [["hook-2", { file: "index.ts", line: 2 }]]);
    expect(claim!.location).toEqual({ file: "app/index.ts", line: 2 });
  });
});

describe("stackObservations: what the stack's engine found, and what to do", () => {
  const at = { file: "app/Pulumi.yaml" };
  const observe = (...verdicts: ManagedVerdict[]) =>
    stackObservations({ verdicts, differences: [] }, "org/prod", [], () => at);

  it("differs from the state: `pulumi up --refresh` puts the declared values back, `pulumi refresh` accepts the live ones; a plain `pulumi up` does not repair it", () => {
    const [found] = observe(
      verdict("packets", "changed", [
        { field: "subscriberUrl", secret: false, recorded: "https://a.example.com", live: "https://b.example.com" },
      ]),
    );
    expect(found).toMatchObject({
      class: "differs-from-state",
      message: `packets (${guid(1)}) differs from the state in subscriberUrl.`,
    });
    expect(found!.advice).toBe(
      "`pulumi up --refresh --stack org/prod` puts the declared values back; `pulumi refresh --stack org/prod` accepts the live ones " +
        "(then change the program to match). A plain `pulumi up` does not repair it: it compares the program with the state, not with the instance.",
    );
  });

  it("every observation says what to do; one in sync is none", () => {
    const found = stackObservations(
      {
        verdicts: [verdict("gone", "deleted"), verdict("same", "in-sync")],
        differences: [
          { urn: `${URN}new`, name: "new", guid: null, step: "create", fields: [] },
          {
            urn: `${URN}packets`,
            name: "packets",
            guid: guid(1),
            step: "update",
            fields: [{ field: "customHeader", secret: false, declared: "X-A", live: "X-B" }],
          },
        ],
      },
      "prod",
      [],
      () => at,
    );
    expect(found.map((o) => [o.class, o.step, o.advice])).toEqual([
      [
        "deleted",
        undefined,
        "`pulumi up --refresh --stack prod` creates it again as declared; `pulumi refresh --stack prod` drops it from the state " +
          "(then remove it from the program). A plain `pulumi up` does not repair it: it compares the program with the state, not with the instance.",
      ],
      [
        "differs-from-program",
        "create",
        "Run `pulumi up --refresh --stack prod` to apply the program, or change the program to the live values.",
      ],
      [
        "differs-from-program",
        "update",
        "Run `pulumi up --refresh --stack prod` to apply the program, or change the program to the live values.",
      ],
    ]);
    expect(found[2]!.message).toBe(
      `packets (${guid(1)}) differs from the program in customHeader (\`pulumi up\` would update it).`,
    );
  });

  it("names a changed secret, never its value", () => {
    const [found] = observe(verdict("packets", "changed", [{ field: "customHeaderValue", secret: true }]));
    expect(found!.fields).toEqual([{ field: "customHeaderValue", secret: true }]);
    expect(found!.message).toBe(`packets (${guid(1)}) differs from the state in customHeaderValue.`);
  });
});
