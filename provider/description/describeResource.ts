/**
 * The resource's description (resourceDescription.ts), derived, never written by hand:
 *
 * - the inputs — names, types, which are required, the `Webhook` enum — from the one input model
 *   (`SubscriptionInputSchema`, through `z.toJSONSchema`);
 * - descriptions, the outputs' and the settings' types from the declarations users read, which
 *   the build reads with the TypeScript compiler (scripts/schemaDeclarations.ts) and passes in;
 * - secrets from `SECRET_OUTPUTS` and `SECRET_SETTINGS`, the settings' names from `SETTING_SOURCES`.
 *
 * Build time only: the doors read what this returns as the build wrote it.
 */
import { z } from "zod";
import { SUBSCRIPTION_FIELDS } from "../core/diff";
import { SubscriptionInputSchema, UNKNOWN } from "../core/inputs";
import { SECRET_OUTPUTS } from "../core/outputs";
import { PROVIDER_KEYS, SECRET_SETTINGS, SETTING_SOURCES } from "../core/settings";
import type { DeclaredProperty, SchemaDeclarations } from "./declarations";
import type { FieldDescription, FieldType, ResourceDescription } from "./resourceDescription";

type JsonSchema = Record<string, unknown>;

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

/** A field's type for a JSON Schema; fails the build on a shape it cannot say. */
function fieldType(name: string, schema: JsonSchema): FieldType {
  const ref = schema.$ref;
  if (typeof ref === "string") return { enum: ref.replace("#/$defs/", "") };
  if (schema.type === "string" || schema.type === "integer" || schema.type === "number" || schema.type === "boolean")
    return schema.type;
  throw new Error(
    `schema: the input model's field ${name} has no type a schema can state (${JSON.stringify(schema)}): give it a plain zod type or an enum with an id.`,
  );
}

/** A field of `type`, described as `declared` says, secret when `secret`. */
function field(type: FieldType, declared: DeclaredProperty | undefined, secret: boolean): FieldDescription {
  return {
    type,
    ...(declared?.description ? { description: declared.description } : {}),
    ...(secret ? { secret: true } : {}),
  };
}

/** Fails when two sources that must list the same names do not. */
function sameNames(what: string, a: Iterable<string>, b: Iterable<string>): void {
  const left = [...a].sort();
  const right = [...b].sort();
  if (JSON.stringify(left) !== JSON.stringify(right))
    throw new Error(`schema: ${what} differ: ${JSON.stringify(left)} vs ${JSON.stringify(right)}. Make them agree.`);
}

/** The resource's description, from the input model and the declarations. */
export function describeResource(declared: SchemaDeclarations): ResourceDescription {
  const model = inputModel();
  sameNames(
    "the input model's fields and WebhookSubscriptionArgs",
    Object.keys(model.properties),
    Object.keys(declared.args),
  );
  const secretOutputs: ReadonlySet<string> = new Set(SECRET_OUTPUTS);

  const inputTypes = Object.fromEntries(
    Object.entries(model.properties).map(([name, schema]) => [name, fieldType(name, known(schema))]),
  );
  const inputs = Object.fromEntries(
    Object.entries(inputTypes).map(([name, type]) => [name, field(type, declared.args[name], secretOutputs.has(name))]),
  );
  // An enum output is described as its input: the TypeScript declaration describes the integer
  // the dynamic provider records, where the plugins record the name.
  const outputDescription = (name: string, output: DeclaredProperty) =>
    output.description && typeof inputTypes[name] !== "object" ? output : declared.args[name];
  const outputs = Object.fromEntries(
    Object.entries(declared.outputs).map(([name, output]) => [
      name,
      field(inputTypes[name] ?? output.type, outputDescription(name, output), secretOutputs.has(name)),
    ]),
  );
  const requiredOutputs = Object.keys(declared.outputs).filter((name) => !declared.outputs[name]!.nullable);

  const envNames = Object.keys(PROVIDER_KEYS).filter((key) => key !== "provider");
  sameNames(
    "the settings (SETTING_SOURCES, PROVIDER_KEYS) and ProviderArgs",
    [...Object.keys(SETTING_SOURCES), ...envNames],
    Object.keys(declared.settings),
  );
  const secretSettings: ReadonlySet<string> = SECRET_SETTINGS;
  const settings = Object.fromEntries(
    Object.entries(declared.settings).map(([name, setting]) => [
      name,
      field(setting.type, setting, secretSettings.has(name)),
    ]),
  );

  const enums = Object.fromEntries(
    Object.entries(model.defs).map(([name, schema]) => {
      // Described as the field that takes it.
      const taker = Object.keys(inputTypes).find((key) => {
        const type = inputTypes[key]!;
        return typeof type === "object" && type.enum === name;
      });
      const description = taker && declared.args[taker]?.description;
      const members = Object.keys(schema["x-entries"] as Record<string, string | number>);
      return [name, { ...(description ? { description } : {}), members }];
    }),
  );

  return {
    resource: {
      description: declared.resource,
      inputs,
      requiredInputs: model.required,
      outputs,
      requiredOutputs,
    },
    settings: {
      description: declared.provider,
      fields: settings,
      required: Object.keys(declared.settings).filter((name) => !declared.settings[name]!.optional),
    },
    get: { description: declared.getFunction },
    list: { description: declared.listFunction },
    listed: {
      description: "A subscription as listed, without its secrets (Signature, custom header value).",
      fields: ["guid", ...SUBSCRIPTION_FIELDS].filter((name) => !secretOutputs.has(name)),
    },
    enums,
  };
}
