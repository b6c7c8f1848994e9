/**
 * Terraform and OpenTofu (support/terraformClis.ts) as a user runs them, with the provider installed
 * from the run's one release (support/sharedRelease.ts) as a Terraform user installs it: the
 * linux-amd64 zip checked against the release's SHA256SUMS, put in a packed filesystem mirror, and
 * `init` with a shared `plugin_cache_dir`, so that the executable is unpacked once per CLI and
 * linked into every project.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, type Result } from "../../support/commands";
import { PROVIDER_ADDRESS } from "../../support/providerRegistry";
import { cliEnv, type TerraformCli } from "../../support/terraformClis";
import { mirrorCliConfig, packedMirror, verifyZip } from "../../support/terraformUser";

/** Where a CLI installs the provider from: its configuration file, and the cache it unpacks into. */
export interface ReleaseInstall {
  /** The CLI configuration file (TF_CLI_CONFIG_FILE): the mirror, and the plugin cache. */
  readonly cliConfig: string;
  /** The shared plugin_cache_dir. */
  readonly pluginCache: string;
  /** The release's version, required exactly by every project. */
  readonly version: string;
}

/**
 * Installs the release in `releaseDir` for one CLI under `dir`: verifies the linux-amd64 zip against
 * SHA256SUMS, makes the packed mirror of it, and writes the CLI configuration using it with a
 * plugin cache.
 */
export function installFromRelease(dir: string, releaseDir: string, version: string): ReleaseInstall {
  verifyZip(releaseDir, version, "linux", "amd64");
  const mirror = packedMirror(releaseDir, version, join(dir, "mirror"), [{ os: "linux", arch: "amd64" }]);
  const pluginCache = join(dir, "plugin-cache");
  mkdirSync(pluginCache, { recursive: true });
  const cliConfig = mirrorCliConfig(join(dir, "cli.tfrc"), mirror, pluginCache);
  return { cliConfig, pluginCache, version };
}

/** A Terraform project: its folder, and the CLI and environment its commands run with. */
export class TerraformProject {
  constructor(
    readonly cli: TerraformCli,
    readonly dir: string,
    private readonly install: ReleaseInstall,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /**
   * `init` from the mirror, with the team's committed lock file `lockFile` when given: with it the
   * CLI links the cached executable instead of unpacking the zip again (without a lock entry,
   * Terraform ≥ 1.4 and OpenTofu never trust the cache).
   */
  async init(lockFile?: string): Promise<Result> {
    if (!existsSync(join(this.dir, "main.tf"))) this.write("");
    if (lockFile) copyFileSync(lockFile, join(this.dir, ".terraform.lock.hcl"));
    return this.run(["init", "-input=false"]);
  }

  /** Writes main.tf: the provider requirement (the release's exact version), `provider` block's body, then `body`. */
  write(body: string, provider = ""): void {
    writeFileSync(
      join(this.dir, "main.tf"),
      `terraform {\n  required_providers {\n    webhooks = {\n      source  = "${PROVIDER_ADDRESS}"\n      version = "${this.install.version}"\n    }\n  }\n}\n\nprovider "webhooks" {\n${provider}}\n\n${body}\n`,
    );
  }

  /** Runs the CLI with `args` (no colour, no prompts); rejects unless it exits with `expected`. */
  run(args: string[], expected = 0, env: NodeJS.ProcessEnv = {}): Promise<Result> {
    return run(
      this.cli.path,
      [...args, "-no-color"],
      this.dir,
      cliEnv(this.install.cliConfig, { ...this.env, ...env }),
      expected,
    );
  }

  /** The state as `show -json` gives it. */
  async state(): Promise<{
    values?: { root_module?: { resources?: { address: string; values: Record<string, unknown> }[] } };
  }> {
    return JSON.parse((await this.run(["show", "-json"])).stdout) as never;
  }
}
