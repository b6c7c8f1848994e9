/**
 * The native plugin's Pulumi package schema, derived, never written by hand:
 *
 * - the resource's inputs — names, types, which are required, the `Webhook` enum — from the one
 *   input model (`SubscriptionInputSchema`, through `z.toJSONSchema`);
 * - descriptions, the outputs' and the settings' types from the declarations users read
 *   (`WebhookSubscriptionArgs`, the `WebhookSubscription` class, `ProviderArgs`), which the build
 *   reads with the TypeScript compiler (scripts/schemaDeclarations.ts) and passes in;
 * - secrets from `SECRET_OUTPUTS` and `SECRET_SETTINGS`, the settings' names from `SETTING_SOURCES`.
 */
import { z } from "zod";
import { SUBSCRIPTION_FIELDS } from "../core/diff";
import { SubscriptionInputSchema, UNKNOWN } from "../core/inputs";
import { PROVIDER_KEYS, SECRET_SETTINGS, SETTING_SOURCES } from "../core/settings";
import { SECRET_OUTPUTS } from "../core/outputs";
import { GET_FUNCTION_TOKEN, INCLUDE_SECRETS, LIST_FUNCTION_TOKEN, PACKAGE_NAME, RESOURCE_TOKEN } from "./tokens";

const LISTED_TYPE_TOKEN = `${PACKAGE_NAME}:index:ListedSubscription`;

/** A property as a TypeScript declaration states it: its JSDoc and its type. */
export interface DeclaredProperty {
  readonly description: string;
  readonly type: "string" | "number" | "boolean";
  /** `T | null`: the value may be null. */
  readonly nullable: boolean;
  /** `name?:` the property may be left out. */
  readonly optional: boolean;
}

/** What the declarations users read say, as the build found it. */
export interface SchemaDeclarations {
  /** The JSDoc of the `WebhookSubscription` class. */
  readonly resource: string;
  /** `WebhookSubscriptionArgs`. */
  readonly args: Readonly<Record<string, DeclaredProperty>>;
  /** The outputs the `WebhookSubscription` class declares. */
  readonly outputs: Readonly<Record<string, DeclaredProperty>>;
  /** The JSDoc of the `Provider` class. */
  readonly provider: string;
  /** `ProviderArgs`. */
  readonly settings: Readonly<Record<string, DeclaredProperty>>;
  /** The JSDoc of `WebhookSubscription.get` and of `listWebhookSubscriptions`. */
  readonly getFunction: string;
  readonly listFunction: string;
}

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

type JsonSchema = Record<string, unknown>;

const typeToken = (name: string) => `${PACKAGE_NAME}:index:${name}`;

/**
 * The input model as JSON Schema. A zod pipe is described by its output side, except where that
 * is a transform (normalising a GUID or a header name): then by the value it accepts. Enums also
 * record their member names, which JSON Schema has no place for.
 */
function inputModel(): {
  properties: Record<string, JsonSchema>;
  required: string[];
  defs: Record<string, JsonSchema>;
} {
  const json = z.toJSONSchema(SubscriptionInputSchema, {
    io: "output",
    unrepresentable: "any",
    override: (ctx) => {
      const def = ctx.zodSchema._zod.def;
      if (def.type === "pipe" && def.out._zod.def.type === "transform")
        Object.assign(ctx.jsonSchema, z.toJSONSchema(def.in, { io: "output", unrepresentable: "any" }));
      if (def.type === "enum") ctx.jsonSchema["x-entries"] = def.entries;
    },
  }) as JsonSchema;
  return {
    properties: json.properties as Record<string, JsonSchema>,
    required: (json.required as string[] | undefined) ?? [],
    defs: (json.$defs as Record<string, JsonSchema> | undefined) ?? {},
  };
}

/** Drops the alternative every field has at preview (the unknown sentinel). */
function known(schema: JsonSchema): JsonSchema {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  const rest = anyOf?.filter((alternative) => alternative.const !== UNKNOWN);
  return rest?.length === 1 ? rest[0]! : schema;
}

/** A Pulumi property type for a JSON Schema; fails the build on a shape it cannot say. */
function propertyType(name: string, schema: JsonSchema): PropertySpec {
  const ref = schema.$ref;
  if (typeof ref === "string") return { $ref: `#/types/${typeToken(ref.replace("#/$defs/", ""))}` };
  if (["string", "integer", "number", "boolean"].includes(schema.type as string))
    return { type: schema.type as string };
  throw new Error(
    `schema: the input model's field ${name} has no Pulumi type (${JSON.stringify(schema)}): give it a plain zod type or an enum with an id.`,
  );
}

/**
 * A Pulumi enum type from a JSON Schema enum that recorded its members: a string enum whose
 * values are the members' names (`"PacketCreated"`), whatever the model maps them to. Pulumi YAML
 * takes only a string enum's values (an integer enum refuses the name and makes the YAML host
 * print an internal error), the Java SDK cannot send an integer enum, and the Terraform front
 * door takes the names too; the native plugin maps the names to the model's values (webhookForm.ts).
 */
function enumType(description: string | undefined, schema: JsonSchema): Record<string, unknown> {
  const names = Object.keys(schema["x-entries"] as Record<string, string | number>);
  return {
    type: "string",
    ...(description ? { description } : {}),
    enum: names.map((name) => ({ name, value: name })),
  };
}

function described(spec: PropertySpec, declared: DeclaredProperty | undefined): PropertySpec {
  return declared?.description ? { ...spec, description: declared.description } : spec;
}

/** A declared property's Pulumi type (numbers stay `number`: TypeScript cannot say integer). */
function declaredType(declared: DeclaredProperty): PropertySpec {
  return { type: declared.type };
}

/** Fails when two sources that must list the same names do not. */
function sameNames(what: string, a: Iterable<string>, b: Iterable<string>): void {
  const left = [...a].sort();
  const right = [...b].sort();
  if (JSON.stringify(left) !== JSON.stringify(right))
    throw new Error(`schema: ${what} differ: ${JSON.stringify(left)} vs ${JSON.stringify(right)}. Make them agree.`);
}

/** The package schema for `version`, from the input model and the declarations. */
export function pluginSchema(version: string, declared: SchemaDeclarations): PackageSchema {
  const model = inputModel();
  sameNames(
    "the input model's fields and WebhookSubscriptionArgs",
    Object.keys(model.properties),
    Object.keys(declared.args),
  );
  const secretOutputs: ReadonlySet<string> = new Set(SECRET_OUTPUTS);
  const secret = (name: string, spec: PropertySpec): PropertySpec =>
    secretOutputs.has(name) ? { ...spec, secret: true } : spec;

  const inputTypes = Object.fromEntries(
    Object.entries(model.properties).map(([name, schema]) => [name, propertyType(name, known(schema))]),
  );
  const inputProperties = Object.fromEntries(
    Object.entries(inputTypes).map(([name, spec]) => [name, secret(name, described(spec, declared.args[name]))]),
  );
  // An enum output is described as its input: the TypeScript declaration describes the integer
  // the dynamic provider records, where the plugin records the name.
  const outputDescription = (name: string, output: DeclaredProperty) =>
    output.description && !inputTypes[name]?.$ref ? output : declared.args[name];
  const outputProperties = Object.fromEntries(
    Object.entries(declared.outputs).map(([name, output]) => [
      name,
      secret(name, described(inputTypes[name] ?? declaredType(output), outputDescription(name, output))),
    ]),
  );
  const requiredOutputs = Object.keys(declared.outputs).filter((name) => !declared.outputs[name]!.nullable);

  const envNames = Object.keys(PROVIDER_KEYS).filter((key) => key !== "provider");
  const settingNames = [...Object.keys(SETTING_SOURCES), ...envNames];
  sameNames(
    "the settings (SETTING_SOURCES, PROVIDER_KEYS) and ProviderArgs",
    settingNames,
    Object.keys(declared.settings),
  );
  const settings = Object.fromEntries(
    Object.entries(declared.settings).map(([name, setting]) => [
      name,
      {
        ...described(declaredType(setting), setting),
        ...(SECRET_SETTINGS.has(name as keyof typeof SETTING_SOURCES) ? { secret: true } : {}),
      },
    ]),
  );

  const types: PackageSchema["types"] = {};
  for (const [name, schema] of Object.entries(model.defs)) {
    // Described as the field that takes it.
    const field = Object.keys(inputTypes).find((key) => inputTypes[key]!.$ref === `#/types/${typeToken(name)}`);
    types[typeToken(name)] = enumType(field && declared.args[field]?.description, schema);
  }
  const listed = ["guid", ...SUBSCRIPTION_FIELDS].filter((name) => !secretOutputs.has(name));
  types[LISTED_TYPE_TOKEN] = {
    type: "object",
    description: "A subscription as listed, without its secrets (Signature, custom header value).",
    properties: Object.fromEntries(listed.map((name) => [name, outputProperties[name]!])),
    required: listed.filter((name) => requiredOutputs.includes(name)),
  };

  return {
    name: PACKAGE_NAME,
    version,
    displayName: "Webhook Subscriptions",
    description: "Manage webhook subscriptions as code.",
    license: "Apache-2.0",
    config: { variables: settings },
    provider: {
      description: declared.provider,
      inputProperties: settings,
      requiredInputs: Object.keys(declared.settings).filter((name) => !declared.settings[name]!.optional),
    },
    resources: {
      [RESOURCE_TOKEN]: {
        description: declared.resource,
        inputProperties,
        requiredInputs: model.required,
        properties: outputProperties,
        required: requiredOutputs,
      },
    },
    functions: {
      [GET_FUNCTION_TOKEN]: {
        description: declared.getFunction,
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
          required: requiredOutputs.filter((name) => !secretOutputs.has(name)),
        },
      },
      [LIST_FUNCTION_TOKEN]: {
        description: declared.listFunction,
        outputs: {
          properties: { subscriptions: { type: "array", items: { $ref: `#/types/${LISTED_TYPE_TOKEN}` } } },
          required: ["subscriptions"],
        },
      },
    },
    types,
  };
}
