/**
 * Makes OpenTofu (`tofu`), the Terraform-compatible CLI the third front door is tested with,
 * available at one pinned version, in this order:
 *   1. a `tofu` of exactly that version on PATH;
 *   2. our cache from an earlier run, `~/.cache/pulumi-webhook-subscriptions/tofu/v<version>/bin`;
 *   3. a build from the Go module proxy with the machine's Go (see goModuleBuild.ts), into that cache;
 * and fails saying what to install when none of these works.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "./cacheHome";
import { buildGoModuleCommand, type GoModuleCommand } from "./goModuleBuild";

const execFileAsync = promisify(execFile);

/**
 * The OpenTofu version we test with: the newest the Go module proxy serves (it has v1.6.3 …
 * v1.10.10 and v1.12.6, no 1.11.x), and the first with import by identity (protocol 6.9).
 */
export const TOFU_VERSION = "1.12.6";

/** OpenTofu's release build: `version.dev=no` drops the `-dev` marker, so `tofu version` says the plain version. */
function tofuCommand(version: string): GoModuleCommand {
  return {
    module: "github.com/opentofu/opentofu",
    version: `v${version}`,
    packageDir: "./cmd/tofu",
    ldflags: "-s -w -X github.com/opentofu/opentofu/version.dev=no",
  };
}

export type TofuSource = "path" | "cache" | "go-build";

/** A usable `tofu`. */
export interface Tofu {
  /** The executable. */
  path: string;
  /** The directory holding it (for PATH). */
  binDir: string;
  version: string;
  source: TofuSource;
}

export interface ProvisionTofuOptions {
  /** Progress lines for people waiting on a cold build. */
  log?: (line: string) => void;
  /** @default TOFU_VERSION */
  version?: string;
  /** @default `~/.cache/pulumi-webhook-subscriptions/tofu` */
  cacheDir?: string;
}

/** Where `tofu` of a version is cached (outside the repository). */
export function tofuRoot(cacheDir = cacheHome("tofu"), version = TOFU_VERSION): string {
  return join(cacheDir, `v${version}`);
}

/** Finds or builds `tofu`; see the module comment for the order. */
export async function provisionTofu(options: ProvisionTofuOptions = {}): Promise<Tofu> {
  const log = options.log ?? (() => {});
  const version = options.version ?? TOFU_VERSION;

  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "tofu");
    if (dir && (await tofuVersion(candidate)) === version) {
      log(`using tofu ${version} from PATH (${dir})`);
      return { path: candidate, binDir: dir, version, source: "path" };
    }
  }

  const root = tofuRoot(options.cacheDir, version);
  const binDir = join(root, "bin");
  const path = join(binDir, "tofu");
  if ((await tofuVersion(path)) === version) {
    log(`using cached tofu ${version} (${binDir})`);
    return { path, binDir, version, source: "cache" };
  }

  log(`no tofu ${version} on PATH or in the cache; building it from the Go module proxy`);
  await buildGoModuleCommand(tofuCommand(version), path, root, log);
  const built = await tofuVersion(path);
  if (built !== version)
    throw new Error(`built ${path}, but \`tofu version -json\` says ${built ?? "nothing"}, not ${version}`);
  return { path, binDir, version, source: "go-build" };
}

/**
 * `<cli> version -json`'s version (tofu or terraform), or undefined when there is no working CLI
 * there. Both print warnings about the CLI configuration (a TF_CLI_CONFIG_FILE naming a missing
 * file, say) on stdout before the JSON, so the JSON is read from its first line.
 */
export async function tofuVersion(cli: string): Promise<string | undefined> {
  if (!existsSync(cli)) return undefined;
  try {
    // No check for a newer release: it would reach the internet.
    const { stdout } = await execFileAsync(cli, ["version", "-json"], {
      env: { ...process.env, CHECKPOINT_DISABLE: "1" },
      timeout: 30_000,
    });
    const json = stdout.slice(Math.max(0, stdout.search(/^\{/m)));
    return (JSON.parse(json) as { terraform_version?: string }).terraform_version;
  } catch {
    return undefined;
  }
}
