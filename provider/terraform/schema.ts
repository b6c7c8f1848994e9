/**
 * The Terraform schema of the provider, its resource and its data sources, derived from the
 * resource's neutral description (provider/description/), as the Pulumi package schema is: the
 * same fields, which are required, which are secret (here `sensitive`), and the same
 * descriptions, in HCL's snake_case, with the parts that only hold for Pulumi in Terraform's words
 * (descriptions.ts). Only what Terraform has and Pulumi has not is declared here: the `id`, the
 * write-only header value and its version, and the resource identity. A docs generator
 * (tfplugindocs layout) builds on `terraformSchema` too.
 */
import type { FieldDescription, ResourceDescription } from "../description/resourceDescription";
import type { CtyType } from "./values/codec";
import { inTerraformWords } from "./descriptions";
import { inHclTerms, snakeCase } from "../description/hclNames";
import { RESOURCE_TYPE, SUBSCRIPTION_DATA_SOURCE, SUBSCRIPTIONS_DATA_SOURCE } from "./names";

/**
 * The resource's schema version. Bumped with every change of the state's shape, together with an
 * upgrade from the previous version in UpgradeResourceState.
 */
export const SCHEMA_VERSION = 0;

/** One attribute of a block. */
export interface Attribute {
  readonly name: string;
  readonly type: CtyType;
  readonly description: string;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  /** Never stored in plan or state (clients with write-only support: Terraform and OpenTofu ≥ 1.11). */
  readonly writeOnly?: boolean;
}

/** A block of attributes (Terraform's `Schema.Block`) with its version. */
export interface Block {
  readonly version: number;
  readonly description: string;
  readonly attributes: readonly Attribute[];
}

/** Everything GetProviderSchema and GetResourceIdentitySchemas say. */
export interface TerraformSchema {
  readonly provider: Block;
  readonly resources: Readonly<Record<string, Block>>;
  readonly dataSources: Readonly<Record<string, Block>>;
  /** The resource identity (protocol 6.9+): the GUID, the same as the import ID. */
  readonly identities: Readonly<Record<string, { version: number; attributes: readonly Attribute[] }>>;
}

/** The model's settings an explicit Pulumi `Provider` alone has: Terraform's provider block reads variables by HCL. */
const PULUMI_ONLY_SETTINGS = new Set(["tokenFromEnv", "clientSecretFromEnv"]);
/** Outputs Terraform has no use for: `webhook` already holds the event's name. */
const PULUMI_ONLY_OUTPUTS = new Set(["webhookName"]);

/** The write-only alternative to `custom_header_value`, and the version that says when it changed. */
export const WRITE_ONLY_VALUE = "custom_header_value_wo";
export const WRITE_ONLY_VERSION = "custom_header_value_wo_version";
/**
 * The write-only version an imported subscription with a custom header value gets in state, with
 * the value left out: an import must not put the live value in state, where it would sit in plain
 * JSON. A configuration that writes this version (and its value through `custom_header_value_wo`)
 * then plans no change; changing the version sends a new value.
 */
export const IMPORTED_VERSION = 0;

/** The cty type of a field: an enum is given by its member names. */
function ctyType({ type }: FieldDescription): CtyType {
  if (typeof type === "object" || type === "string") return "string";
  if (type === "integer" || type === "number") return "number";
  return "bool";
}

/** The cty object type of a block's attributes (what its DynamicValues are read and written as). */
export function objectType(attributes: readonly Attribute[]): CtyType {
  return ["object", Object.fromEntries(attributes.map((a) => [a.name, a.type]))];
}

/** The last description's schema: a launch's describing calls and its other calls share it. */
let embedded: { json: string; schema: TerraformSchema } | undefined;

/** The Terraform schema of the description the build embedded (JSON), built once for that JSON. */
export function embeddedSchema(json: string): TerraformSchema {
  if (embedded?.json !== json) embedded = { json, schema: terraformSchema(JSON.parse(json) as ResourceDescription) };
  return embedded.schema;
}

/** The Terraform schema, from the resource's description the build derived from the model. */
export function terraformSchema(description: ResourceDescription): TerraformSchema {
  const { resource, settings } = description;
  const modelNames = [
    ...Object.keys(resource.outputs),
    ...Object.keys(settings.fields),
    ...Object.keys(resource.inputs),
  ];
  const hcl = (text: string | undefined) => inHclTerms(text ?? "", modelNames);
  // `block` keys the Terraform wording (descriptions.ts) of the door-specific parts.
  const attribute = (
    name: string,
    field: FieldDescription,
    how: Partial<Attribute>,
    block = RESOURCE_TYPE,
  ): Attribute => ({
    name: snakeCase(name),
    type: ctyType(field),
    description: inTerraformWords(`${block}.${snakeCase(name)}`, hcl(field.description)),
    ...(field.secret ? { sensitive: true } : {}),
    ...how,
  });

  const required = new Set(resource.requiredInputs);
  const inputs = Object.entries(resource.inputs).map(([name, field]) =>
    attribute(name, field, required.has(name) ? { required: true } : { optional: true }),
  );
  const computed = Object.entries(resource.outputs)
    .filter(([name]) => !(name in resource.inputs) && !PULUMI_ONLY_OUTPUTS.has(name))
    .map(([name, field]) => attribute(name, field, { computed: true }));
  const guid = computed.find((a) => a.name === "guid")!;
  const id: Attribute = {
    name: "id",
    type: "string",
    description: `The same as guid: ${guid.description}`,
    computed: true,
  };
  const headerValue = hcl(resource.inputs.customHeaderValue!.description);
  const writeOnly: Attribute[] = [
    {
      name: WRITE_ONLY_VALUE,
      type: "string",
      description: inTerraformWords(
        `${RESOURCE_TYPE}.${WRITE_ONLY_VALUE}`,
        `${headerValue} Write-only: sent to the service but never stored in plan or state ` +
          `(Terraform and OpenTofu 1.11 or later). Use it instead of custom_header_value, and change ${WRITE_ONLY_VERSION} to send a new value.`,
      ),
      optional: true,
      writeOnly: true,
    },
    {
      name: WRITE_ONLY_VERSION,
      type: "number",
      description: `Any number; changing it sends ${WRITE_ONLY_VALUE} again (Terraform cannot compare a value it never stores).`,
      optional: true,
    },
  ];

  const providerAttributes = Object.entries(settings.fields)
    .filter(([name]) => !PULUMI_ONLY_SETTINGS.has(name))
    .map(([name, field]) => attribute(name, field, { optional: true }, "provider"));

  // A data source's attributes: everything the resource holds, computed, except its own arguments.
  const read = [...inputs, ...computed]
    .filter((a) => a.name !== "adopt_guid" && a.name !== "rotation")
    .map(({ required: _r, optional: _o, ...a }): Attribute => ({ ...a, computed: true }));
  const byGuid = read.map((a): Attribute => (a.name === "guid" ? { ...a, computed: false, required: true } : a));

  const listedType: CtyType = [
    "object",
    Object.fromEntries(description.listed.fields.map((name) => [snakeCase(name), ctyType(resource.outputs[name]!)])),
  ];

  return {
    provider: {
      version: 0,
      description: inTerraformWords("provider", hcl(settings.description)),
      attributes: providerAttributes,
    },
    resources: {
      [RESOURCE_TYPE]: {
        version: SCHEMA_VERSION,
        description: inTerraformWords(RESOURCE_TYPE, hcl(resource.description)),
        attributes: [id, ...inputs, ...writeOnly, ...computed],
      },
    },
    dataSources: {
      [SUBSCRIPTION_DATA_SOURCE]: {
        version: 0,
        description: inTerraformWords(`data:${SUBSCRIPTION_DATA_SOURCE}`, hcl(description.get.description)),
        attributes: [id, ...byGuid.filter((a) => a.name !== "id")],
      },
      [SUBSCRIPTIONS_DATA_SOURCE]: {
        version: 0,
        description: inTerraformWords(`data:${SUBSCRIPTIONS_DATA_SOURCE}`, hcl(description.list.description)),
        attributes: [
          { name: "id", type: "string", description: "The instance's base URL.", computed: true },
          {
            name: "subscriptions",
            type: ["list", listedType],
            description: "Every subscription of the instance, without its secrets.",
            computed: true,
          },
        ],
      },
    },
    identities: {
      [RESOURCE_TYPE]: { version: 0, attributes: [{ ...guid, computed: false, required: true }] },
    },
  };
}
