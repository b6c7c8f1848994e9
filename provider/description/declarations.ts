/**
 * What the declarations users read say (the `WebhookSubscription` class and its args, `Provider`
 * and its args, the lookups' JSDoc), as the build reads them with the TypeScript compiler
 * (scripts/schemaDeclarations.ts): the descriptions and the outputs' and settings' types of the
 * resource's description (describeResource.ts).
 */

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
