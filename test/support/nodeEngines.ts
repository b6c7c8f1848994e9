/**
 * Which installed packages would make npm warn `EBADENGINE` on a Node version we support:
 * read from a lockfile (this repository's package-lock.json, or the node_modules/.package-lock.json
 * npm writes into a user's project), which records every package's `engines`.
 */
import { readFileSync } from "node:fs";
import semver from "semver";

interface LockedPackage {
  readonly version?: string;
  readonly dev?: boolean;
  readonly engines?: { readonly node?: string };
}

/**
 * The packages of `lockfile` whose `engines.node` leaves out some Node version that `supported`
 * (our package.json's `engines.node`) includes, as `"path@version needs <range>"` lines;
 * development-only packages are left out, as a user never installs them.
 */
export function packagesExcludingSupportedNode(lockfile: string, supported: string): string[] {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockedPackage> };
  return (
    Object.entries(packages)
      // "" is the project itself (this repository, or the user's).
      .filter(([path, entry]) => path !== "" && !entry.dev && entry.engines?.node !== undefined)
      .filter(([, entry]) => !semver.subset(supported, entry.engines?.node ?? "*"))
      .map(([path, entry]) => `${path}@${entry.version ?? "?"} needs ${entry.engines?.node ?? "?"}`)
  );
}
