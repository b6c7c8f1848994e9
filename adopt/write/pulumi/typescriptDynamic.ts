/**
 * The TypeScript writer for a program on the dynamic provider: `webhooks-adopted.ts`, one
 * `new WebhookSubscription(…, { adoptGuid, … })` per subscription, each the drift review's own
 * adoption snippet (`pulumi import` cannot take over a dynamic provider's resource,
 * pulumi/pulumi#16175). The first `pulumi up` reads each one and, its values being the live ones,
 * keeps it as it is.
 */
import type { Subscription } from "../../../provider/wire";
import { headerValueConfigKey } from "../../../drift";
import { adoptSnippet } from "../../../drift";
import type { Adopted, Writer } from "../writer";
import { secretKeyOf, variable } from "./program";
import { typescriptWriter } from "./typescriptEntry";

/**
 * `a` as the snippet takes it. The snippet asks of the header value only whether there is one, and
 * a writer never holds it: a stand-in says there is, and is never written (the code reads the secret config).
 */
function snippetInput(a: Adopted): Subscription {
  const { guid, webhook, filterObjectType, filterObjectGuid, subscriberUrl, customHeader } = a.subscription;
  const key = secretKeyOf(a);
  if (key !== undefined && key !== headerValueConfigKey(a.name))
    // The snippet reads the key the review names; adopt stores the value under that same key.
    throw new Error(`adopt stored ${a.name.kebab}'s header value under ${key}, not ${headerValueConfigKey(a.name)}`);
  return {
    guid,
    webhook,
    filterObjectType,
    filterObjectGuid,
    subscriberUrl,
    customHeader,
    signature: "",
    customHeaderValue: key === undefined ? null : key,
  };
}

/** `webhooks-adopted.ts` for a TypeScript program on the dynamic provider, and the entry's import of it. */
export const typescriptDynamicWriter: Writer = typescriptWriter({
  takeover: "adoptGuid",
  sdkImport: 'import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";',
  declare: (a) => `export const ${variable(a.name.camel)} = ${adoptSnippet(snippetInput(a), a.name)}`,
});
