/**
 * Which installed packages could phone home: read from a lockfile (this repository's
 * package-lock.json, or the node_modules/.package-lock.json npm writes into a user's project).
 * Nothing a user installs with this package may report anything: their infrastructure projects
 * are often offline and audited.
 */
import { readFileSync } from "node:fs";

/** Packages whose purpose is to report installs or usage (Scarf is "like Google Analytics for your npm packages"). */
export const PHONE_HOME_PACKAGES: readonly string[] = [
  "@scarf/scarf",
  "@nuxt/telemetry",
  "insight",
  "universal-analytics",
  "analytics-node",
  "@segment/analytics-node",
  "posthog-node",
  "mixpanel",
];

/**
 * Install scripts known to do only local work: protobufjs's postinstall compares the version
 * scheme of the packages that depend on it, reading package.json files.
 */
export const LOCAL_INSTALL_SCRIPTS: readonly string[] = ["protobufjs"];

interface LockedPackage {
  readonly version?: string;
  readonly dev?: boolean;
  readonly hasInstallScript?: boolean;
}

/**
 * The packages of `lockfile` a user gets (development-only ones left out) that are known to phone
 * home or run an install script not known to be local (how such packages report), as
 * `"path@version (why)"` lines.
 */
export function phoneHomeSuspects(lockfile: string): string[] {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockedPackage> };
  return Object.entries(packages).flatMap(([path, entry]) => {
    if (path === "" || entry.dev) return [];
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const why = PHONE_HOME_PACKAGES.includes(name)
      ? "reports installs or usage"
      : entry.hasInstallScript && !LOCAL_INSTALL_SCRIPTS.includes(name)
        ? "runs an install script"
        : undefined;
    return why === undefined ? [] : [`${path}@${entry.version ?? "?"} (${why})`];
  });
}

/**
 * The packages of `lockfile` (development ones included: a contributor's `npm ci` runs their
 * scripts) whose install script `allowScripts` does not name, or names but lets a phone-home
 * package run, as `"name (why)"` lines.
 */
export function unreviewedInstallScripts(lockfile: string, allowScripts: Record<string, boolean>): string[] {
  const { packages } = JSON.parse(readFileSync(lockfile, "utf8")) as { packages: Record<string, LockedPackage> };
  const names = Object.entries(packages)
    .filter(([path, entry]) => path !== "" && entry.hasInstallScript)
    .map(([path]) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  return [...new Set(names)].flatMap((name) =>
    !(name in allowScripts)
      ? [`${name} (an install script allowScripts does not review)`]
      : PHONE_HOME_PACKAGES.includes(name) && allowScripts[name]
        ? [`${name} (reports installs: allowScripts must deny it)`]
        : [],
  );
}
