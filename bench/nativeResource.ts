/**
 * A WebhookSubscription through the native plugin (`webhooks`, dist/plugin/webhooks), declared
 * from the same TypeScript program as the dynamic one, so the comparison is between front doors,
 * not language hosts. This is what a generated SDK class does (`pulumi package gen-sdk`; the
 * TypeScript SDK is being written separately — use it here once it exists): register the
 * schema's type token with the inputs, the outputs as undefined, and the schema's secret outputs.
 */
import * as pulumi from "@pulumi/pulumi";

/** The schema's resource token (provider/native/schema.ts). */
const TYPE = "webhooks:index:WebhookSubscription";

export class NativeSubscription extends pulumi.CustomResource {
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>) {
    super(
      TYPE,
      name,
      { ...props, guid: undefined, signature: undefined, webhookName: undefined, baseUrl: undefined },
      { additionalSecretOutputs: ["signature", "customHeaderValue"] },
    );
  }
}
