/**
 * The WebhookSubscription resource: what a Pulumi program declares.
 */
import * as pulumi from "@pulumi/pulumi";
import type { WebhookId, WebhookName } from "../wire";
import { SUBSCRIPTION_FIELDS } from "../core/diff";
import { SECRET_OUTPUTS } from "../core/outputs";
import { PROVIDER_MODULE } from "./providerModule";

/** Type token in state: a dynamic resource of module `webhooks`. */
export const WEBHOOK_SUBSCRIPTION_TYPE = "pulumi-nodejs:dynamic/webhooks:WebhookSubscription";

/** Every output a `get` reads besides those declared below: the stored fields and adoptGuid. */
const OUTPUT_NAMES = [...SUBSCRIPTION_FIELDS, "adoptGuid"];

/** Arguments of a WebhookSubscription. */
export interface WebhookSubscriptionArgs {
  /**
   * The event to subscribe to: a `Webhook` member, its name (`"PacketCreated"`) or its integer (0..5).
   * Changing it replaces the subscription (new GUID and Signature).
   */
  readonly webhook: pulumi.Input<WebhookId | WebhookName | number>;
  /**
   * Integer of the service object type the subscription filters by.
   * Changing it replaces the subscription.
   */
  readonly filterObjectType: pulumi.Input<number>;
  /**
   * GUID of the one object the subscription is scoped to. Required for PacketCreated,
   * PacketUpdated, NewCommunication and SpecificBusinessObjectUpdated; must be left out for the
   * type-scoped BusinessObjectCreated and BusinessObjectTypeUpdated. Changing it replaces the subscription.
   * @default undefined (type-scoped)
   */
  readonly filterObjectGuid?: pulumi.Input<string>;
  /** Absolute http(s) URL that receives the messages. Changes are applied in place. */
  readonly subscriberUrl: pulumi.Input<string>;
  /**
   * Name of a custom header sent with every message; spaces become hyphens (`"X Api Key"` → `"X-Api-Key"`).
   * @default undefined (no custom header)
   */
  readonly customHeader?: pulumi.Input<string>;
  /**
   * Value of the custom header. Always stored as a secret.
   * @default undefined
   */
  readonly customHeaderValue?: pulumi.Input<string>;
  /**
   * GUID of an existing subscription to adopt instead of creating one: it is read and brought
   * to the desired state. Works with both front doors; `pulumi import` works with the native
   * provider only (it cannot for dynamic providers).
   * `npx webhook-subscriptions drift` lists unmanaged subscriptions with ready-made snippets.
   * @default undefined (create a new subscription)
   */
  readonly adoptGuid?: pulumi.Input<string>;
  /**
   * Any label, e.g. a date or a stack-config value. Changing it replaces the subscription: a new
   * one (with a new Signature) is created first, then the old one deleted. Rotate a leaked
   * Signature by changing it; receivers must accept both signatures during the overlap.
   * The subscription being rotated away is never adopted by its replacement; an orphan of an
   * interrupted run still is, as for any create. (`pulumi up --replace` skips this: the replacement
   * adopts the identical subscription and keeps its Signature, so rotate with this label.)
   * @default undefined (no rotation label)
   */
  readonly rotation?: pulumi.Input<string>;
}

/**
 * A webhook subscription: the service POSTs a message to `subscriberUrl` whenever `webhook` occurs
 * (for one object, or for every object of a type). Connection settings come from the `provider`
 * option (a `Provider`), or else from stack config `webhooks:*` / `WEBHOOKS_*` environment
 * variables, never from resource arguments.
 */
export class WebhookSubscription extends pulumi.CustomResource {
  /** GUID the service allocated (or the adopted one). */
  declare public readonly guid: pulumi.Output<string>;
  /** Value of `x-<product>-signature` on every message; secret. Rotates only when the subscription is replaced. */
  declare public readonly signature: pulumi.Output<string>;
  /** The event, as the service's integer. */
  declare public readonly webhook: pulumi.Output<number>;
  /** The event's name, e.g. `"PacketCreated"`. */
  declare public readonly webhookName: pulumi.Output<string>;
  declare public readonly filterObjectType: pulumi.Output<number>;
  /** Null for type-scoped subscriptions. */
  declare public readonly filterObjectGuid: pulumi.Output<string | null>;
  declare public readonly subscriberUrl: pulumi.Output<string>;
  /** `""` when none; spaces replaced by hyphens. */
  declare public readonly customHeader: pulumi.Output<string>;
  /** Secret; null when none. */
  declare public readonly customHeaderValue: pulumi.Output<string | null>;
  declare public readonly adoptGuid: pulumi.Output<string | null>;
  /** The rotation label the subscription was created under, or null. */
  declare public readonly rotation: pulumi.Output<string | null>;
  /**
   * The instance the subscription lives on (its normalised base URL). When the settings or the
   * `provider` point elsewhere, the next `up` moves it there (docs/multi-instance.md).
   */
  declare public readonly baseUrl: pulumi.Output<string>;

  /**
   * Looks up an existing subscription by GUID without managing it: it is read (on the default
   * provider's instance, or `opts.provider`'s), never adopted, changed or deleted by this stack.
   * Fails when the instance holds no subscription with that GUID.
   */
  static get(name: string, guid: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): WebhookSubscription {
    return new WebhookSubscription(name, undefined, { ...opts, id: guid });
  }

  constructor(name: string, args: WebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions);
  /** @internal for `get`: no arguments, an `id` to read. */
  constructor(name: string, args: WebhookSubscriptionArgs | undefined, opts?: pulumi.CustomResourceOptions);
  constructor(name: string, args: WebhookSubscriptionArgs | undefined, opts?: pulumi.CustomResourceOptions) {
    const props: pulumi.Inputs = {
      // `get` has no arguments: every output is declared, so the engine fills each from `read`.
      ...(args ?? Object.fromEntries(OUTPUT_NAMES.map((name) => [name, undefined]))),
      // Secret from the start, not only as an output: a plain string would otherwise be stored in
      // plaintext among the inputs in state, and printed by the engine in check failures.
      ...(args?.customHeaderValue === undefined ? {} : { customHeaderValue: pulumi.secret(args.customHeaderValue) }),
      __provider: PROVIDER_MODULE,
      // Declared so the engine fills them from the provider's outputs.
      guid: undefined,
      signature: undefined,
      webhookName: undefined,
      baseUrl: undefined,
    };
    super(WEBHOOK_SUBSCRIPTION_TYPE, name, props, {
      ...opts,
      additionalSecretOutputs: [...new Set([...(opts?.additionalSecretOutputs ?? []), ...SECRET_OUTPUTS])],
    });
  }
}
