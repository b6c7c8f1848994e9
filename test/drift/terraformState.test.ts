/**
 * One owner across tools: the subscriptions a Terraform/OpenTofu state holds are claimed, so that
 * they count as managed, and one a Pulumi stack records too is co-owned. Fixtures: a state file
 * (format 4) and what `tofu show -json` prints for the same kind of configuration, with a module
 * and nested modules.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coOwnershipAdvice } from "../../drift/review/coOwnership";
import { readTerraformStateFile } from "../../drift/sources/terraform/stateFile";
import {
  parseTerraformState,
  readTerraformState,
  TERRAFORM_SUBSCRIPTION_TYPE,
  TerraformStateError,
} from "../../drift/sources/terraform/stateParsing";
import { RESOURCE_TYPE } from "../../provider/terraform/names";

const STATE_FILE = join(__dirname, "fixtures", "terraform.tfstate");
const SHOW_FILE = join(__dirname, "fixtures", "tofu-show.json");
const GUID = "aa0c7a3e-1111-4222-8333-444444444444";

describe("reading a Terraform state", () => {
  it("reads the Terraform door's resource type, stated again since the review imports no front door", () => {
    expect(TERRAFORM_SUBSCRIPTION_TYPE).toBe(RESOURCE_TYPE);
  });

  it("a state file (format 4): managed webhooks_subscription instances by address, modules and index keys included; data sources and other types left out", () => {
    const state = readTerraformState(STATE_FILE, "terraform.tfstate");
    expect(state).toEqual([
      { address: "webhooks_subscription.orders", guid: GUID.toUpperCase() },
      {
        address: 'module.regions.webhooks_subscription.per_region["eu"]',
        guid: "cc0c7a3e-1111-4222-8333-444444444444",
      },
      { address: "module.regions.webhooks_subscription.per_region[1]", guid: "dd0c7a3e-1111-4222-8333-444444444444" },
    ]);
    // Only addresses and GUIDs are kept: nothing else of the state (a Signature in clear) goes on.
    expect(JSON.stringify(state)).not.toContain("tf-signature-in-clear");
  });

  it("the output of `tofu show -json`: the root module's resources and every child module's, nested ones too", () => {
    expect(readTerraformState(SHOW_FILE, "show.json")).toEqual([
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
    expect(parseTerraformState('{"format_version":"1.0","values":{"root_module":{}}}', "empty.json")).toEqual([]);
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
  const file = "infra/terraform.tfstate";
  const terraform = readTerraformStateFile({
    file,
    absFile: STATE_FILE,
    cwd: join(__dirname, "fixtures", ".."),
    env: { WEBHOOKS_BASE_URL: "https://acme.example.com", WEBHOOKS_TOKEN: "t" },
  });

  it("a subscription both a stack and a Terraform state claim is co-owned, with the command that makes Terraform forget it", () => {
    const claim = terraform.claims.find((c) => c.guid.toLowerCase() === GUID)!;
    expect(claim).toMatchObject({ address: "webhooks_subscription.orders", name: "webhooks_subscription.orders" });
    const advice = coOwnershipAdvice(GUID, [
      {
        source: { kind: "pulumi-stack", name: "prod", file: "Pulumi.yaml" },
        address: "urn:pulumi:prod::p::webhooks:index:WebhookSubscription::orders",
        name: "orders",
      },
      { source: terraform.report.source, address: claim.address, name: claim.name },
    ]);
    expect(advice).toContain(
      'recorded by stack "prod" (orders) and Terraform state "infra/terraform.tfstate" (webhooks_subscription.orders): a destroy of either unsubscribes it for both',
    );
    // Either way round, released without deleting it: never "apply there to create one of its own".
    expect(advice).toContain(
      'release it from Terraform state "infra/terraform.tfstate" (webhooks_subscription.orders): `tofu state rm webhooks_subscription.orders`',
    );
    expect(advice).toContain(
      'release it from stack "prod" (orders): `pulumi state delete urn:pulumi:prod::p::webhooks:index:WebhookSubscription::orders --stack prod --force --yes`',
    );
    expect(advice).not.toContain("creates a subscription of its own");
  });
});
