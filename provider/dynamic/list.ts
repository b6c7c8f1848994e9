/**
 * `listWebhookSubscriptions`: a read-only look at an instance from a Pulumi program, for
 * programs that only need to see what exists (e.g. to skip declaring what another team owns).
 */
import * as pulumi from "@pulumi/pulumi";
import { providerConfig, type Provider } from "./provider";
import { listSubscriptions, type ListedSubscription } from "../core/list";
import type { ConfigSource } from "../core/settings";

export type { ListedSubscription };

export interface ListWebhookSubscriptionsOptions {
  /**
   * The instance to list. Its arguments must be known when the program runs (plain values,
   * secrets, stack config; not outputs of resources created in the same run).
   * @default the default provider's settings: stack config `webhooks:*`, else `WEBHOOKS_*`
   */
  readonly provider?: Provider;
}

/**
 * Lists the subscriptions of an instance, as they are now. A plain async call, made when the
 * program runs (also at preview); it manages nothing and stores nothing in state. Signatures
 * and custom header values are left out: use `WebhookSubscription.get` for a secret output.
 */
export async function listWebhookSubscriptions(
  options: ListWebhookSubscriptionsOptions = {},
): Promise<ListedSubscription[]> {
  return listSubscriptions(options.provider ? await configOf(options.provider) : stackConfig());
}

/** The stack's `webhooks:*` config, as the default provider reads it. */
function stackConfig(): ConfigSource {
  return {
    get: (key) => {
      const [namespace, name] = key.split(":") as [string, string];
      return new pulumi.Config(namespace).get(name);
    },
  };
}

/** A Provider's arguments as its plugin receives them, once they are known. */
async function configOf(provider: Provider): Promise<ConfigSource> {
  const output = pulumi.output(provider.declared.args);
  // Not in the SDK's typings, but on every Output: without it, an argument unknown at preview
  // (an output of a resource not created yet) would leave the apply below waiting forever.
  if (!(await (output as unknown as { isKnown: Promise<boolean> }).isKnown))
    throw new Error(
      `listWebhookSubscriptions: an argument of Provider "${provider.declared.name}" is not known yet (an output of a resource ` +
        "this run creates). List with a Provider whose arguments are plain values, secrets or stack config.",
    );
  const args = await new Promise<Record<string, unknown>>((resolve) =>
    output.apply((values) => resolve(values as Record<string, unknown>)),
  );
  const config = providerConfig(provider.declared.name, args);
  return { get: (key) => config[key] as string | undefined };
}
