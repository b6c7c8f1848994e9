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
 * @param userSdk in a user's project: the `engines.node` of the user's own `@pulumi/pulumi`, which
 *   narrows what that project can run on (SDK 3.249 and later need Node 22), whatever we support.
 */
export function packagesExcludingSupportedNode(lockfile: string, supported: string, userSdk?: string): string[] {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockedPackage> };
  if (userSdk !== undefined) supported = bothRanges(supported, userSdk);
  return (
    Object.entries(packages)
      // "" is the project itself (this repository, or the user's).
      .filter(([path, entry]) => path !== "" && !entry.dev && entry.engines?.node !== undefined)
      .filter(([, entry]) => !semver.subset(supported, entry.engines?.node ?? "*"))
      .map(([path, entry]) => `${path}@${entry.version ?? "?"} needs ${entry.engines?.node ?? "?"}`)
  );
}

/**
 * The packages of `lockfile` (development ones included: `npm ci` in a clone installs them) whose
 * `engines.node` refuses one of `nodeVersions`, as `"path@version needs <range> (not <node>)"`
 * lines: what `npm ci` on that Node would print as `EBADENGINE`.
 */
export function lockedPackagesRefusingNode(lockfile: string, nodeVersions: readonly string[]): string[] {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockedPackage> };
  return Object.entries(packages).flatMap(([path, entry]) =>
    path === "" || entry.engines?.node === undefined
      ? []
      : nodeVersions
          .filter((node) => !semver.satisfies(node, entry.engines?.node ?? "*"))
          .map((node) => `${path}@${entry.version ?? "?"} needs ${entry.engines?.node ?? "?"} (not ${node})`),
  );
}

/** The versions in both ranges, as one range: every pair of their comparator sets, joined. */
function bothRanges(a: string, b: string): string {
  const sets = (range: string) => new semver.Range(range).set.map((set) => set.map((c) => c.value).join(" "));
  return sets(a)
    .flatMap((x) => sets(b).map((y) => `${x} ${y}`.trim()))
    .join(" || ");
}
