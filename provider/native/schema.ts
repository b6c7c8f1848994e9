/**
 * The native plugin's Pulumi package schema, derived, never written by hand: the resource's
 * neutral description (provider/description/: the one model, the declarations users read, the
 * secrets), stated in Pulumi's terms — type tokens, `$ref`s to the enum and listed types, the get
 * and list functions, the provider's config.
 */
import type { FieldDescription, ResourceDescription } from "../description/resourceDescription";
import { GET_FUNCTION_TOKEN, INCLUDE_SECRETS, LIST_FUNCTION_TOKEN, PACKAGE_NAME, RESOURCE_TOKEN } from "./tokens";

const LISTED_TYPE_TOKEN = `${PACKAGE_NAME}:index:ListedSubscription`;

/** A property in a Pulumi schema. */
export interface PropertySpec {
  type?: string;
  $ref?: string;
  items?: PropertySpec;
  description?: string;
  secret?: boolean;
}

interface ObjectSpec {
  description?: string;
  properties: Record<string, PropertySpec>;
  required?: string[];
}

/** The parts of a Pulumi package schema this plugin uses. */
export interface PackageSchema {
  name: string;
  version: string;
  displayName: string;
  description: string;
  license: string;
  config: { variables: Record<string, PropertySpec> };
  provider: { description: string; inputProperties: Record<string, PropertySpec>; requiredInputs: string[] };
  resources: Record<string, ObjectSpec & { inputProperties: Record<string, PropertySpec>; requiredInputs: string[] }>;
  functions: Record<string, { description: string; inputs?: ObjectSpec; outputs: ObjectSpec }>;
  types: Record<string, Record<string, unknown>>;
}

const typeToken = (name: string) => `${PACKAGE_NAME}:index:${name}`;

/**
 * A field as a Pulumi property. An enum is a `$ref` to a string enum whose values are the
 * members' names (`"PacketCreated"`), whatever the model maps them to: Pulumi YAML takes only a
 * string enum's values (an integer enum refuses the name and makes the YAML host print an
 * internal error), and the Java SDK cannot send an integer enum; the plugin maps the names to
 * the model's values (webhookForm.ts).
 */
function property({ type, description, secret }: FieldDescription): PropertySpec {
  return {
    ...(typeof type === "object" ? { $ref: `#/types/${typeToken(type.enum)}` } : { type }),
    ...(description ? { description } : {}),
    ...(secret ? { secret: true } : {}),
  };
}

/** Each field as a Pulumi property. */
function properties(fields: Readonly<Record<string, FieldDescription>>): Record<string, PropertySpec> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, property(field)]));
}

/** The package schema for `version`, from the resource's description. */
export function pluginSchema(version: string, description: ResourceDescription): PackageSchema {
  const { resource, settings, listed } = description;
  const outputProperties = properties(resource.outputs);
  const variables = properties(settings.fields);

  const types: PackageSchema["types"] = {};
  for (const [name, { description: text, members }] of Object.entries(description.enums))
    types[typeToken(name)] = {
      type: "string",
      ...(text ? { description: text } : {}),
      enum: members.map((member) => ({ name: member, value: member })),
    };
  types[LISTED_TYPE_TOKEN] = {
    type: "object",
    description: listed.description,
    properties: Object.fromEntries(listed.fields.map((name) => [name, outputProperties[name]!])),
    required: listed.fields.filter((name) => resource.requiredOutputs.includes(name)),
  };

  return {
    name: PACKAGE_NAME,
    version,
    displayName: "Webhook Subscriptions",
    description: "Manage webhook subscriptions as code.",
    license: "Apache-2.0",
    config: { variables },
    provider: {
      description: settings.description,
      inputProperties: variables,
      requiredInputs: [...settings.required],
    },
    resources: {
      [RESOURCE_TOKEN]: {
        description: resource.description,
        inputProperties: properties(resource.inputs),
        requiredInputs: [...resource.requiredInputs],
        properties: outputProperties,
        required: [...resource.requiredOutputs],
      },
    },
    functions: {
      [GET_FUNCTION_TOKEN]: {
        description: description.get.description,
        inputs: {
          properties: {
            guid: { type: "string", description: "GUID of the subscription to read." },
            [INCLUDE_SECRETS]: {
              type: "boolean",
              description:
                "Also return the secrets (`signature`, `customHeaderValue`). Off by default: a result holding a secret is secret as a whole, so its plain fields could not be read as plain values.",
            },
          },
          required: ["guid"],
        },
        // The secrets are there only when asked for.
        outputs: {
          properties: outputProperties,
          required: resource.requiredOutputs.filter((name) => !resource.outputs[name]!.secret),
        },
      },
      [LIST_FUNCTION_TOKEN]: {
        description: description.list.description,
        outputs: {
          properties: { subscriptions: { type: "array", items: { $ref: `#/types/${LISTED_TYPE_TOKEN}` } } },
          required: ["subscriptions"],
        },
      },
    },
    types,
  };
}
