/**
 * A user's machine for the tests that install as users do: `pulumi` and only the language hosts a
 * user of that language has (no `pulumi-language-nodejs` for a Python, Go or YAML user), an empty
 * PULUMI_HOME, a file backend, and the production download address (package.json's `repository`)
 * redirected to a loopback release server with the engine's PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Engine } from "../../engine/provision";
import { publicHome } from "../../scripts/packageSchema";

/** The engine's override: the production address, as a regular expression, to the loopback server. */
export function downloadOverride(serverUrl: string): string {
  const production = publicHome().pluginDownloadURL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `^${production}=${serverUrl}`;
}

/**
 * `dir` with `pulumi` and the binaries whose names start with one of `hosts`' (e.g.
 * `pulumi-language-python` and its `-exec`). Hard links (copies across devices): the CLI finds
 * language hosts beside its own resolved path, so a symbolic link would bring back all of binDir.
 */
export function userBin(engine: Engine, dir: string, hosts: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  const wanted = readdirSync(engine.binDir).filter(
    (name) => name === "pulumi" || hosts.some((host) => name.startsWith(`pulumi-language-${host}`)),
  );
  for (const name of wanted) {
    const target = join(dir, name);
    if (existsSync(target)) continue;
    try {
      linkSync(join(engine.binDir, name), target);
    } catch {
      copyFileSync(join(engine.binDir, name), target);
    }
  }
  return dir;
}

/** Whether `dir` holds a language host (`pulumi-language-*`); false when it cannot be read. */
function holdsLanguageHost(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.startsWith("pulumi-language-"));
  } catch {
    return false;
  }
}

/**
 * PATH with `bin` first, without the engine's folder and any other that holds a language host (a
 * second Pulumi install, e.g. ~/.pulumi/bin): the engine falls back to PATH for a host it lacks
 * beside itself, so one left there would answer for a host this user does not have.
 */
export function userPath(engine: Engine, bin: string): string {
  const rest = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && dir !== engine.binDir && !holdsLanguageHost(dir));
  return [bin, ...rest].join(delimiter);
}

/** The environment of a user of `hosts` whose downloads of the plugin go to `serverUrl`; PULUMI_HOME `home`. */
export function userEnv(
  engine: Engine,
  options: { root: string; home: string; hosts: readonly string[]; serverUrl: string; passphrase: string },
): NodeJS.ProcessEnv {
  const bin = userBin(engine, join(options.root, `bin-${[...options.hosts].sort().join("-")}`), options.hosts);
  mkdirSync(join(options.root, "state"), { recursive: true });
  return {
    PATH: userPath(engine, bin),
    PULUMI_HOME: options.home,
    PULUMI_BACKEND_URL: `file://${join(options.root, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: options.passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(options.serverUrl),
  };
}

/**
 * What `<home>/plugins` holds for `webhooks`, installed or left half-way (a `.partial` folder),
 * without the engine's `<plugin>.lock` file, which it leaves beside every install, done or failed.
 */
export function installedPlugins(home: string): string[] {
  const dir = join(home, "plugins");
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.includes("webhooks") && !name.endsWith(".lock")) : [];
}
