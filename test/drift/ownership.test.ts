/**
 * One subscription, one owner: the multi-stack review's co-ownership findings, and the orphans
 * of a killed `up` matched to the pending creates the engine recorded for them.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { coOwnedSubscriptions } from "../../drift/coOwnership";
import { formatReport } from "../../drift/format";
import { formatMarkdown } from "../../drift/markdown";
import { matchPendingCreates, recoveryCommands } from "../../drift/pendingCreates";
import { driftReport, EXIT_CODE, type ReportContext } from "../../drift/report";
import { stateSnapshot } from "../../drift/stateSnapshot";
import { unmanagedSubscriptions } from "../../drift/unmanaged";
import { MANUAL_WITH_HEADER } from "./fixtures/live";

const DYNAMIC = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const NATIVE = "webhooks:index:WebhookSubscription";
const GUID = "aa0c7a3e-1111-4222-8333-444444444444";
const context: ReportContext = {
  stack: "staging",
  backend: "file://~",
  instance: { baseUrl: "https://acme.example.com", apiVersion: "3" },
  alsoManagedBy: ["prod"],
  comparison: "state-and-program",
  startedAt: Date.now(),
};

describe("co-ownership", () => {
  const staging = {
    stack: "staging",
    managed: [{ urn: `urn:pulumi:staging::p::${DYNAMIC}::orders`, name: "orders", guid: GUID }],
  };
  const prod = {
    stack: "prod",
    managed: [
      { urn: `urn:pulumi:prod::q::${NATIVE}::orders-hook`, name: "orders-hook", guid: GUID.toUpperCase() },
      { urn: `urn:pulumi:prod::q::${NATIVE}::other`, name: "other", guid: "bb0c7a3e-1111-4222-8333-444444444444" },
    ],
  };

  it("finds a GUID both stacks record (any case, either front door), naming both stacks, resources and the fix", () => {
    const [found, ...rest] = coOwnedSubscriptions(staging, [prod]);
    expect(rest).toEqual([]);
    expect(found!.guid).toBe(GUID);
    expect(found!.owners).toEqual([
      { stack: "staging", urn: staging.managed[0]!.urn, name: "orders" },
      { stack: "prod", urn: prod.managed[0]!.urn, name: "orders-hook" },
    ]);
    expect(found!.advice).toMatch(
      /recorded by stack "staging" \(orders\) and stack "prod" \(orders-hook\): a destroy of either unsubscribes it for both/,
    );
    expect(found!.advice).toContain(
      `pulumi state delete urn:pulumi:prod::q::${NATIVE}::orders-hook --stack prod --yes`,
    );
    expect(coOwnedSubscriptions(staging, [])).toEqual([]);
  });

  it("is drift (exit 2) with its own JSON field and a markdown section", () => {
    const coOwned = coOwnedSubscriptions(staging, [prod]);
    const report = driftReport(
      context,
      [{ urn: staging.managed[0]!.urn, name: "orders", guid: GUID, status: "in-sync", changes: [] }],
      [],
      [],
      { coOwned },
    );
    expect(report.status).toBe("drift");
    expect(report.exitCode).toBe(EXIT_CODE.drift);
    expect(JSON.parse(formatReport(report, "json")).coOwned).toEqual(coOwned);
    const text = formatMarkdown(report);
    expect(text).toContain("1 co-owned with another stack");
    expect(text).toMatch(
      /### Co-owned subscriptions \(1\)[\s\S]*`aa0c7a3e-1111-4222-8333-444444444444` \| stack `staging`: `orders`<br>stack `prod`: `orders-hook`/,
    );
    // In sync when no GUID is shared.
    expect(driftReport(context, [], [], [], { coOwned: [] }).status).toBe("in-sync");
  });
});

describe("orphans of a killed up", () => {
  const pendingCreate = (name: string, inputs: Record<string, unknown>) => ({
    type: "creating",
    resource: { urn: `urn:pulumi:dev::p::${DYNAMIC}::${name}`, type: DYNAMIC, inputs },
  });
  const manualInputs = {
    webhook: 4,
    filterObjectType: 6,
    subscriberUrl: "https://manual.example.org/hook",
    customHeader: "X-Token",
    customHeaderValue: { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"v"' },
  };

  it("reads the pending creates from state with what each sent", () => {
    const state = stateSnapshot({
      resources: [],
      pending_operations: [
        pendingCreate("manual", manualInputs),
        { type: "updating", resource: { urn: "urn:x", type: DYNAMIC, inputs: manualInputs } },
      ],
    });
    expect(state.pendingCreates.map((p) => p.urn)).toEqual([`urn:pulumi:dev::p::${DYNAMIC}::manual`]);
  });

  it("prints commands bash reads back word for word: a component child's URN (`$`, `::`), a quote, a space", () => {
    const child = `urn:pulumi:dev::p::my:index:Fleet$${DYNAMIC}::o'brien 1`;
    const plain = `urn:pulumi:dev::p::${DYNAMIC}::sub-0`;
    const [, adopt] = recoveryCommands("dev", 2, [plain, child]);
    // `pulumi` as a shell function printing its arguments, one per line, and the opt-in it saw.
    const words = execFileSync(
      "bash",
      ["-c", `pulumi() { printf '%s\\n' "$WEBHOOKS_ADOPT_IDENTICAL" "$@"; }\n${adopt}`],
      {
        encoding: "utf8",
      },
    );
    expect(words.trimEnd().split("\n")).toEqual([
      "true",
      "up",
      "--stack",
      "dev",
      "--target",
      child,
      "--target",
      plain,
      "--yes",
    ]);
  });

  it("matches each pending create to one identical orphan, and prints the commands that finish the run", () => {
    const state = stateSnapshot({
      pending_operations: [
        pendingCreate("manual", manualInputs),
        pendingCreate("twin", manualInputs),
        pendingCreate("other", { ...manualInputs, subscriberUrl: "https://elsewhere.example.org/" }),
      ],
    });
    const second = { ...MANUAL_WITH_HEADER, guid: "3f2a9c1d-0000-4000-8000-000000000002" };
    const urn = (name: string) => `urn:pulumi:dev::p::${DYNAMIC}::${name}`;
    const matches = matchPendingCreates(state.pendingCreates, [MANUAL_WITH_HEADER, second]);
    expect([...matches.entries()]).toEqual([
      [MANUAL_WITH_HEADER.guid, urn("manual")],
      [second.guid, urn("twin")],
    ]);

    const recovery = recoveryCommands("dev", state.pendingCreates.length, [...matches.values()]);
    expect(recovery).toEqual([
      "pulumi refresh --stack dev --clear-pending-creates --yes",
      `WEBHOOKS_ADOPT_IDENTICAL=true pulumi up --stack dev --target ${urn("manual")} --target ${urn("twin")} --yes`,
      "pulumi up --stack dev --yes",
    ]);
    // A pending create whose GUID the engine wrote before the kill takes exactly that subscription.
    const written = stateSnapshot({
      pending_operations: [
        pendingCreate("first", manualInputs),
        {
          type: "creating",
          resource: { ...pendingCreate("second", manualInputs).resource, id: second.guid.toUpperCase() },
        },
      ],
    });
    expect(written.guids.size).toBe(0);
    expect([...matchPendingCreates(written.pendingCreates, [MANUAL_WITH_HEADER, second]).entries()]).toEqual([
      [second.guid, urn("second")],
      [MANUAL_WITH_HEADER.guid, urn("first")],
    ]);
    // Pending creates that committed nothing: cleared, then created.
    expect(recoveryCommands("dev", 1, [])).toEqual([recovery[0], recovery[2]]);
    expect(recoveryCommands("dev", 0, [])).toEqual([]);

    const unmanaged = unmanagedSubscriptions([MANUAL_WITH_HEADER], new Set(), undefined, matches);
    expect(unmanaged[0]!.pendingCreate).toBe(urn("manual"));
    const report = driftReport(context, [], unmanaged, [], { recovery });
    expect(report.status).toBe("drift");
    expect(JSON.parse(formatReport(report, "json")).recovery).toEqual(recovery);
    const text = formatMarkdown(report);
    expect(text).toContain("| pending create of `manual` |");
    expect(text).toContain("**A killed `pulumi up` left pending creates in the state**, and 1 unmanaged subscription");
    expect(text).toContain(`\`\`\`sh\n${recovery.join("\n")}\n\`\`\``);
    // An orphan nobody's pending create sent has no pending create.
    expect(unmanagedSubscriptions([MANUAL_WITH_HEADER], new Set())[0]).not.toHaveProperty("pendingCreate");
  });
});
