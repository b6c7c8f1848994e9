/**
 * The calls that only describe the provider: its metadata, its schema and its resource identity's
 * schema, answered from the schema alone. The Terraform door (main.ts) serves them without loading
 * the provider's other calls (provider.ts: the core, zod, the client): the first launch of every
 * Terraform or OpenTofu command asks for the schema and nothing else, and loading the rest cost it
 * about 20 ms of CPU (docs/benchmarks.md).
 */
import { RESOURCE_TYPE, SUBSCRIPTION_DATA_SOURCE, SUBSCRIPTIONS_DATA_SOURCE } from "./names";
import type { TerraformSchema } from "./schema";
import { schemaMessage } from "./schemaMessage";

/** The describing calls of tfplugin6's Provider service. */
export const DESCRIBING_CALLS = ["GetMetadata", "GetProviderSchema", "GetResourceIdentitySchemas"] as const;
export type DescribingCall = (typeof DESCRIBING_CALLS)[number];

export function isDescribingCall(method: string): method is DescribingCall {
  return (DESCRIBING_CALLS as readonly string[]).includes(method);
}

/** What tofu reads before it plans: this provider needs no GetProviderSchema in every launch. */
const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: true };

/** The answers of the describing calls, each request ignored: they hold no arguments this provider reads. */
export function describingCalls(schema: TerraformSchema): Record<DescribingCall, () => Record<string, unknown>> {
  const resource = schema.resources[RESOURCE_TYPE]!;
  const identity = schema.identities[RESOURCE_TYPE]!;
  return {
    GetMetadata: () => ({
      server_capabilities: SERVER_CAPABILITIES,
      resources: [{ type_name: RESOURCE_TYPE }],
      data_sources: [{ type_name: SUBSCRIPTION_DATA_SOURCE }, { type_name: SUBSCRIPTIONS_DATA_SOURCE }],
    }),
    GetProviderSchema: () => ({
      provider: schemaMessage(schema.provider),
      resource_schemas: { [RESOURCE_TYPE]: schemaMessage(resource) },
      data_source_schemas: Object.fromEntries(
        Object.entries(schema.dataSources).map(([name, block]) => [name, schemaMessage(block)]),
      ),
      server_capabilities: SERVER_CAPABILITIES,
    }),
    GetResourceIdentitySchemas: () => ({
      identity_schemas: {
        [RESOURCE_TYPE]: {
          version: identity.version,
          identity_attributes: identity.attributes.map((a) => ({
            name: a.name,
            type: Buffer.from(JSON.stringify(a.type)),
            required_for_import: true,
            description: a.description,
          })),
        },
      },
    }),
  };
}
