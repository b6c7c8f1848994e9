import { describe, expect, it } from "vitest";
import { formatReport } from "../../drift/format";
import type { Invocation } from "../../drift/invocation";
import { formatMarkdown, MAX_COMMENT_CHARS, summaryLine, type MarkdownOptions } from "../../drift/markdown";
import {
  driftReport,
  errorReport,
  undeterminedReport,
  type ManagedSubscription,
  type ProgramDifference,
  type ReportContext,
} from "../../drift/report";
import { unmanagedSubscriptions } from "../../drift/unmanaged";
import { MANUAL_WITH_HEADER } from "./fixtures/live";

const context: ReportContext = {
  stack: "prod",
  backend: "s3://state-bucket",
  instance: { baseUrl: "https://acme.example.com", apiVersion: "3" },
  comparison: "state-and-program",
  startedAt: Date.now(),
};

const inSync = (i: number): ManagedSubscription => ({
  urn: `urn:${i}`,
  name: `sub-${String(i).padStart(4, "0")}`,
  guid: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
  status: "in-sync",
  changes: [],
});

const changed: ManagedSubscription = {
  urn: "urn:changed",
  name: "orders",
  guid: "f328bd91-c386-4faa-b5f8-b076d17651cb",
  status: "changed",
  changes: [
    { field: "subscriberUrl", secret: false, state: "https://a.example.com/x", live: "https://b.example.com/x|y" },
    { field: "webhook", secret: false, state: 0, live: 1 },
    { field: "customHeaderValue", secret: true },
  ],
};

const deleted: ManagedSubscription = {
  urn: "urn:deleted",
  name: "types",
  guid: "c6d838ee-cc6c-403f-ae4d-e1b0d7066622",
  status: "deleted",
  changes: [],
};

const unmanaged = unmanagedSubscriptions([MANUAL_WITH_HEADER], new Set());

describe("formatMarkdown", () => {
  it("starts with one summary line, then a table with the drift first", () => {
    const text = formatMarkdown(driftReport(context, [inSync(1), changed, deleted], unmanaged));
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      "**Drift in stack `prod`:** 1 deleted out of band, 1 changed out of band, 1 unmanaged; 1 of 3 managed subscriptions in sync on https://acme.example.com.",
    );
    expect(lines.slice(2, 10)).toEqual([
      "| Status | Subscription | GUID | Field | In state | Live |",
      "|---|---|---|---|---|---|",
      "| deleted out of band | `types` | `c6d838ee-cc6c-403f-ae4d-e1b0d7066622` |  | exists | **gone** |",
      "| changed out of band | `orders` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `subscriberUrl` | `https://a.example.com/x` | `https://b.example.com/x\\|y` |",
      "| changed out of band | `orders` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `webhook` | `0 (PacketCreated)` | `1 (PacketUpdated)` |",
      "| changed out of band | `orders` | `f328bd91-c386-4faa-b5f8-b076d17651cb` | `customHeaderValue` | (secret) | **secret changed** |",
      "| unmanaged |  | `3f2a9c1d-0000-4000-8000-000000000001` |  | not in state | webhook `4 (SpecificBusinessObjectUpdated)`, filterObjectType `6`, subscriberUrl `https://manual.example.org/hook`, customHeader `X-Token` (value set, not shown) |",
      "| in sync | `sub-0001` | `00000000-0000-4000-8000-000000000001` |  |  |  |",
    ]);
    expect(text).toContain("<details><summary>Adopt the 1 unmanaged subscription into the program</summary>");
    expect(text).toContain('adoptGuid: "3f2a9c1d-0000-4000-8000-000000000001"');
    expect(text).not.toMatch(/sig-secret|header-secret/);
  });

  it("a subscription that differs from the program alone is drift: named with the field, declared and live values, a secret by name", () => {
    const differsFromProgram: ProgramDifference[] = [
      {
        urn: "urn:orders",
        name: "orders",
        guid: changed.guid,
        action: "update",
        changes: [
          {
            field: "subscriberUrl",
            secret: false,
            live: "https://b.example.com/x",
            declared: "https://a.example.com/x",
          },
          { field: "customHeaderValue", secret: true },
        ],
      },
      { urn: "urn:new", name: "new-one", guid: null, action: "create", changes: [] },
    ];
    // After a `pulumi refresh`, the state agrees with the instance: only the program comparison finds it.
    const report = driftReport(context, [inSync(1)], [], [], { differsFromProgram });
    expect(report).toMatchObject({ status: "drift", exitCode: 2, comparison: "state-and-program" });
    expect(report.summary).toMatchObject({ managed: 1, inSync: 1, differsFromProgram: 2 });
    expect(report.differsFromProgram.map((d) => d.name)).toEqual(["new-one", "orders"]);
    const text = formatMarkdown(report);
    expect(text.split("\n")[0]).toBe(
      "**Drift in stack `prod`:** 2 differ from the program; 1 of 1 managed subscription in sync on https://acme.example.com.",
    );
    expect(text).toContain(
      [
        "### Differs from the program (2)",
        "",
        "What the stack's program declares is not what is live; `pulumi up` would do the step shown.",
        "",
        "| Subscription | GUID | `pulumi up` would | Field | Declared | Live |",
        "|---|---|---|---|---|---|",
        "| `new-one` |  | create |  | declared | **not live** |",
        `| \`orders\` | \`${changed.guid}\` | update | \`subscriberUrl\` | \`https://a.example.com/x\` | \`https://b.example.com/x\` |`,
        `| \`orders\` | \`${changed.guid}\` | update | \`customHeaderValue\` | (secret) | **secret differs** |`,
      ].join("\n"),
    );
    expect(text).toContain("Compared the live subscriptions with the stack's state and with its program");
    expect(JSON.parse(formatReport(report, "json"))).toMatchObject({
      exitCode: 2,
      differsFromProgram: report.differsFromProgram,
    });
  });

  it("says which comparison it made: a state-only review names --state-only and what it cannot see", () => {
    const text = formatMarkdown(driftReport({ ...context, comparison: "state" }, [inSync(1)], []));
    expect(text).toContain(
      "Compared the live subscriptions with the stack's state only (`--state-only`): a `pulumi refresh` copies live values into the state, so this review does not see them",
    );
    expect(text).toContain("`npx webhook-subscriptions drift --stack prod --state-only`");
  });

  it("says so when there is no drift", () => {
    expect(summaryLine(driftReport(context, [inSync(1), inSync(2)], []))).toBe(
      "**No drift in stack `prod`:** all 2 managed subscriptions are in sync, and no unmanaged subscription exists on https://acme.example.com.",
    );
    expect(summaryLine(driftReport(context, [inSync(1)], []))).toContain("the managed subscription is in sync");
  });

  it("says plainly when drift cannot be determined, and when the review failed", () => {
    const legacy = formatMarkdown(undeterminedReport(context, [inSync(1)], "it uses the legacy API."));
    expect(legacy.split("\n")[0]).toBe("**Drift cannot be determined for stack `prod`:** it uses the legacy API.");
    expect(legacy).toContain("| unknown | `sub-0001` |");
    const failed = formatMarkdown(
      errorReport({ ...context, backend: null, instance: null }, { code: "UNAUTHORIZED", message: "401: refused." }),
    );
    expect(failed.split("\n")[0]).toBe("**Drift review of stack `prod` failed:** 401: refused.");
    expect(failed).not.toContain("| Status |");
  });

  it("says what it could not see: the account's visibility and unreadable entries, before the footer", () => {
    const notes = ["only what this account sees", 'subscription x cannot be read: Webhook "Nope" | bad'];
    const text = formatMarkdown(driftReport(context, [inSync(1)], [], notes));
    const lines = text.trimEnd().split("\n");
    expect(lines.slice(-4, -1)).toEqual([
      "> **Note:** Only what this account sees",
      '> **Note:** Subscription x cannot be read: Webhook "Nope" \\| bad',
      "",
    ]);
    expect(JSON.parse(formatReport(driftReport(context, [inSync(1)], [], notes), "json")).notes).toEqual(notes);
  });

  it("fits a report of thousands of subscriptions into one comment, drift first", () => {
    const many = Array.from({ length: 3000 }, (_, i) => inSync(i));
    const text = formatMarkdown(driftReport(context, [...many, changed], unmanaged));
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(text).toContain("| in sync | 3000 subscriptions |");
    expect(text).toContain("`customHeaderValue` | (secret) | **secret changed** |");
  });

  it("cuts rows when even the drift alone is too long", () => {
    const many = Array.from({ length: 3000 }, (_, i): ManagedSubscription => ({
      ...deleted,
      urn: `urn:${i}`,
      name: `gone-${i}`,
    }));
    const text = formatMarkdown(driftReport(context, many, []));
    expect(text.length).toBeLessThanOrEqual(MAX_COMMENT_CHARS);
    expect(text).toMatch(/\| … \| \d+ more rows \|/);
    expect(text).toContain("run `npx webhook-subscriptions drift --stack prod --format json` for all of it");
  });

  it("ends with where it looked and the command that runs it again, in any project", () => {
    const footer = (report: Parameters<typeof formatMarkdown>[0]) =>
      formatMarkdown(report).trimEnd().split("\n").at(-1);
    expect(footer(driftReport(context, [inSync(1)], []))).toMatch(
      /^<sub>state in s3:\/\/state-bucket · api-version 3 · reviewed in \d+\.\ds · `npx webhook-subscriptions drift --stack prod`<\/sub>$/,
    );
    const shared = driftReport(
      {
        ...context,
        backend: "the backend the Pulumi CLI is logged in to (`pulumi whoami -v`)",
        alsoManagedBy: ["billing"],
        ignored: {
          rules: ["https://legacy.example.com/hooks?team=a&b", "3f2a9c1d-0000-4000-8000-000000000001"],
          guids: [],
        },
      },
      [inSync(1)],
      [],
    );
    expect(footer(shared)).toContain(
      "<sub>state in the backend the Pulumi CLI is logged in to (`pulumi whoami -v`) · ",
    );
    expect(footer(shared)).toContain(
      "`npx webhook-subscriptions drift --stack prod --stack billing --ignore 'https://legacy.example.com/hooks?team=a&b' --ignore 3f2a9c1d-0000-4000-8000-000000000001`",
    );
  });

  it("prints its commands as the review was run: npx from the npm package, the name alone from the single executable", () => {
    const report = driftReport({ ...context, comparison: "state" }, [inSync(1)], []);
    const footer = (options?: MarkdownOptions) => formatMarkdown(report, options).trimEnd().split("\n").at(-1);
    expect(footer()).toMatch(/ · `npx webhook-subscriptions drift --stack prod --state-only`<\/sub>$/);
    expect(footer({ invocation: "package" })).toBe(footer());
    expect(footer({ invocation: "executable" })).toMatch(
      / · `webhook-subscriptions drift --stack prod --state-only`<\/sub>$/,
    );
    // The note of a report cut to fit one comment too.
    const many = Array.from({ length: 3000 }, (_, i): ManagedSubscription => ({
      ...deleted,
      urn: `u${i}`,
      name: `g${i}`,
    }));
    const long = (invocation: Invocation) => formatMarkdown(driftReport(context, many, []), { invocation });
    expect(long("package")).toContain("run `npx webhook-subscriptions drift --stack prod --format json` for all of it");
    expect(long("executable")).toContain("run `webhook-subscriptions drift --stack prod --format json` for all of it");
    expect(long("executable")).not.toContain("npx");
  });

  it("shows under a subscription's name the line that declares it, where the review found one", () => {
    const declaredAt = new Map([
      ["urn:changed", "app/index.ts:17"],
      ["urn:deleted", "app/Pulumi.yaml:4"],
    ]);
    const lines = formatMarkdown(driftReport(context, [changed, deleted], []), { declaredAt }).split("\n");
    expect(lines.filter((l) => l.includes("`orders`<br>`app/index.ts:17`"))).toHaveLength(3);
    expect(lines.some((l) => l.includes("| `types`<br>`app/Pulumi.yaml:4` |"))).toBe(true);
    // Without it (a report formatted alone), the name alone.
    expect(formatMarkdown(driftReport(context, [changed], []))).not.toContain("<br>`app/");
  });

  it("in the program's table, the declaring line of an update, never the state's old line of one the program dropped", () => {
    const differsFromProgram: ProgramDifference[] = [
      { urn: "urn:changed", name: "orders", guid: changed.guid, action: "update", changes: [changed.changes[0]!] },
      { urn: "urn:deleted", name: "types", guid: deleted.guid, action: "delete", changes: [] },
    ];
    const declaredAt = new Map([
      ["urn:changed", "app/index.ts:17"],
      ["urn:deleted", "app/index.ts:30"],
    ]);
    const text = formatMarkdown(driftReport(context, [inSync(1)], [], [], { differsFromProgram }), { declaredAt });
    expect(text).toContain("| `orders`<br>`app/index.ts:17` | `f328bd91-");
    expect(text).toContain("| `types` | `c6d838ee-");
    expect(text).not.toContain("app/index.ts:30");
  });

  it("ends with the command the host names when the drift command alone would not run it again (npm start -- --drift)", () => {
    const rerun = "WEBHOOKS_STACK=qa npm start -- --drift";
    const footer = formatMarkdown(driftReport(context, [inSync(1)], []), { rerun })
      .trimEnd()
      .split("\n")
      .at(-1);
    expect(footer).toMatch(/ · `WEBHOOKS_STACK=qa npm start -- --drift`<\/sub>$/);
    // Cut to fit one comment: npm start offers no JSON, so no command is named for the rest.
    const many = Array.from({ length: 3000 }, (_, i): ManagedSubscription => ({
      ...deleted,
      urn: `u${i}`,
      name: `g${i}`,
    }));
    const long = formatMarkdown(driftReport(context, many, []), { rerun });
    expect(long).toContain("*The report is too long for one comment.*");
    expect(long).not.toContain("webhook-subscriptions drift");
  });
});

describe("formatReport", () => {
  it("prints JSON with the schema version and exit code", () => {
    const json = JSON.parse(formatReport(driftReport(context, [inSync(1)], unmanaged), "json"));
    expect(json).toMatchObject({
      version: 1,
      status: "drift",
      exitCode: 2,
      summary: { managed: 1, inSync: 1, unmanaged: 1 },
    });
  });
});
