/**
 * What the review needs from the stack's state: the managed WebhookSubscriptions with their
 * outputs, and every subscription GUID the state mentions. Subscriptions and explicit providers
 * of both front doors (the dynamic provider and the native plugin) count, side by side.
 *
 * The Automation API exports state with `--show-secrets`, so the outputs here hold plaintext
 * secrets. They are kept in memory to tell which secret changed, and never printed.
 */
import { posix } from "node:path";
import {
  explicitProvider,
  frontDoorOf,
  isNativeDefaultProvider,
  isWebhookSubscriptionType,
  naturalKeyOfInputs,
  type ExplicitProvider,
  type FrontDoor,
} from "../../../provider/model";
import type { FieldValue } from "../../review/model";
import { guidKey } from "../../review/guid";
import type { PendingCreate } from "../source";
import { COMPARED_FIELDS, unwrapValue, MASKED, type ComparedField } from "./fields";

/** A line of a file of the program, the file relative to the program's directory (the engine's `sourcePosition`). */
export interface DeclaredAt {
  readonly file: string;
  readonly line: number;
}

/** One managed subscription as recorded in state. */
export interface StateSubscription {
  readonly urn: string;
  readonly name: string;
  readonly guid: string;
  /** Plaintext output values; undefined where the state holds no readable value. */
  readonly outputs: Readonly<Partial<Record<ComparedField, FieldValue>>>;
  /** The explicit provider it is managed through (its name), or null for a default provider. */
  readonly provider: string | null;
  /** That explicit provider's URN (two front doors' providers may share a name), or null. */
  readonly providerUrn: string | null;
  /** Declared through the dynamic provider or the native plugin. */
  readonly frontDoor: FrontDoor;
  /** Where the program declares it, when the engine recorded that (`sourcePosition`). */
  readonly declaredAt?: DeclaredAt;
}

export interface StateSnapshot {
  /** Live managed subscriptions (resources pending deletion are left out). */
  readonly managed: readonly StateSubscription[];
  /** Every GUID in state: ids, `guid` and `adoptGuid` of any WebhookSubscription, pending ones included (but pending creates). */
  readonly guids: ReadonlySet<string>;
  /** Each explicit provider (a dynamic `Provider` or a native one), with its settings, by its URN. */
  readonly providers: ReadonlyMap<string, ExplicitProvider>;
  /** Whether the state holds the native plugin's default provider (a native program, even with no subscription left). */
  readonly nativeDefaultProvider: boolean;
  /** The WebhookSubscription creates pending since a killed run, in state order (GUIDs lower case). */
  readonly pendingCreates: readonly PendingCreate[];
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
  /** Where the program made it, as the language SDK saw it: `project:///index.ts#17,17`. */
  sourcePosition?: string;
}

interface Deployment {
  resources?: DeploymentResource[];
  pending_operations?: { resource?: DeploymentResource; type?: string }[];
}

/**
 * The project file and line of a `sourcePosition` (a URL: `project:///src/my%20hooks.ts#17,5`).
 * None for a file outside the project (`../`, e.g. a component library in node_modules): what
 * declares the subscription there is not the team's program.
 */
export function declaredAtOf(sourcePosition: string | undefined): DeclaredAt | undefined {
  const match = /^project:\/\/\/([^#]+)#(\d+)/.exec(sourcePosition ?? "");
  if (!match) return undefined;
  let file: string;
  try {
    file = posix.normalize(decodeURIComponent(match[1]!));
  } catch {
    return undefined;
  }
  const line = Number(match[2]);
  if (file.startsWith("../") || file.startsWith("/") || /\\|^[A-Za-z]:/.test(file) || line < 1) return undefined;
  return { file, line };
}

/** The last segment of a URN: the resource's name in the program. */
export function resourceName(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** Reads the snapshot from an exported deployment (`(await stack.exportStack()).deployment`). */
export function stateSnapshot(deployment: unknown): StateSnapshot {
  const { resources = [], pending_operations: pending = [] } = (deployment ?? {}) as Deployment;
  const ours = (r: DeploymentResource | undefined): r is DeploymentResource => isWebhookSubscriptionType(r?.type);

  const guids = new Set<string>();
  // A pending create is not managed, even when it records a GUID (the engine can write one the
  // provider returned before the run was killed): clearing it leaves that subscription an orphan.
  const others = pending.filter((p) => p.type !== "creating").map((p) => p.resource);
  for (const resource of [...resources, ...others].filter(ours)) {
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

  const providers = new Map<string, ExplicitProvider>();
  let nativeDefaultProvider = false;
  for (const r of resources) {
    if (isNativeDefaultProvider(r)) nativeDefaultProvider = true;
    // Every provider resource's type starts so; which of them are ours, explicitProvider says.
    if (!r.urn || !r.type?.startsWith("pulumi:providers:")) continue;
    const inputs: Record<string, FieldValue> = {};
    for (const [key, raw] of Object.entries(r.inputs ?? {})) {
      const value = unwrapValue(raw);
      if (value !== undefined && value !== MASKED) inputs[key] = value;
    }
    const provider = explicitProvider({ type: r.type, urn: r.urn, inputs });
    if (provider) providers.set(r.urn, provider);
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
      // `<provider urn>::<provider id>`; a default provider is no explicit one.
      const reference = r.provider?.slice(0, r.provider.lastIndexOf("::"));
      const providerUrn = reference !== undefined && providers.has(reference) ? reference : null;
      const provider = providerUrn === null ? null : providers.get(providerUrn)!.name;
      const declaredAt = declaredAtOf(r.sourcePosition);
      return {
        urn: r.urn as string,
        name: resourceName(r.urn as string),
        guid: r.id as string,
        outputs,
        provider,
        providerUrn,
        frontDoor: frontDoorOf(r.type)!,
        ...(declaredAt ? { declaredAt } : {}),
      };
    });
  const pendingCreates = pending
    .filter((p) => p.type === "creating" && ours(p.resource) && p.resource.urn)
    .map(({ resource }): PendingCreate => {
      const inputs: Record<string, FieldValue> = {};
      for (const [key, raw] of Object.entries(resource!.inputs ?? {})) {
        const value = unwrapValue(raw);
        if (value !== undefined && value !== MASKED) inputs[key] = value;
      }
      const guid = unwrapValue(resource!.id ?? resource!.outputs?.guid);
      return {
        urn: resource!.urn!,
        key: naturalKeyOfInputs(inputs),
        ...(typeof guid === "string" && guid !== "" ? { guid: guidKey(guid) } : {}),
      };
    });
  return { managed, guids, providers, nativeDefaultProvider, pendingCreates };
}
