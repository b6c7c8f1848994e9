/**
 * The instances a stack uses: the default provider's (stack config / `WEBHOOKS_*`) and each
 * explicit `Provider`'s (its config in state), each with the managed subscriptions it holds.
 * Two providers reaching one base URL are one instance: one GetAll, listed once.
 */
import { readSettings, type ConfigSource, type ConnectionSettings } from "../provider/model";
import type { StateSnapshot, StateSubscription } from "./stateSnapshot";

export interface StackInstance {
  /** The explicit Provider reaching it, or null for the default provider. */
  readonly provider: string | null;
  readonly settings: ConnectionSettings;
  readonly managed: StateSubscription[];
}

/**
 * The default provider's instance comes first; it is reviewed when a managed subscription uses
 * it or the stack has no explicit Provider (a stack with none yet still has unmanaged ones to see).
 */
export function instancesOf(state: StateSnapshot, stackConfig: ConfigSource, env: NodeJS.ProcessEnv): StackInstance[] {
  const byProvider = new Map<string | null, StateSubscription[]>();
  for (const s of state.managed) byProvider.set(s.provider, [...(byProvider.get(s.provider) ?? []), s]);
  if (state.providers.size === 0 || byProvider.has(null)) byProvider.set(null, byProvider.get(null) ?? []);
  for (const name of state.providers.keys()) if (!byProvider.has(name)) byProvider.set(name, []);

  const byBaseUrl = new Map<string, StackInstance>();
  for (const provider of [null, ...state.providers.keys()]) {
    const managed = byProvider.get(provider);
    if (!managed) continue;
    const config = provider === null ? stackConfig : providerSource(state, provider);
    const settings = readSettings(config, env).connection;
    const existing = byBaseUrl.get(settings.baseUrl);
    if (existing) existing.managed.push(...managed);
    else byBaseUrl.set(settings.baseUrl, { provider, settings, managed: [...managed] });
  }
  return [...byBaseUrl.values()];
}

function providerSource(state: StateSnapshot, provider: string): ConfigSource {
  const config = state.providers.get(provider) ?? {};
  return { get: (key) => (config[key] === undefined || config[key] === null ? undefined : String(config[key])) };
}
