/**
 * What the review needs from the stack's state: the managed WebhookSubscriptions with their
 * outputs, and every subscription GUID the state mentions.
 *
 * The Automation API exports state with `--show-secrets`, so the outputs here hold plaintext
 * secrets. They are kept in memory to tell which secret changed, and never printed.
 */
import { PROVIDER_KEYS, WEBHOOK_SUBSCRIPTION_TYPE } from "../provider/model";
import { COMPARED_FIELDS, unwrapValue, MASKED, type ComparedField } from "./fields";
import type { FieldValue } from "./report";

/** One managed subscription as recorded in state. */
export interface StateSubscription {
  readonly urn: string;
  readonly name: string;
  readonly guid: string;
  /** Plaintext output values; undefined where the state holds no readable value. */
  readonly outputs: Readonly<Partial<Record<ComparedField, FieldValue>>>;
  /** The explicit `Provider` it is managed through (its name), or null for the default provider. */
  readonly provider: string | null;
}

export interface StateSnapshot {
  /** Live managed subscriptions (resources pending deletion are left out). */
  readonly managed: readonly StateSubscription[];
  /** Every GUID in state: ids, `guid` and `adoptGuid` of any WebhookSubscription, pending ones included. */
  readonly guids: ReadonlySet<string>;
  /** Each explicit `Provider`'s config (its plaintext inputs, `webhooks:*` keys), by its name. */
  readonly providers: ReadonlyMap<string, Readonly<Record<string, FieldValue>>>;
}

/** The shape of `exportStack().deployment` this module reads; the rest is ignored. */
interface DeploymentResource {
  urn?: string;
  type?: string;
  id?: string;
  /** `<provider urn>::<provider id>`. */
  provider?: string;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

interface Deployment {
  resources?: DeploymentResource[];
  pending_operations?: { resource?: DeploymentResource }[];
}

/** The last segment of a URN: the resource's name in the program. */
export function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** GUIDs compare case-insensitively; the service answers in lower case. */
export function guidKey(guid: string): string {
  return guid.toLowerCase();
}

/** Reads the snapshot from an exported deployment (`(await stack.exportStack()).deployment`). */
export function stateSnapshot(deployment: unknown): StateSnapshot {
  const { resources = [], pending_operations: pending = [] } = (deployment ?? {}) as Deployment;
  const ours = (r: DeploymentResource | undefined): r is DeploymentResource => r?.type === WEBHOOK_SUBSCRIPTION_TYPE;

  const guids = new Set<string>();
  for (const resource of [...resources, ...pending.map((p) => p.resource)].filter(ours)) {
    for (const value of [
      resource.id,
      resource.outputs?.guid,
      resource.outputs?.adoptGuid,
      resource.inputs?.adoptGuid,
    ]) {
      const guid = unwrapValue(value);
      if (typeof guid === "string" && guid !== "") guids.add(guidKey(guid));
    }
  }

  // Explicit Providers: provider resources whose config names them (see provider/dynamic/provider.ts).
  const providers = new Map<string, Record<string, FieldValue>>();
  const providerByUrn = new Map<string, string>();
  for (const r of resources) {
    const name = unwrapValue(r.inputs?.[PROVIDER_KEYS.provider]);
    if (!r.type?.startsWith("pulumi:providers:") || typeof name !== "string" || !r.urn) continue;
    const config: Record<string, FieldValue> = {};
    for (const [key, raw] of Object.entries(r.inputs ?? {})) {
      const value = unwrapValue(raw);
      if (value !== undefined && value !== MASKED) config[key] = value;
    }
    providers.set(name, config);
    providerByUrn.set(r.urn, name);
  }

  const managed = resources
    .filter(ours)
    .filter((r) => !r.delete && r.urn && r.id)
    .map((r): StateSubscription => {
      const outputs: Partial<Record<ComparedField, FieldValue>> = {};
      for (const field of COMPARED_FIELDS) {
        const value = unwrapValue(r.outputs?.[field]);
        if (value !== undefined && value !== MASKED) outputs[field] = value;
      }
      const providerUrn = r.provider?.slice(0, r.provider.lastIndexOf("::"));
      const provider = (providerUrn && providerByUrn.get(providerUrn)) ?? null;
      return { urn: r.urn as string, name: resourceName(r.urn as string), guid: r.id as string, outputs, provider };
    });
  return { managed, guids, providers };
}
