/**
 * A fleet of many distinct subscriptions for the end-to-end robustness tests (chaos, interrupted
 * runs), and the check that what the service holds is exactly what the stack's state records.
 * Shared by the tests and by the fixture scripts they run in a separate process.
 */
import * as pulumi from "@pulumi/pulumi";
import type { EngineEvent, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription, type WebhookSubscriptionArgs } from "pulumi-webhook-subscriptions";

/** Events that need a filterObjectGuid (0, 1, 2 and 4); 3 and 5 are type-scoped. */
const OBJECT_SCOPED = new Set([0, 1, 2, 4]);

/** What to vary between runs of the same fleet. */
export interface FleetVariant {
  /** Appended to every URL whose index passes `changed`, e.g. "v2". */
  readonly urlSuffix?: string;
  /** Which subscriptions get the suffix. @default every one */
  readonly changed?: (index: number) => boolean;
  /** Added to every filterObjectType: an identity field, so every subscription is replaced. */
  readonly filterObjectTypeOffset?: number;
}

/** A deterministic GUID for subscription `index` of the fleet. */
function objectGuid(index: number): string {
  return `6f1c${index.toString(16).padStart(4, "0")}-0000-4000-8000-${index.toString(16).padStart(12, "0")}`;
}

/** The custom header value of subscription `index`: a secret the leak checks look for. */
export function headerValue(index: number): string {
  return `fleet-header-secret-${index}-c2f9`;
}

/**
 * `count` subscriptions with pairwise different natural keys (each has its own URL): every event,
 * object- and type-scoped, a third with a secret custom header.
 */
export function fleet(count: number, variant: FleetVariant = {}): Record<string, WebhookSubscriptionArgs> {
  const out: Record<string, WebhookSubscriptionArgs> = {};
  for (let i = 0; i < count; i++) {
    const webhook = i % 6;
    const suffix = variant.urlSuffix && (variant.changed?.(i) ?? true) ? `/${variant.urlSuffix}` : "";
    out[`sub-${String(i).padStart(3, "0")}`] = {
      webhook,
      filterObjectType: 2 + (i % 7) + (variant.filterObjectTypeOffset ?? 0),
      ...(OBJECT_SCOPED.has(webhook) ? { filterObjectGuid: objectGuid(i) } : {}),
      subscriberUrl: `https://hooks.example.com/fleet/${i}${suffix}`,
      ...(i % 3 === 0 ? { customHeader: "X Api Key", customHeaderValue: pulumi.secret(headerValue(i)) } : {}),
    };
  }
  return out;
}

/** An inline program declaring whatever `desired()` returns when it runs. */
export function fleetProgram(desired: () => Record<string, WebhookSubscriptionArgs>): PulumiFn {
  return async () => {
    for (const [name, args] of Object.entries(desired())) new WebhookSubscription(name, args);
    return {};
  };
}

/** A subscription as GetAll returns it (PascalCase wire fields). */
export type LiveSubscription = Record<string, unknown> & { GUID: string };

/** How the service and the state compare; every list is empty when they agree exactly. */
export interface FleetComparison {
  /** Subscriptions on the service. */
  live: number;
  /** WebhookSubscription resources in state. */
  managed: number;
  /** Extra subscriptions sharing a natural key with another (same event, scope, URL, header). */
  duplicates: string[];
  /** On the service, not in state. */
  orphans: string[];
  /** In state, not on the service. */
  missing: string[];
  /** A field that differs between state, service and (when given) the desired inputs. */
  mismatches: string[];
}

/** Resource outputs in a `--show-secrets` export: secrets may come as `{plaintext: "<json>"}`. */
function plain(value: unknown): unknown {
  if (value && typeof value === "object" && "plaintext" in value)
    return JSON.parse(String((value as { plaintext: string }).plaintext));
  return value;
}

/** State output name → wire field of GetAll. */
const FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["webhook", "Webhook"],
  ["filterObjectType", "FilterObjectType"],
  ["filterObjectGuid", "FilterObjectGUID"],
  ["subscriberUrl", "SubscriberURL"],
  ["customHeader", "CustomHeader"],
  ["customHeaderValue", "CustomHeaderValue"],
  ["signature", "Signature"],
];

/**
 * Compares the service's subscriptions with the stack's state (GUIDs and every field, signature
 * and header value included) and, when `desired` is given, the state's URLs with the program's.
 */
export async function compareFleet(
  stack: Stack,
  live: LiveSubscription[],
  desired?: Record<string, WebhookSubscriptionArgs>,
): Promise<FleetComparison> {
  const deployment = (await stack.exportStack()).deployment as {
    resources?: Array<{ urn: string; type: string; id?: string; outputs?: Record<string, unknown> }>;
  };
  const managed = (deployment.resources ?? []).filter(
    (r) => r.type === "pulumi-nodejs:dynamic/webhooks:WebhookSubscription",
  );
  const byGuid = new Map(live.map((s) => [s.GUID, s]));
  const result: FleetComparison = {
    live: live.length,
    managed: managed.length,
    duplicates: [],
    orphans: [],
    missing: [],
    mismatches: [],
  };

  const keys = new Set<string>();
  for (const s of live) {
    const key = JSON.stringify([
      s.Webhook,
      s.FilterObjectType,
      s.FilterObjectGUID ?? null,
      s.SubscriberURL,
      s.CustomHeader ?? "",
    ]);
    if (keys.has(key)) result.duplicates.push(`${s.GUID} ${key}`);
    keys.add(key);
  }
  const inState = new Set(managed.map((r) => r.id));
  for (const s of live) if (!inState.has(s.GUID)) result.orphans.push(`${s.GUID} ${String(s.SubscriberURL)}`);

  for (const resource of managed) {
    const name = resource.urn.split("::").pop()!;
    const service = byGuid.get(resource.id ?? "");
    if (!service) {
      result.missing.push(`${name} ${resource.id}`);
      continue;
    }
    const outputs = resource.outputs ?? {};
    if (plain(outputs.guid) !== service.GUID)
      result.mismatches.push(`${name}: guid ${String(plain(outputs.guid))} ≠ ${service.GUID}`);
    for (const [output, wire] of FIELDS) {
      const recorded = plain(outputs[output]) ?? null;
      if (recorded !== (service[wire] ?? null))
        result.mismatches.push(
          `${name}: ${output} ${JSON.stringify(recorded)} ≠ service ${JSON.stringify(service[wire])}`,
        );
    }
    const wanted = desired?.[name];
    if (desired && !wanted) result.mismatches.push(`${name}: in state but not in the program`);
    if (wanted && wanted.subscriberUrl !== plain(outputs.subscriberUrl))
      result.mismatches.push(`${name}: subscriberUrl is not the desired ${String(wanted.subscriberUrl)}`);
    if (wanted && wanted.filterObjectType !== plain(outputs.filterObjectType))
      result.mismatches.push(`${name}: filterObjectType is not the desired ${String(wanted.filterObjectType)}`);
  }
  if (desired && managed.length !== Object.keys(desired).length)
    result.mismatches.push(`${managed.length} in state, ${Object.keys(desired).length} in the program`);
  return result;
}

/** The comparison when the service holds exactly the `count` subscriptions the state records, as declared. */
export function exactly(count: number): FleetComparison {
  return { live: count, managed: count, duplicates: [], orphans: [], missing: [], mismatches: [] };
}

/**
 * The GUIDs the provider says it adopted during one engine operation, read from the engine's
 * diagnostic events (each line the provider writes is one event) rather than from the rendered
 * output, whose layout of concurrent steps is the display's business.
 */
export function adoptionRecorder(): { onEvent: (event: EngineEvent) => void; adopted: string[] } {
  const adopted: string[] = [];
  return {
    adopted,
    onEvent: (event) => {
      const message = event.diagnosticEvent?.message ?? "";
      for (const match of message.matchAll(/adopted the existing identical subscription ([0-9a-f-]{36})/g))
        adopted.push(match[1]!);
    },
  };
}

/** The comparison as one line for the log. */
export function describeComparison(c: FleetComparison): string {
  return `live ${c.live}, managed ${c.managed}, duplicates ${c.duplicates.length}, orphans ${c.orphans.length}, missing ${c.missing.length}, mismatches ${c.mismatches.length}`;
}
