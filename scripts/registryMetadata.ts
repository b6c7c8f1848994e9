/**
 * What the Pulumi Registry and the language registries (PyPI) show about the package, in the
 * schema (scripts/packageSchema.ts): publisher, repository, homepage and keywords, derived from
 * package.json's `repository` and `homepage` (../shared/design/product.md, "The public home"),
 * written nowhere else. Build tooling only.
 */

/** The Registry's publisher and keywords (`category/…` and `kind/…` place it in the Registry's lists). */
export const PUBLISHER = "webhook-subscriptions";
export const KEYWORDS = ["pulumi", "webhooks", "category/utility", "kind/native"] as const;

/** The parts of package.json the metadata comes from. */
export interface PackageManifest {
  readonly name: string;
  readonly description?: string;
  readonly license?: string;
  readonly homepage?: string;
  readonly repository?: string | { readonly url: string };
}

/** package.json's `repository` as a browsable https address (npm's `git+…`, `.git` dropped). */
export function repositoryUrl(pkg: PackageManifest): string {
  const url = typeof pkg.repository === "string" ? pkg.repository : pkg.repository?.url;
  if (!url) throw new Error("package.json has no `repository`: the schema's repository and homepage derive from it.");
  return url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/** The schema's top-level Registry fields. */
export function registryFields(pkg: PackageManifest): {
  publisher: string;
  repository: string;
  homepage: string;
  keywords: string[];
} {
  const repository = repositoryUrl(pkg);
  return { publisher: PUBLISHER, repository, homepage: pkg.homepage ?? repository, keywords: [...KEYWORDS] };
}

/** The README the Python distribution carries (its page on PyPI): what it is and where the docs are. */
export function sdkReadme(pkg: PackageManifest): string {
  const home = pkg.homepage ?? repositoryUrl(pkg);
  return [
    "# Webhook Subscriptions",
    "",
    "The Pulumi provider `webhooks`: webhook subscriptions of the Webhook Subscription Management API as code,",
    "for every Pulumi language.",
    "",
    `Installation, configuration and examples: ${home}`,
    "",
  ].join("\n");
}
