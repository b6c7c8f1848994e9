/**
 * What every `npm run dist` step shares: where the release goes (`dist/release/`), the version
 * (package.json's) and the file names of docs' "Release artifacts" table. Build tooling only.
 */
import { mkdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { CLI_NAME } from "../../launcher/pickDoor";
import { PACKAGE_NAME } from "../../provider/native/tokens";

export const ROOT = path.resolve(__dirname, "../..");
export const RELEASE_DIR = path.join(ROOT, "dist/release");

/** The plugin's binary name, as the engine looks for it (`pulumi-resource-<name>`). */
export const PLUGIN_BINARY = `pulumi-resource-${PACKAGE_NAME}`;

/** The executable's file name inside a platform's archive (`.exe` on windows, as the engine looks for it there). */
export function executableName(os: string): string {
  return os === "windows" ? `${PLUGIN_BINARY}.exe` : PLUGIN_BINARY;
}

/** The same executable in the CLI's archives: `webhook-subscriptions` (`.exe` on windows), the npm bin's name. */
export function cliExecutableName(os: string): string {
  return os === "windows" ? `${CLI_NAME}.exe` : CLI_NAME;
}

/** The CLI's archive: `webhook-subscriptions-v<v>-<os>-<arch>.tar.gz`, a `.zip` on windows (what Windows opens itself). */
export function cliArchiveName(version: string, os: string, arch: string): string {
  return `${CLI_NAME}-v${version}-${os}-${arch}.${os === "windows" ? "zip" : "tar.gz"}`;
}

/** package.json's version: the plugin's, the schema's and every SDK's. */
export function releaseVersion(): string {
  return (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
}

/** The engine's asset name for a plugin executable: `pulumi-resource-webhooks-v<v>-<os>-<arch>.tar.gz`. */
export function executableArchiveName(version: string, os: string, arch: string): string {
  return `${PLUGIN_BINARY}-v${version}-${os}-${arch}.tar.gz`;
}

/** dist/release/, made if missing; each step replaces only its own files. */
export function releaseDir(): string {
  mkdirSync(RELEASE_DIR, { recursive: true });
  return RELEASE_DIR;
}

/** `file (12.3 MB)`, relative to the checkout, for a step's log. */
export function describe(file: string): string {
  return `${path.relative(ROOT, file)} (${(statSync(file).size / 1024 / 1024).toFixed(1)} MB)`;
}

/** Runs a step's main, printing a failure's message and exiting 1. */
export function runStep(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
