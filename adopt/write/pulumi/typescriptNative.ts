/**
 * The TypeScript writer for a program on the native plugin: `webhooks-adopted.ts`, one
 * `new webhooks.WebhookSubscription(…, { import: "<guid>" })` of the SDK
 * (`pulumi-webhook-subscriptions/native`) per subscription, with its live values.
 */
import type { Adopted, Writer } from "../writer";
import { literal, secretKeyOf, variable } from "./program";
import { typescriptWriter } from "./typescriptEntry";

/** The event argument as the SDK takes it: its `Webhook` member, or for an event newer than this package its integer. */
function event(a: Adopted): string[] {
  const { webhook, webhookName } = a.subscription;
  if (webhookName !== null) return [`webhook: webhooks.Webhook.${webhookName},`];
  return [
    // The SDK's type holds the names it knows; the plugin takes the integer too.
    `// Event ${webhook} is newer than the adopt that wrote this: the SDK's Webhook member for it reads better.`,
    `webhook: ${webhook} as unknown as webhooks.Webhook,`,
  ];
}

/** One subscription's declaration. */
function declaration(a: Adopted): string {
  const s = a.subscription;
  const key = secretKeyOf(a);
  const args = [
    ...event(a),
    `filterObjectType: ${s.filterObjectType},`,
    ...(s.filterObjectGuid !== null ? [`filterObjectGuid: ${literal(s.filterObjectGuid)},`] : []),
    `subscriberUrl: ${literal(s.subscriberUrl)},`,
    ...(s.customHeader !== "" ? [`customHeader: ${literal(s.customHeader)},`] : []),
    ...(key !== undefined ? [`customHeaderValue: new pulumi.Config().requireSecret(${literal(key)}),`] : []),
  ];
  return [
    `export const ${variable(a.name.camel)} = new webhooks.WebhookSubscription(`,
    `  ${literal(a.name.kebab)},`,
    `  {`,
    ...args.map((arg) => `    ${arg}`),
    `  },`,
    `  { import: ${literal(s.guid)} },`,
    `);`,
  ].join("\n");
}

/** `webhooks-adopted.ts` for a TypeScript program on the native plugin, and the entry's import of it. */
export const typescriptNativeWriter: Writer = typescriptWriter({
  takeover: "import",
  sdkImport: 'import * as webhooks from "pulumi-webhook-subscriptions/native";',
  declare: declaration,
});
