/**
 * The instances a Terraform configuration's subscriptions live on: the ones whose unmanaged
 * subscriptions the review counts for it. Read by the provider's own settings reader, so that the
 * review reaches the instance `tofu plan` reaches.
 */
import { redact } from "../../../provider/client/redact";
import { inHclTerms, readSettings, snakeCase, type ConfigSource } from "../../../provider/model";
import type { SourceInstance } from "../../review/model";
import { isSubscription, type ConfigModule, type Json, type PlanJson } from "./planJson";
import { credentialsIn } from "./runCli";

/**
 * The constant arguments of the provider blocks the configuration's subscriptions use; one empty
 * block when none is found (the provider then reads the environment alone).
 */
export function providerConstants(plan: PlanJson): Record<string, Json>[] {
  const keys = new Set<string>();
  const walk = (module: ConfigModule | undefined) => {
    for (const r of module?.resources ?? [])
      if (isSubscription(r) && r.provider_config_key) keys.add(r.provider_config_key);
    for (const call of Object.values(module?.module_calls ?? {})) walk(call.module);
  };
  walk(plan.configuration?.root_module);
  const configs = plan.configuration?.provider_config ?? {};
  const found = [...keys].map((key) =>
    Object.fromEntries(
      Object.entries(configs[key]?.expressions ?? {}).flatMap(([name, e]) =>
        e.constant_value === undefined ? [] : [[name, e.constant_value]],
      ),
    ),
  );
  return found.length > 0 ? found : [{}];
}

/** A provider block's constant arguments as the one settings reader takes them (`webhooks:baseUrl` → `base_url`). */
function blockSource(constants: Record<string, Json>): ConfigSource {
  return {
    get(key) {
      const [prefix, name] = key.split(":");
      if (prefix !== "webhooks" || !name) return undefined;
      const value = constants[snakeCase(name)];
      return value === null || value === undefined ? undefined : String(value);
    },
  };
}

/**
 * The instances the subscriptions live on: each provider block's (its constant `base_url`, else
 * `WEBHOOKS_BASE_URL`), and any other `base_url` the state records for a subscription. What
 * cannot be read becomes a note naming the source (`name`: the directory or state file as given).
 */
export function terraformInstances(
  constants: readonly Record<string, Json>[],
  recorded: readonly string[],
  env: NodeJS.ProcessEnv,
  name: string,
): { instances: SourceInstance[]; notes: string[] } {
  const instances = new Map<string, SourceInstance>();
  const notes: string[] = [];
  const read = (source: ConfigSource): void => {
    const { connection } = readSettings(source, env);
    if (!instances.has(connection.baseUrl))
      instances.set(connection.baseUrl, { baseUrl: connection.baseUrl, apiVersion: connection.apiVersion });
  };
  for (const block of constants)
    try {
      read(blockSource(block));
    } catch (err) {
      notes.push(
        redact(
          `${name}: the review cannot tell which instance its subscriptions live on (${inHclTerms((err as Error).message, [])}). ` +
            "Set WEBHOOKS_BASE_URL and WEBHOOKS_TOKEN for the review, as for `tofu plan`: without them it lists no unmanaged subscription of that instance.",
          credentialsIn(env),
        ),
      );
    }
  for (const baseUrl of new Set(recorded))
    try {
      if (!instances.has(baseUrl)) read(blockSource({ base_url: baseUrl }));
    } catch {
      // The note above already says what is missing.
    }
  return { instances: [...instances.values()], notes };
}
