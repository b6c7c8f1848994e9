/**
 * The `__provider` value every WebhookSubscription carries in state.
 *
 * Pulumi's dynamic-provider host loads this text as a module and calls `handler()` to get the
 * provider. Rather than a serialized closure (which would capture whatever the provider
 * references — clients, tokens, whole modules: pulumi/pulumi#8265 — and pin module paths:
 * #9085), it is one fixed line that `require()`s the runtime by package name when the host calls
 * it. State stays tiny, no secret can ride along, and upgrading the package takes effect on
 * existing stacks. The host resolves the name from the program directory, where the package is
 * installed.
 */
export const PROVIDER_MODULE = 'exports.handler = () => require("pulumi-webhook-subscriptions/runtime");\n';
