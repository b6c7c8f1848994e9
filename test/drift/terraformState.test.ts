/**
 * One owner across tools: the subscriptions a Terraform/OpenTofu state holds count as managed, and
 * one a Pulumi stack records too is co-owned. Fixtures: a state file (format 4) and what
 * `tofu show -json` prints for the same kind of configuration, with a module and nested modules.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coOwnedSubscriptions } from "../../drift/coOwnership";
import { formatMarkdown } from "../../drift/markdown";
import { driftReport, type ReportContext } from "../../drift/report";
import { parseTerraformState, readTerraformState, TerraformStateError } from "../../drift/terraformState";

const STATE_FILE = join(__dirname, "fixtures", "terraform.tfstate");
const SHOW_FILE = join(__dirname, "fixtures", "tofu-show.json");
const GUID = "aa0c7a3e-1111-4222-8333-444444444444";

describe("reading a Terraform state", () => {
  it("a state file (format 4): managed webhooks_subscription instances by address, modules and index keys included; data sources and other types left out", () => {
    const state = readTerraformState(STATE_FILE, "terraform.tfstate");
    expect(state).toEqual({
      file: "terraform.tfstate",
      subscriptions: [
        { address: "webhooks_subscription.orders", guid: GUID.toUpperCase() },
        {
          address: 'module.regions.webhooks_subscription.per_region["eu"]',
          guid: "cc0c7a3e-1111-4222-8333-444444444444",
        },
        { address: "module.regions.webhooks_subscription.per_region[1]", guid: "dd0c7a3e-1111-4222-8333-444444444444" },
      ],
    });
    // Only addresses and GUIDs are kept: nothing else of the state (a Signature in clear) goes on.
    expect(JSON.stringify(state)).not.toContain("tf-signature-in-clear");
  });

  it("the output of `tofu show -json`: the root module's resources and every child module's, nested ones too", () => {
    expect(readTerraformState(SHOW_FILE, "show.json").subscriptions).toEqual([
      { address: "webhooks_subscription.orders", guid: GUID },
      {
        address: 'module.regions.webhooks_subscription.per_region["eu"]',
        guid: "cc0c7a3e-1111-4222-8333-444444444444",
      },
      {
        address: "module.regions.module.inner.webhooks_subscription.nested",
        guid: "dd0c7a3e-1111-4222-8333-444444444444",
      },
    ]);
    // An empty configuration shows no root_module resources at all.
    expect(
      parseTerraformState('{"format_version":"1.0","values":{"root_module":{}}}', "empty.json").subscriptions,
    ).toEqual([]);
  });

  it("refuses what it cannot read, naming the file and saying what to give instead", () => {
    const refusal = (text: string) => {
      try {
        parseTerraformState(text, "state.json");
      } catch (err) {
        expect(err).toBeInstanceOf(TerraformStateError);
        return (err as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal("{ not json")).toMatch(
      /^--terraform-state state\.json: not JSON \(.*\)\. Give a state file .*`tofu show -json > state\.json`/,
    );
    expect(refusal('{"version":3,"modules":[],"resources":[]}')).toContain(
      "--terraform-state state.json: state format version 3 is not supported, only 4",
    );
    expect(refusal('{"lineage":"x"}')).toContain(
      'neither a state file (no "version": 4 with "resources") nor the output of `tofu show -json`',
    );
    expect(() => readTerraformState(join(__dirname, "fixtures", "missing.tfstate"), "missing.tfstate")).toThrow(
      /^--terraform-state missing\.tfstate: cannot read it \(ENOENT\)\. Name a state file that exists/,
    );
  });
});

describe("one owner across tools", () => {
  const terraform = readTerraformState(STATE_FILE, "infra/terraform.tfstate");
  const tfOwner = {
    stack: terraform.file,
    tool: "terraform" as const,
    managed: terraform.subscriptions.map((s) => ({ urn: s.address, name: s.address, guid: s.guid })),
  };
  const stack = {
    stack: "prod",
    managed: [{ urn: "urn:pulumi:prod::p::webhooks:index:WebhookSubscription::orders", name: "orders", guid: GUID }],
  };
  const context: ReportContext = {
    stack: "prod",
    backend: "file://~",
    instance: { baseUrl: "https://acme.example.com", apiVersion: "3" },
    terraformStates: [terraform.file],
    comparison: "state-and-program",
    startedAt: Date.now(),
  };

  it("a subscription both a stack and a Terraform state claim is co-owned, with the command that makes Terraform forget it", () => {
    const [found, ...rest] = coOwnedSubscriptions(stack, [tfOwner]);
    expect(rest).toEqual([]);
    expect(found!.owners).toEqual([
      { stack: "prod", urn: stack.managed[0]!.urn, name: "orders" },
      {
        stack: "infra/terraform.tfstate",
        urn: "webhooks_subscription.orders",
        name: "webhooks_subscription.orders",
        tool: "terraform",
      },
    ]);
    expect(found!.advice).toContain(
      'recorded by stack "prod" (orders) and Terraform state "infra/terraform.tfstate" (webhooks_subscription.orders): a destroy of either unsubscribes it for both',
    );
    expect(found!.advice).toContain(
      "`tofu state rm webhooks_subscription.orders` (or `terraform state rm`) in the configuration of infra/terraform.tfstate",
    );

    const report = driftReport(context, [], [], [], { coOwned: [found!] });
    expect(report).toMatchObject({ status: "drift", exitCode: 2, terraformStates: ["infra/terraform.tfstate"] });
    const text = formatMarkdown(report);
    expect(text.split("\n")[0]).toContain("1 co-owned with another stack or Terraform state");
    expect(text).toContain("Terraform state `infra/terraform.tfstate`: `webhooks_subscription.orders`");
    expect(text).toContain("Subscriptions of Terraform state `infra/terraform.tfstate` count as managed.");
    // The footer's command runs the same review again, the state file included.
    expect(text).toContain("npx webhook-subscriptions drift --stack prod --terraform-state infra/terraform.tfstate");
  });

  it("a Terraform directory's subscriptions count as managed under its own name and flag, so the footer's command reads it as a directory", () => {
    const { terraformStates: _states, ...withoutStates } = context;
    const report = driftReport({ ...withoutStates, terraformDirectories: ["infra/hooks"] }, [], [], []);
    expect(report).toMatchObject({ terraformDirectories: ["infra/hooks"] });
    expect(report).not.toHaveProperty("terraformStates");
    const text = formatMarkdown(report);
    expect(text).toContain("Subscriptions of Terraform directory `infra/hooks` count as managed.");
    expect(text).toContain("npx webhook-subscriptions drift --stack prod --terraform infra/hooks`");
    expect(text).not.toContain("--terraform-state");
  });
});
