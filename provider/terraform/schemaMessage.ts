/**
 * A block of schema.ts as tfplugin6's `Schema` message: cty types as their JSON bytes,
 * descriptions as plain text.
 */
import type { Block } from "./schema";

/** The `Schema` message of a block. */
export function schemaMessage(block: Block): Record<string, unknown> {
  return {
    version: block.version,
    block: {
      version: block.version,
      description: block.description,
      attributes: block.attributes.map((a) => ({
        name: a.name,
        type: Buffer.from(JSON.stringify(a.type)),
        description: a.description,
        required: a.required ?? false,
        optional: a.optional ?? false,
        computed: a.computed ?? false,
        sensitive: a.sensitive ?? false,
        write_only: a.writeOnly ?? false,
      })),
    },
  };
}
