/**
 * The provider block as the core reads settings: `base_url` for `webhooks:baseUrl`, each falling
 * back to the same `WEBHOOKS_*` variable (core/settings.ts does that for a default provider, which
 * every Terraform provider block is). An unknown value is the core's "not known yet".
 */
import { UNKNOWN_VALUE, type ConfigSource } from "../core/settings";
import { snakeCase } from "../description/hclNames";
import type { Attributes } from "./state";
import { Unknown } from "./values/codec";

/** The settings of a provider block. */
export function terraformConfigSource(config: Attributes): ConfigSource {
  return {
    get(key) {
      const [prefix, name] = key.split(":");
      // Only the settings: an explicit Pulumi Provider's own keys (`webhooks:provider`) have no HCL form.
      if (prefix !== "webhooks" || !name) return undefined;
      const value = config[snakeCase(name)];
      if (value instanceof Unknown) return UNKNOWN_VALUE;
      return value === null || value === undefined ? undefined : String(value);
    },
  };
}
