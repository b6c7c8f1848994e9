/**
 * The instances a stack uses: the default providers' (stack config / `WEBHOOKS_*`, for both
 * front doors) and each explicit provider's (its settings in state), each with the managed
 * subscriptions it holds. Two providers reaching one base URL are one instance: one GetAll,
 * listed once.
 */
import { readSettings, type ConfigSource, type ConnectionSettings } from "../../../provider/model";
import type { SourceInstance } from "../../review/model";
import type { ReachedInstance } from "../source";
import { adoptionFrontDoor } from "./adoptionFrontDoor";
import type { StateSnapshot, StateSubscription } from "./stateSnapshot";

export interface StackInstance {
  /** The explicit provider reaching it (its name), or null for the default provider. */
  readonly provider: string | null;
  /** That explicit provider's URN, or null for the default provider. */
  readonly providerUrn: string | null;
  readonly settings: ConnectionSettings;
  readonly managed: StateSubscription[];
}

/**
 * The default provider's instance comes first; it is reviewed when a managed subscription uses
 * it or the stack has no explicit provider (a stack with none yet still has unmanaged ones to see).
 */
export function instancesOf(state: StateSnapshot, stackConfig: ConfigSource, env: NodeJS.ProcessEnv): StackInstance[] {
  // Keyed by the explicit provider's URN (null: default), as names may repeat across front doors.
  const byProvider = new Map<string | null, StateSubscription[]>();
  for (const s of state.managed) byProvider.set(s.providerUrn, [...(byProvider.get(s.providerUrn) ?? []), s]);
  if (state.providers.size === 0 || byProvider.has(null)) byProvider.set(null, byProvider.get(null) ?? []);
  for (const urn of state.providers.keys()) if (!byProvider.has(urn)) byProvider.set(urn, []);

  const byBaseUrl = new Map<string, StackInstance>();
  for (const urn of [null, ...state.providers.keys()]) {
    const managed = byProvider.get(urn);
    if (!managed) continue;
    const explicit = urn === null ? undefined : state.providers.get(urn);
    const settings = readSettings(explicit?.config ?? stackConfig, env).connection;
    const existing = byBaseUrl.get(settings.baseUrl);
    if (existing) existing.managed.push(...managed);
    else
      byBaseUrl.set(settings.baseUrl, {
        provider: explicit?.name ?? null,
        providerUrn: urn,
        settings,
        managed: [...managed],
      });
  }
  return [...byBaseUrl.values()];
}

/** How a report describes an instance of the stack: its base URL, API version and provider. */
export function describeInstance(i: StackInstance): SourceInstance {
  return { baseUrl: i.settings.baseUrl, apiVersion: i.settings.apiVersion, provider: i.provider };
}

/**
 * Each instance of the stack, and how an unmanaged subscription on it would be adopted into the
 * stack: through the front door the stack reaches it by (adoptionFrontDoor.ts), on its provider.
 * @param runtime the project's runtime name, undefined when unknown.
 */
export function reachedInstances(
  instances: readonly StackInstance[],
  state: StateSnapshot,
  stack: string,
  runtime: string | undefined,
): ReachedInstance[] {
  return instances.map((i) => ({
    ...describeInstance(i),
    adoptInto: {
      kind: "pulumi-stack",
      frontDoor: adoptionFrontDoor(state, i.providerUrn, runtime),
      stack,
      provider: i.providerUrn === null ? null : { name: i.provider!, urn: i.providerUrn },
      ...(runtime === undefined ? {} : { runtime }),
    },
  }));
}
