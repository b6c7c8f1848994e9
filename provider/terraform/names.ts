/**
 * The Terraform front door's names (../shared/design/product.md, "the third front door"), and
 * the one translation from the model's camelCase names to HCL's snake_case: the schema, the
 * state mapping and the diagnostics all use it.
 */

/** The provider's local name and type prefix: `webhooks`. */
export const PROVIDER_TYPE = "webhooks";
/** The resource. */
export const RESOURCE_TYPE = `${PROVIDER_TYPE}_subscription`;
/** The data source reading one subscription by GUID. */
export const SUBSCRIPTION_DATA_SOURCE = `${PROVIDER_TYPE}_subscription`;
/** The data source listing an instance's subscriptions. */
export const SUBSCRIPTIONS_DATA_SOURCE = `${PROVIDER_TYPE}_subscriptions`;

/** snakeCase's answers: the model has a few dozen names, and every value mapping asks again. */
const snakeNames = new Map<string, string>();

/** A model name in HCL: `subscriberUrl` → `subscriber_url`. */
export function snakeCase(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined)
    snakeNames.set(name, (snake = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)));
  return snake;
}

/** An HCL name back in the model: `subscriber_url` → `subscriberUrl`. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * A text written for the model (a description, a check's message) in HCL terms: each of `names`
 * (camelCase, at least two words) becomes its snake_case, and a Pulumi stack-config key
 * (`webhooks:apiVersion`) becomes the provider block's argument.
 */
export function inHclTerms(text: string, names: Iterable<string>): string {
  let result = text
    // \u2026 is …, escaped to keep the executable's bundle ASCII (scripts/release/executables.ts).
    .replace(
      /`pulumi config set (?:--secret )?webhooks:(\w+)(?: --secret)?(?: --)? \u2026`/g,
      (_, key: string) => `${snakeCase(key)} in the provider block`,
    )
    .replace(/\bwebhooks:(\w+)/g, (_, key: string) => snakeCase(key));
  for (const name of names)
    if (/[A-Z]/.test(name)) result = result.replace(new RegExp(`\\b${name}\\b`, "g"), snakeCase(name));
  return result;
}
