/**
 * One subscription, one owner: the multi-stack review's co-ownership findings, and the orphans
 * of a killed `up` matched to the pending creates the engine recorded for them.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { classify, managedSubscriptions } from "../../drift/review/classify";
import type { SourceRef } from "../../drift/review/model";
import { matchPendingCreates, recoveryCommands } from "../../drift/sources/pulumi/pendingCreates";
import { stateSnapshot } from "../../drift/sources/pulumi/stateSnapshot";
import type { SourceResult } from "../../drift/sources/source";
import { MANUAL_WITH_HEADER } from "./fixtures/live";

const DYNAMIC = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";
const NATIVE = "webhooks:index:WebhookSubscription";
const GUID = "aa0c7a3e-1111-4222-8333-444444444444";
const STAGING: SourceRef = { kind: "pulumi-stack", name: "staging", file: "Pulumi.yaml" };
const PROD: SourceRef = { kind: "pulumi-stack", name: "prod", file: "q/Pulumi.yaml" };
const TF: SourceRef = { kind: "terraform-directory", name: "infra", file: "infra/main.tf" };

/** A source claiming `claims` (address, name, GUID), reviewed, on no instance. */
function claiming(ref: SourceRef, claims: readonly [string, string, string][]): SourceResult {
  return {
    report: { source: ref, status: "reviewed", compared: ["state"], instances: [] },
    claims: claims.map(([address, name, guid]) => ({ address, name, guid, location: { file: ref.file } })),
    observations: [],
    instances: [],
  };
}

describe("co-ownership", () => {
  const staging = claiming(STAGING, [[`urn:pulumi:staging::p::${DYNAMIC}::orders`, "orders", GUID]]);
  const prod = claiming(PROD, [
    [`urn:pulumi:prod::q::${NATIVE}::orders-hook`, "orders-hook", GUID.toUpperCase()],
    [`urn:pulumi:prod::q::${NATIVE}::other`, "other", "bb0c7a3e-1111-4222-8333-444444444444"],
  ]);

  it("finds a GUID both stacks record (any case, either front door), once, naming both stacks, resources and the fix", () => {
    const { findings } = classify({ sources: [staging, prod], live: new Map() });
    expect(findings.map((f) => f.class)).toEqual(["co-owned"]);
    const [found] = findings;
    expect(found!.guid).toBe(GUID);
    expect(found!.owners).toEqual([
      { source: STAGING, address: `urn:pulumi:staging::p::${DYNAMIC}::orders` },
      { source: PROD, address: `urn:pulumi:prod::q::${NATIVE}::orders-hook` },
    ]);
    expect(found!.advice).toMatch(
      /recorded by stack "staging" \(orders\) and stack "prod" \(orders-hook\): a destroy of either unsubscribes it for both/,
    );
    // Released either way without deleting it; `--force`: an imported resource is protected.
    expect(found!.advice).toContain(
      `release it from stack "prod" (orders-hook): \`pulumi state delete urn:pulumi:prod::q::${NATIVE}::orders-hook --stack prod --force --yes\`, then remove its declaration`,
    );
    expect(found!.advice).toContain(`release it from stack "staging" (orders): \`pulumi state delete`);
    expect(found!.advice).not.toContain("creates a subscription of its own");
    expect(classify({ sources: [staging], live: new Map() }).findings).toEqual([]);
  });

  it("names a Terraform owner by its directory and releases it there with a removed block", () => {
    const tf = claiming(TF, [["webhooks_subscription.orders", "webhooks_subscription.orders", GUID]]);
    const [found] = classify({ sources: [staging, tf], live: new Map() }).findings;
    expect(found!.advice).toContain('Terraform directory "infra" (webhooks_subscription.orders)');
    expect(found!.advice).toContain(
      "`removed { from = webhooks_subscription.orders lifecycle { destroy = false } }` block and apply (or `tofu -chdir=infra state rm webhooks_subscription.orders`",
    );
  });

  it("is one finding, whichever owner is read first; both owners' subscriptions point at it", () => {
    const one = classify({ sources: [staging, prod], live: new Map() }).findings;
    const other = classify({ sources: [prod, staging], live: new Map() }).findings;
    expect(one.map((f) => f.fingerprint)).toEqual(other.map((f) => f.fingerprint));
    const subscriptions = managedSubscriptions(PROD, prod.claims, one);
    expect(subscriptions.map((s) => [s.name, s.findings])).toEqual([
      ["orders-hook", [one[0]!.fingerprint]],
      ["other", []],
    ]);
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

    // The classification makes the matched orphan a pending create (reviewSources.test.ts holds the review's part).
  });
});
