/**
 * The Terraform schema's descriptions are read by Terraform and OpenTofu users (`tofu providers
 * schema -json`, the registry pages): they must say what is true there, so no Pulumi-only concept
 * may reach them from the shared package schema's text.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { RESOURCE_TYPE } from "../../provider/terraform/names";
import { terraformSchema, type Block, type TerraformSchema } from "../../provider/terraform/schema";
import { resourceDescription } from "../../scripts/packageSchema";

let schema: TerraformSchema;

beforeAll(() => {
  schema = terraformSchema(resourceDescription());
}, 60_000);

/** Words that only mean something to a Pulumi user, and why each is banned. */
const PULUMI_ONLY: readonly [RegExp, string][] = [
  [/pulumi/i, "a Pulumi command or package"],
  [/stack/i, "stack config or a stack"],
  [/\bwebhooks:/, "a `webhooks:*` config key"],
  [/`Provider`|`provider` option|opts\.provider/, "the Pulumi provider option"],
  [/\{\{%/, "the Pulumi registry's example shortcodes"],
  [/\b[a-z]+[A-Z][A-Za-z]*\b/, "a camelCase attribute name"],
  [/`up`|\bup --/, "`pulumi up`"],
  [/`Webhook` member|WebhookSubscription/, "an SDK type"],
  [/npx webhook-subscriptions/, "the Pulumi stack's drift command"],
  [/spaces become hyphens/, "a rewrite the Terraform door refuses at validate instead"],
  [/Always stored as a secret/, "Pulumi's secret state; Terraform stores sensitive values in clear"],
];

/** Every description of the schema, named by where it is. */
function descriptions(): [string, string][] {
  const blocks: [string, Block][] = [
    ["provider", schema.provider],
    ...Object.entries(schema.resources).map(([n, b]): [string, Block] => [`resource ${n}`, b]),
    ...Object.entries(schema.dataSources).map(([n, b]): [string, Block] => [`data source ${n}`, b]),
  ];
  return blocks.flatMap(([where, block]) => [
    [where, block.description] as [string, string],
    ...block.attributes.map((a): [string, string] => [`${where}.${a.name}`, a.description]),
  ]);
}

describe("the Terraform schema's descriptions", () => {
  it("name no Pulumi-only concept", () => {
    const found = descriptions().flatMap(([where, text]) =>
      PULUMI_ONLY.filter(([pattern]) => pattern.test(text)).map(
        ([, what]) => `${where}: ${what} in ${JSON.stringify(text)}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("say what is true in Terraform where the doors differ", () => {
    const resource = Object.fromEntries(
      schema.resources[RESOURCE_TYPE]!.attributes.map((a) => [a.name, a.description]),
    );
    expect(schema.resources[RESOURCE_TYPE]!.description).toMatch(/provider block/);
    expect(resource.custom_header_value).toMatch(/in clear in the state.*custom_header_value_wo/s);
    expect(resource.custom_header_value_wo).not.toMatch(/in clear/);
    expect(resource.custom_header).toMatch(/refuse/);
    expect(resource.rotation).toMatch(/create_before_destroy/);
    expect(resource.adopt_guid).toMatch(/import/);
    expect(schema.provider.description).toMatch(/WEBHOOKS_\*/);
  });
});
