/**
 * The ready-to-paste program statement that adopts an unmanaged subscription: a
 * `new WebhookSubscription(…, { adoptGuid, … })` whose arguments equal the live fields, so that
 * the first `pulumi up` takes the subscription over without changing it.
 */
import { webhookName, type Subscription } from "../provider/wire";

/** A resource name from the event and the GUID's first block, e.g. `packet-created-3f2a9c1d`. */
export function suggestedName(live: Pick<Subscription, "guid" | "webhook">): string {
  const event = webhookName(live.webhook);
  const stem = event ? event.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase() : `webhook-${live.webhook}`;
  return `${stem}-${live.guid.slice(0, 8).toLowerCase()}`;
}

/** The config key the snippet reads the custom header value from. */
export function headerValueConfigKey(name: string): string {
  return `${name}-header-value`;
}

/**
 * The statement for `live`. A custom header value is never printed: the snippet reads it from a
 * secret config key and says how to set it, because leaving it out would make adoption clear
 * the value on the instance.
 */
/** The program variable a Provider's snippet refers to: its name in camelCase (`eu-prod` → `euProd`). */
export function providerVariable(provider: string): string {
  const camel = provider.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""));
  return /^[A-Za-z_$]/.test(camel) ? camel : `provider${camel}`;
}

/**
 * @param provider the explicit `Provider` of the instance it lives on, or null for the default provider.
 */
export function adoptSnippet(live: Subscription, provider: string | null = null): string {
  const name = suggestedName(live);
  const event = webhookName(live.webhook);
  const lines = [
    `new WebhookSubscription(${JSON.stringify(name)}, {`,
    `  adoptGuid: ${JSON.stringify(live.guid)},`,
    `  webhook: ${event ? `Webhook.${event}` : String(live.webhook)},`,
    `  filterObjectType: ${live.filterObjectType},`,
  ];
  if (live.filterObjectGuid !== null) lines.push(`  filterObjectGuid: ${JSON.stringify(live.filterObjectGuid)},`);
  lines.push(`  subscriberUrl: ${JSON.stringify(live.subscriberUrl)},`);
  if (live.customHeader !== "") lines.push(`  customHeader: ${JSON.stringify(live.customHeader)},`);
  if (live.customHeaderValue !== null) {
    const key = headerValueConfigKey(name);
    lines.push(
      `  // The live value is not shown here; store it first: pulumi config set --secret ${key} <value>`,
      `  customHeaderValue: new pulumi.Config().requireSecret(${JSON.stringify(key)}),`,
    );
  }
  lines.push(provider === null ? "});" : `}, { provider: ${providerVariable(provider)} });`);
  return lines.join("\n");
}
