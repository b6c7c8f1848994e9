/**
 * The native plugin's names (../shared/design/product.md), defined once: the schema, the server,
 * the build and whatever reads stacks (provider/model.ts) use these.
 */

/** The plugin's name: `pulumi-resource-webhooks`, config `webhooks:*`. */
export const PACKAGE_NAME = "webhooks";
/** The resource's type token, as state and engine events record it. */
export const RESOURCE_TOKEN = `${PACKAGE_NAME}:index:WebhookSubscription`;
/** The type of the plugin's provider resources, default and explicit. */
export const PROVIDER_TOKEN = `pulumi:providers:${PACKAGE_NAME}`;
export const GET_FUNCTION_TOKEN = `${PACKAGE_NAME}:index:getWebhookSubscription`;
export const LIST_FUNCTION_TOKEN = `${PACKAGE_NAME}:index:listWebhookSubscriptions`;
/** The get function's argument that asks for the secrets too (without it the result has none, so it is not secret). */
export const INCLUDE_SECRETS = "includeSecrets";
