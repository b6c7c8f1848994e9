/**
 * The package schema as the build writes it (dist/plugin/schema.json, what the plugin serves and
 * what `npm run gen-sdk` generates the SDKs from): provider/native/schema.ts for this checkout's
 * version, plus how each language's SDK is named and versioned. Build tooling only.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { minVersion } from "semver";
import { pluginSchema, type PackageSchema } from "../provider/native/schema";
import { type PackageManifest, registryFields, sdkReadme } from "./registryMetadata";
import { readSchemaDeclarations } from "./schemaDeclarations";

const ROOT = path.resolve(__dirname, "..");

/** The names in docs/native-provider.md; the Go module is `sdk/go`, so the import path adds the package. */
export const PYTHON_PACKAGE = "pulumi_webhooks";
export const GO_IMPORT_PATH = "pulumi-webhook-subscriptions/sdk/go/webhooks";

/** The schema with the options `pulumi package gen-sdk` (and codegen/go) read. */
export type BuiltSchema = PackageSchema & {
  meta: { supportPack: boolean };
  language: Record<string, Record<string, unknown>>;
};

/** This checkout's package.json. */
export function packageJson(): PackageManifest & { version: string; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
}

/** The schema for this checkout: the plugin's version, the SDKs' names and versions. */
export function packageSchema(): BuiltSchema {
  const pkg = packageJson();
  // The Python SDK needs the same Pulumi SDK floor as this package (package.json's @pulumi/pulumi).
  const pulumiFloor = minVersion(pkg.dependencies["@pulumi/pulumi"]!)!.version;
  return {
    ...pluginSchema(pkg.version, readSchemaDeclarations()),
    ...registryFields(pkg),
    // SDKs that pack as their ecosystem expects: Go's gets its go.mod (codegen/go).
    meta: { supportPack: true },
    // respectSchemaVersion: every SDK says the schema's version (the package's), and so asks the
    // engine for that plugin version; without it Python says 0.0.0 and Node.js `${VERSION}`.
    language: {
      nodejs: { packageName: pkg.name, respectSchemaVersion: true },
      python: {
        packageName: PYTHON_PACKAGE,
        respectSchemaVersion: true,
        pyproject: { enabled: true },
        readme: sdkReadme(pkg),
        requires: { pulumi: `>=${pulumiFloor},<4.0.0` },
      },
      go: { importBasePath: GO_IMPORT_PATH, respectSchemaVersion: true },
    },
  };
}
