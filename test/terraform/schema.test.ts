/**
 * The Terraform schema, derived from the resource's description the package schema is derived
 * from too (the one model): the same fields in snake_case, required and sensitive where the model says, the same descriptions,
 * and the validation of a configuration as diagnostics on the attribute, in HCL terms.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PackageSchema } from "../../provider/native/schema";
import { RESOURCE_TOKEN } from "../../provider/native/tokens";
import { inHclTerms } from "../../provider/description/hclNames";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { SCHEMA_VERSION, terraformSchema, type Attribute, type TerraformSchema } from "../../provider/terraform/schema";
import { validateSubscription } from "../../provider/terraform/validate";
import { Unknown } from "../../provider/terraform/values/codec";
import { packageSchema, resourceDescription } from "../../scripts/packageSchema";

let pulumi: PackageSchema;
let schema: TerraformSchema;
const byName = (attributes: readonly Attribute[]) => Object.fromEntries(attributes.map((a) => [a.name, a]));

beforeAll(() => {
  // Both doors' schemas from the one description, as the build derives them.
  const description = resourceDescription();
  pulumi = packageSchema(description);
  schema = terraformSchema(description);
}, 60_000);

const VALID = {
  webhook: "PacketCreated",
  filter_object_type: 2,
  filter_object_guid: "6f1c2a3b-0000-4000-8000-000000000001",
  subscriber_url: "https://hooks.example.com/orders",
};

describe("the Terraform schema", () => {
  it("has the model's fields in snake_case, required and sensitive as the model says, with a schema version", () => {
    const resource = schema.resources[RESOURCE_TYPE]!;
    expect(resource.version).toBe(SCHEMA_VERSION);
    const attributes = byName(resource.attributes);
    expect(Object.keys(attributes).sort()).toEqual(
      [
        "adopt_guid",
        "base_url",
        "custom_header",
        "custom_header_value",
        "custom_header_value_wo",
        "custom_header_value_wo_version",
        "filter_object_guid",
        "filter_object_type",
        "guid",
        "id",
        "rotation",
        "signature",
        "subscriber_url",
        "webhook",
      ].sort(),
    );
    expect(resource.attributes.filter((a) => a.required).map((a) => a.name)).toEqual([
      "webhook",
      "filter_object_type",
      "subscriber_url",
    ]);
    expect(
      resource.attributes
        .filter((a) => a.sensitive)
        .map((a) => a.name)
        .sort(),
    ).toEqual(["custom_header_value", "signature"]);
    expect(
      resource.attributes
        .filter((a) => a.computed)
        .map((a) => a.name)
        .sort(),
    ).toEqual(["base_url", "guid", "id", "signature"]);
    expect(attributes.custom_header_value_wo).toMatchObject({ writeOnly: true, optional: true });
    expect(attributes.webhook!.type).toBe("string");
    // Meta-arguments of every resource block: no attribute may be named so.
    for (const meta of ["count", "for_each", "provider", "lifecycle", "depends_on"])
      expect(attributes[meta]).toBeUndefined();
  });

  it("shares the package schema's descriptions, in HCL terms", () => {
    const attributes = byName(schema.resources[RESOURCE_TYPE]!.attributes);
    const inputs = pulumi.resources[RESOURCE_TOKEN]!.inputProperties;
    expect(attributes.subscriber_url!.description).not.toBe("");
    expect(attributes.subscriber_url!.description).toBe(
      inHclTerms(inputs.subscriberUrl!.description!, [
        ...Object.keys(inputs),
        ...Object.keys(pulumi.provider.inputProperties),
        "baseUrl",
        "webhookName",
      ]),
    );
    expect(schema.resources[RESOURCE_TYPE]!.attributes.map((a) => a.description).join(" ")).not.toMatch(
      /\b(subscriberUrl|customHeaderValue|filterObjectGuid)\b/,
    );
  });

  it("has the settings in the provider block, secrets sensitive, and nothing only a Pulumi Provider has", () => {
    const settings = byName(schema.provider.attributes);
    expect(settings.base_url).toMatchObject({ optional: true, type: "string" });
    expect(settings.token).toMatchObject({ sensitive: true });
    expect(settings.client_secret).toMatchObject({ sensitive: true });
    expect(settings.max_requests_per_second).toMatchObject({ type: "number" });
    expect(settings.token_from_env).toBeUndefined();
  });

  it("has the GUID as the resource identity and both data sources", () => {
    expect(schema.identities[RESOURCE_TYPE]!.attributes.map((a) => [a.name, a.required])).toEqual([["guid", true]]);
    expect(byName(schema.dataSources.webhooks_subscription!.attributes).guid).toMatchObject({ required: true });
    expect(byName(schema.dataSources.webhooks_subscriptions!.attributes).subscriptions!.type).toEqual([
      "list",
      expect.arrayContaining(["object"]),
    ]);
  });
});

describe("a configuration's validation", () => {
  it("accepts a valid one, and one whose values are not known yet", () => {
    expect(validateSubscription(VALID, {})).toEqual([]);
    expect(
      validateSubscription({ ...VALID, subscriber_url: new Unknown(), filter_object_guid: new Unknown() }, {}),
    ).toEqual([]);
  });

  it("refuses each bad field on its attribute, naming it, its value and the form to write", () => {
    const diagnostics = validateSubscription(
      {
        ...VALID,
        subscriber_url: "ftp://x",
        custom_header: "X Api Key",
        filter_object_guid: VALID.filter_object_guid.toUpperCase(),
      },
      {},
    );
    expect(diagnostics.map((d) => [d.attribute?.steps[0]?.attribute_name, d.summary])).toEqual(
      expect.arrayContaining([
        ["subscriber_url", "Invalid subscriber_url"],
        ["custom_header", "Invalid custom_header"],
        ["filter_object_guid", "Invalid filter_object_guid"],
      ]),
    );
    const details = diagnostics.map((d) => d.detail).join("\n");
    expect(details).toContain('subscriber_url must be an absolute http(s) URL, got: "ftp://x"');
    expect(details).toContain(
      'custom_header "X Api Key" is saved by the service as "X-Api-Key" (spaces become hyphens): write it as "X-Api-Key".',
    );
    expect(details).toContain(`write it as "${VALID.filter_object_guid}"`);
  });

  it("refuses the write-only value where the client cannot keep it out of state, never showing it", () => {
    const config = {
      ...VALID,
      custom_header: "X-Api-Key",
      custom_header_value_wo: "wo-secret\n",
      custom_header_value_wo_version: 1,
    };
    const refused = validateSubscription(config, { write_only_attributes_allowed: false });
    expect(refused[0]).toMatchObject({ summary: "Invalid custom_header_value_wo" });
    expect(refused[0]!.detail).toContain("1.11 or later");
    const allowed = validateSubscription(config, { write_only_attributes_allowed: true });
    expect(allowed.map((d) => d.attribute?.steps[0]?.attribute_name)).toEqual(["custom_header_value_wo"]);
    expect(JSON.stringify([...refused, ...allowed])).not.toContain("wo-secret");
  });
});
