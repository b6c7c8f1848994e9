/**
 * How a native provider's settings reach the lifecycle: the engine hands them over by setting
 * name (`baseUrl`, `token`, …, as the schema's provider inputs and state record them, or as
 * `webhooks:config:<name>` variables), and an explicit provider is named only by its URN. The
 * lifecycle reads `webhooks:<name>` and `webhooks:provider` (core/settings.ts); this is the one
 * translation, used by the plugin's server and by whatever reads a provider from state.
 */
import { PROVIDER_KEYS, type ConfigSource } from "../core/settings";

/**
 * An explicit provider's name, from its URN, as the lifecycle reads it (`webhooks:provider`):
 * its settings are then named after it and never fall back to `WEBHOOKS_*`. The engine names
 * the default provider `default` or `default_<version>`: undefined for it.
 */
export function explicitProviderName(urn: string | undefined): string | undefined {
  const name = urn?.split("::").at(-1);
  return name === undefined || name === "" || /^default(_|$)/.test(name) ? undefined : name;
}

/** A setting's name from a config key: `webhooks:config:<name>` (Configure's variables) or `webhooks:<name>`. */
export function settingName(key: string): string {
  return key.replace(/^webhooks:(config:)?/, "");
}

/** The settings as the lifecycle reads them (`webhooks:<name>`), from values by `<name>`. */
export function nativeConfigSource(values: Readonly<Record<string, unknown>>, urn: string | undefined): ConfigSource {
  const provider = explicitProviderName(urn);
  return {
    get: (key) => {
      if (key === PROVIDER_KEYS.provider) return provider;
      const value = values[settingName(key)];
      return value === undefined || value === null ? undefined : String(value);
    },
  };
}
