/**
 * A subscription's fields as the rules read them (`SubscriptionFields`), from the two places
 * the rules run: a resource's inputs in a preview (either front door: the same names) and a live
 * subscription on the instance. The header value is reduced to whether it is set.
 */
import * as pulumi from "@pulumi/pulumi";
import { NATIVE_PROVIDER_TYPE, UNKNOWN } from "../provider/model";
import {
  DEFAULT_API_VERSION,
  EMPTY_GUID,
  Webhook,
  hasHeaderValue,
  normalizeHeaderName,
  type Subscription,
} from "../provider/wire";
import type { SubscriptionFields } from "./rules";

/** A value a preview does not know yet reads as undefined. */
const known = (value: unknown) => (value === UNKNOWN ? undefined : value);

/**
 * The fields of a WebhookSubscription's inputs (the dynamic resource's also hold `__provider`,
 * which is ignored). `label` names the resource in messages.
 */
export function fieldsOfInputs(props: Record<string, unknown>, label: string, apiVersion?: string): SubscriptionFields {
  const webhook = known(props.webhook);
  const filter = known(props.filterObjectGuid);
  const header = known(props.customHeader);
  const value = known(props.customHeaderValue);
  return {
    label,
    webhook:
      typeof webhook === "string" && Object.hasOwn(Webhook, webhook)
        ? Webhook[webhook as keyof typeof Webhook]
        : typeof webhook === "number"
          ? webhook
          : undefined,
    filterObjectType: typeof props.filterObjectType === "number" ? props.filterObjectType : undefined,
    filterObjectGuid:
      filter === undefined && "filterObjectGuid" in props
        ? undefined
        : typeof filter === "string" && filter !== "" && filter !== EMPTY_GUID
          ? filter
          : null,
    subscriberUrl: typeof known(props.subscriberUrl) === "string" ? (props.subscriberUrl as string) : undefined,
    customHeader:
      header === undefined && "customHeader" in props
        ? undefined
        : typeof header === "string"
          ? normalizeHeaderName(header)
          : "",
    hasCustomHeaderValue:
      value === undefined && "customHeaderValue" in props ? undefined : value !== undefined && value !== null,
    ...(apiVersion === undefined ? {} : { apiVersion }),
  };
}

/** The fields of a live subscription on an instance reached with `apiVersion`. */
export function fieldsOfLive(live: Subscription, label: string, apiVersion: string): SubscriptionFields {
  return {
    label,
    webhook: live.webhook,
    filterObjectType: live.filterObjectType,
    filterObjectGuid: live.filterObjectGuid,
    subscriberUrl: live.subscriberUrl,
    customHeader: live.customHeader,
    hasCustomHeaderValue: hasHeaderValue(live),
    apiVersion,
  };
}

/** A provider resource as a policy sees it. */
export interface ProviderView {
  readonly type: string;
  readonly props: Record<string, unknown>;
}

/**
 * The api-version a resource's provider uses: a native provider's `apiVersion` input, an
 * explicit dynamic `Provider`'s `webhooks:apiVersion`, else (default providers) the stack's
 * `webhooks:apiVersion`, then `WEBHOOKS_API_VERSION`, then the default.
 */
export function apiVersionOf(provider: ProviderView | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const own =
    provider?.type === NATIVE_PROVIDER_TYPE ? provider.props.apiVersion : provider?.props["webhooks:apiVersion"];
  if (typeof own === "string" && own !== "") return own;
  return pulumi.runtime.getConfig("webhooks:apiVersion") ?? env.WEBHOOKS_API_VERSION ?? DEFAULT_API_VERSION;
}
