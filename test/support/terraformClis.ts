/**
 * The Terraform-compatible CLIs the third front door is tested with: OpenTofu always (provisioned
 * once per run by e2e/globalSetup.ts, engine/tofu.ts), plus the machine's `terraform` when there is
 * one on PATH. A tofu that could not be provisioned fails the test with the reason; it never skips.
 */
import { delimiter, join } from "node:path";
import { inject } from "vitest";
import { tofuVersion, type Tofu } from "../../engine/tofu";

/** One CLI to run the same scenario with. */
export interface TerraformCli {
  /** `tofu` or `terraform`: the executable's name, and the test's label. */
  readonly name: "tofu" | "terraform";
  readonly path: string;
  readonly version: string;
}

/** The provisioned tofu, or a thrown error carrying the reason it could not be provisioned. */
export function requireTofu(): Tofu {
  const tofu = inject("tofu");
  if ("error" in tofu) throw new Error(`OpenTofu could not be provisioned: ${tofu.error}`);
  return tofu;
}

/** tofu, then the `terraform` on PATH when present. */
export async function terraformClis(): Promise<TerraformCli[]> {
  const tofu = requireTofu();
  const clis: TerraformCli[] = [{ name: "tofu", path: tofu.path, version: tofu.version }];
  const terraform = await terraformOnPath();
  if (terraform) clis.push(terraform);
  return clis;
}

/** The first working `terraform` on PATH. */
async function terraformOnPath(): Promise<TerraformCli | undefined> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const path = join(dir, "terraform");
    const version = dir ? await tofuVersion(path) : undefined;
    if (version) return { name: "terraform", path, version };
  }
  return undefined;
}

/**
 * The environment to run a CLI in: no update check (it would reach the internet), no colour, and
 * the CLI configuration file `configFile` (none by default: this machine's TF_CLI_CONFIG_FILE
 * would otherwise apply, or warn when it names a missing file).
 */
export function cliEnv(configFile?: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    NO_COLOR: "1",
    ...extra,
  };
  delete env.TF_CLI_CONFIG_FILE;
  if (configFile) env.TF_CLI_CONFIG_FILE = configFile;
  return env;
}
