/**
 * The resource as neither front door states it: its fields, their types, which are required and
 * which secret, and what the declarations users read say about each. The Pulumi package schema
 * (provider/native/schema.ts) and the Terraform schema (provider/terraform/schema.ts) are both
 * derived from this, each in its tool's terms (tokens and `$ref`s; snake_case, cty types and
 * Terraform's wording), so that a field is described once. The build writes it as
 * `description.json` beside the package schema (describeResource.ts makes it); plain JSON, so the
 * Terraform door reads it at run time without the model or the compiler.
 *
 * The prose is the declarations' JSDoc, written for the TypeScript program that reads them; each
 * door rewords what holds only for another (provider/terraform/descriptions.ts).
 */

/** A field's type: a scalar, or one of the description's enums by name (`{ enum: "Webhook" }`). */
export type FieldType = "string" | "integer" | "number" | "boolean" | { readonly enum: string };

/** One field of the resource, of its outputs or of the provider's settings. */
export interface FieldDescription {
  readonly type: FieldType;
  /** What the declaration's JSDoc says; absent when it says nothing. */
  readonly description?: string;
  /** Always a secret: Pulumi keeps it encrypted, Terraform marks it sensitive. */
  readonly secret?: boolean;
}

/** A set of fields, in the order the model and the declarations list them. */
export type Fields = Readonly<Record<string, FieldDescription>>;

/** The one resource, its provider, its two lookups and its enums. */
export interface ResourceDescription {
  /** The subscription: what a program declares (inputs) and what the resource holds (outputs). */
  readonly resource: {
    readonly description: string;
    readonly inputs: Fields;
    readonly requiredInputs: readonly string[];
    readonly outputs: Fields;
    /** The outputs that are never null. */
    readonly requiredOutputs: readonly string[];
  };
  /** The provider: one instance of the service and how to reach it. */
  readonly settings: {
    readonly description: string;
    readonly fields: Fields;
    readonly required: readonly string[];
  };
  /** Reading one subscription by GUID, and listing an instance's subscriptions. */
  readonly get: { readonly description: string };
  readonly list: { readonly description: string };
  /** A subscription as the list returns it: these outputs, none of them secret. */
  readonly listed: { readonly description: string; readonly fields: readonly string[] };
  /** The enums the fields name, each with its members' names. */
  readonly enums: Readonly<Record<string, { readonly description?: string; readonly members: readonly string[] }>>;
}
