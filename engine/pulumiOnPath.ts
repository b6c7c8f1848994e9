/**
 * The team's own Pulumi CLI, as a shell would find it: the first `pulumi` on PATH that answers
 * `pulumi version`. The drift review uses it and nothing else: it reads the team's state with the
 * team's CLI, and runs their program through that CLI's language hosts, as `pulumi preview` does.
 * Unlike provisionEngine (provision.ts), it never installs or builds a CLI.
 */
import { existsSync, statSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { NODEJS_HOST } from "./languageHosts";
import { versionOf, type Engine } from "./provision";

/** Where the Pulumi CLI comes from, for messages that say what to install. */
export const PULUMI_INSTALL_URL = "https://www.pulumi.com/docs/install/";

/** An executable's file name on this platform. */
function executableFile(name: string): string {
  return process.platform === "win32" ? `${name}.exe` : name;
}

/** Every file named `name` (an executable, e.g. `node`) in the directories of `path` (a PATH value), in order. */
export function filesOnPath(name: string, path: string | undefined): string[] {
  return (path ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, executableFile(name)))
    .filter((file) => existsSync(file) && statSync(file).isFile());
}

/**
 * The first working `pulumi` in the directories of `path` (a PATH value), as an engine; undefined
 * when there is none. A file that does not answer `pulumi version` is passed over, as a shell's
 * lookup would fail on it.
 */
export async function pulumiOnPath(path: string | undefined): Promise<Engine | undefined> {
  for (const cli of filesOnPath("pulumi", path)) {
    const dir = dirname(cli);
    const version = await versionOf(cli);
    if (version === undefined) continue;
    return {
      root: dirname(dir),
      binDir: dir,
      version,
      source: "path",
      hasLanguageHost: existsSync(join(dir, NODEJS_HOST)),
    };
  }
  return undefined;
}
