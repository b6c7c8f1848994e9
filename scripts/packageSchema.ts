/**
 * The package schema as the build writes it (dist/plugin/schema.json, what the plugin serves and
 * what `npm run gen-sdk` generates the SDKs from): provider/native/schema.ts for this checkout's
 * version, plus how each language's SDK is named and versioned; and the resource's neutral
 * description both plugin doors' schemas derive from (provider/description/). Build tooling only.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { minVersion } from "semver";
import { describeResource } from "../provider/description/describeResource";
import type { ResourceDescription } from "../provider/description/resourceDescription";
import { pluginSchema, type PackageSchema } from "../provider/native/schema";
import { RESOURCE_TOKEN } from "../provider/native/tokens";
import { type PackageManifest, registryFields, repositoryUrl, sdkReadme } from "./registryMetadata";
import { examplesSection } from "./schemaExamples";
import { readSchemaDeclarations } from "./schemaDeclarations";

const ROOT = path.resolve(__dirname, "..");

/** The names in docs/native-provider.md. */
export const PYTHON_PACKAGE = "pulumi_webhooks";
/** Overrides the schema's `pluginDownloadURL` at build time (tests: a loopback release server). */
export const PLUGIN_DOWNLOAD_URL_VARIABLE = "WEBHOOKS_PLUGIN_DOWNLOAD_URL";

/** Every address that derives from package.json's `repository` (product.md, "The public home"). */
export interface PublicHome {
  /** `webhook-subscriptions/pulumi-webhook-subscriptions`. */
  readonly slug: string;
  /** The Go SDK's module path: the repository's `sdk/go`. */
  readonly goModule: string;
  /** Where the engine downloads the plugin: the repository's GitHub releases. */
  readonly pluginDownloadURL: string;
  /** The Java SDK's Maven groupId: `io.github.<owner>`, the namespace Maven Central verifies by the GitHub owner. */
  readonly mavenGroup: string;
  /** The Java SDK's base package: the groupId as a Java name (no `-`); the package is `<base>.webhooks`. */
  readonly javaBasePackage: string;
}

/** This checkout's public home; throws when package.json's `repository` is not a GitHub repository. */
export function publicHome(pkg: PackageManifest = packageJson()): PublicHome {
  const url = repositoryUrl(pkg);
  const slug = /^https:\/\/github\.com\/([^/]+\/[^/]+)$/.exec(url)?.[1];
  if (!slug)
    throw new Error(
      `package.json: repository ${JSON.stringify(url)} is not a GitHub repository (https://github.com/<owner>/<name>)`,
    );
  const owner = slug.split("/")[0]!;
  return {
    slug,
    goModule: `github.com/${slug}/sdk/go`,
    pluginDownloadURL: `github://api.github.com/${slug}`,
    mavenGroup: `io.github.${owner}`,
    javaBasePackage: `io.github.${owner.replace(/[^A-Za-z0-9]/g, "").toLowerCase()}`,
  };
}

/** The schema with the options `pulumi package gen-sdk` (and codegen/go) read. */
export type BuiltSchema = PackageSchema & {
  pluginDownloadURL: string;
  meta: { supportPack: boolean };
  language: Record<string, Record<string, unknown>>;
};

/** This checkout's package.json. */
export function packageJson(): PackageManifest & { version: string; dependencies: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
}

/**
 * This checkout's description of the resource (description.json beside schema.json in what the
 * build embeds): the model and the declarations (readSchemaDeclarations runs the TypeScript compiler: seconds).
 */
export function resourceDescription(): ResourceDescription {
  return describeResource(readSchemaDeclarations());
}

/**
 * The schema for this checkout: the plugin's version, the SDKs' names and versions; from
 * `description` when the caller already has this checkout's.
 */
export function packageSchema(description: ResourceDescription = resourceDescription()): BuiltSchema {
  const pkg = packageJson();
  // The Python SDK needs the same Pulumi SDK floor as this package (package.json's @pulumi/pulumi).
  const pulumiFloor = minVersion(pkg.dependencies["@pulumi/pulumi"]!)!.version;
  const home = publicHome(pkg);
  const schema = pluginSchema(pkg.version, description);
  const resource = schema.resources[RESOURCE_TOKEN]!;
  return {
    ...schema,
    // The Registry's API page and the SDKs' doc comments show the tested example programs.
    resources: {
      ...schema.resources,
      [RESOURCE_TOKEN]: { ...resource, description: `${resource.description}\n\n${examplesSection()}` },
    },
    ...registryFields(pkg),
    // Every SDK tells the engine where to download the plugin from (pulumi-plugin.json's `server`).
    pluginDownloadURL: process.env[PLUGIN_DOWNLOAD_URL_VARIABLE] || home.pluginDownloadURL,
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
      go: { importBasePath: `${home.goModule}/webhooks`, respectSchemaVersion: true },
      // No Gradle files (Gradle cannot be fetched here, and its groupId would be the base package):
      // scripts/javaSdk.ts writes the Maven build beside the sources.
      java: { basePackage: home.javaBasePackage, buildFiles: "none" },
    },
  };
}
