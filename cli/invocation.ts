/**
 * How a printed command runs this tool, so that it can be pasted as it is: `npx webhook-subscriptions …`
 * where npx finds this package's bin from the directory the command ran in (a project that
 * installed the package, or its checkout); elsewhere `webhook-subscriptions` alone, the name on
 * PATH (the release's single executable, which the CLI archives name so, or a global npm install
 * npx would not find: npx then fetches whatever the registry calls `webhook-subscriptions`). The
 * command line's entry decides (cli/index.ts `main`) and passes it down to what prints a command,
 * such as the drift report's footer (drift/render/markdown.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** `package`: npx finds the package's bin from here; `executable`: the bare name, as PATH finds it. */
export type Invocation = "package" | "executable";

/** The npm package whose bin this is (package.json `name`). */
const PACKAGE_NAME = "pulumi-webhook-subscriptions";

/** The command's name: the package's bin, and the executable of the CLI archives. */
const CLI_NAME = "webhook-subscriptions";

/** What a printed command starts with, e.g. `npx webhook-subscriptions` before `drift --stack prod`. */
export function commandPrefix(invocation: Invocation = "package"): string {
  return invocation === "executable" ? CLI_NAME : `npx ${CLI_NAME}`;
}

/**
 * Whether `npx webhook-subscriptions` run in `dir` finds this package's bin, as npm's exec looks:
 * `node_modules/.bin` of `dir` or of a folder above it, or the bin of the project `dir` is in.
 */
export function npxFindsPackage(dir: string): boolean {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "node_modules", ".bin", CLI_NAME))) return true;
    if (ownProjectName(at) === PACKAGE_NAME) return true;
    if (dirname(at) === at) return false;
  }
}

/** The `name` of the package.json in `dir`, if there is one. */
function ownProjectName(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
