/**
 * Terraform and OpenTofu (support/terraformClis.ts) as a user runs them, with the run's one plugin build (support/pluginBuild.ts)
 * installed through a `dev_overrides` CLI configuration: a folder holding
 * `terraform-provider-webhooks`, which starts the plugin's entry as the release's executable does.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run, type Result } from "../../support/commands";
import { cliEnv, type TerraformCli } from "../../support/terraformClis";

/**
 * The CLI configuration that makes `webhook-subscriptions/webhooks` the plugin in `pluginDir`
 * (dist/plugin/webhooks), written into `dir`; returns its path.
 */
export function devOverrides(dir: string, pluginDir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const launcher = join(bin, "terraform-provider-webhooks");
  writeFileSync(launcher, `#!/bin/sh\nexec "${process.execPath}" "${join(pluginDir, "index.js")}" "$@"\n`);
  chmodSync(launcher, 0o755);
  const config = join(dir, "cli.tfrc");
  writeFileSync(
    config,
    `provider_installation {\n  dev_overrides {\n    "webhook-subscriptions/webhooks" = "${bin}"\n  }\n  direct {}\n}\n`,
  );
  return config;
}

/** A Terraform project: its folder, and the CLI and environment its commands run with. */
export class TerraformProject {
  constructor(
    readonly cli: TerraformCli,
    readonly dir: string,
    /** The CLI configuration file (`devOverrides`). */
    private readonly cliConfig: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Writes main.tf: the provider requirement, `provider` block's body, then `body`. */
  write(body: string, provider = ""): void {
    writeFileSync(
      join(this.dir, "main.tf"),
      `terraform {\n  required_providers {\n    webhooks = { source = "webhook-subscriptions/webhooks" }\n  }\n}\n\nprovider "webhooks" {\n${provider}}\n\n${body}\n`,
    );
  }

  /** Runs the CLI with `args` (no colour, no prompts); rejects unless it exits with `expected`. */
  run(args: string[], expected = 0, env: NodeJS.ProcessEnv = {}): Promise<Result> {
    return run(
      this.cli.path,
      [...args, "-no-color"],
      this.dir,
      cliEnv(this.cliConfig, { ...this.env, ...env }),
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
