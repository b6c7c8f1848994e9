/**
 * The engine floor: a dynamic resource whose provider does nothing (create returns at once).
 * It goes through the same engine and the same dynamic-provider host as WebhookSubscription,
 * with a `__provider` module of the same kind, so the difference between the two is ours.
 */
import * as pulumi from "@pulumi/pulumi";

const NOOP_PROVIDER = `exports.handler = () => ({
  check: async (olds, news) => ({ inputs: news }),
  diff: async () => ({ changes: false }),
  create: async (inputs) => ({ id: inputs.key, outs: inputs }),
  read: async (id, props) => ({ id, props }),
  delete: async () => {},
});
`;

export class NoopResource extends pulumi.CustomResource {
  constructor(name: string, props: Record<string, pulumi.Input<unknown>>) {
    super("pulumi-nodejs:dynamic/bench:Noop", name, { ...props, key: name, __provider: NOOP_PROVIDER });
  }
}
