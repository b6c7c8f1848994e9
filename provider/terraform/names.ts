/**
 * The Terraform front door's names (../shared/design/product.md, "the third front door"). The
 * translation between the model's names and HCL's lives in the neutral description
 * (provider/description/hclNames.ts), since the drift review speaks it too.
 */

/** The provider's local name and type prefix: `webhooks`. */
export const PROVIDER_TYPE = "webhooks";
/** The resource. */
export const RESOURCE_TYPE = `${PROVIDER_TYPE}_subscription`;
/** The data source reading one subscription by GUID. */
export const SUBSCRIPTION_DATA_SOURCE = `${PROVIDER_TYPE}_subscription`;
/** The data source listing an instance's subscriptions. */
export const SUBSCRIPTIONS_DATA_SOURCE = `${PROVIDER_TYPE}_subscriptions`;
