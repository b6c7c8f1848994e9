/**
 * The engine floor: a dynamic resource whose provider does nothing (create returns at once).
 * It goes through the same engine and the same dynamic-provider host as WebhookSubscription,
 * with a `__provider` module of the same kind, and keeps the same state: the same output fields
 * with the same two secrets, whose encryption on every checkpoint is the engine's cost, not ours.
 * The difference between the two is what our provider, client and the API calls cost.
 */
import * as pulumi from "@pulumi/pulumi";

const NOOP_PROVIDER = `exports.handler = () => ({
  check: async (olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({
    id: inputs.key,
    outs: { ...inputs, guid: inputs.key, signature: "s-" + inputs.key, webhookName: "BusinessObjectCreated", filterObjectGuid: null, adoptGuid: null },
  }),
  read: async (id, props) => ({ id, props }),
  delete: async () => {},
});
`;

export class NoopResource extends pulumi.CustomResource {
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>) {
    super(
      "pulumi-nodejs:dynamic/bench:Noop",
      name,
      { ...props, key: name, guid: undefined, signature: undefined, webhookName: undefined, __provider: NOOP_PROVIDER },
      { additionalSecretOutputs: ["signature", "customHeaderValue"] },
    );
  }
}
