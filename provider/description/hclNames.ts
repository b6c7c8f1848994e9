/**
 * The one translation between the model's camelCase names and HCL's snake_case: the Terraform
 * door's schema, state mapping and diagnostics use it, and so does the drift review, whose
 * Terraform findings name fields as a configuration writes them. Neutral, like the description
 * itself: it knows no front door.
 */

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
