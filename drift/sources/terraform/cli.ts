/**
 * The team's own Terraform or OpenTofu CLI, which a working directory is planned with, and the
 * commands findings tell a person to run with it. The review never builds or downloads one
 * (engine/tofu.ts does, for the tests).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join, resolve, sep } from "node:path";
import { DriftError, DriftErrorCode } from "../../errors";
import { shellWord } from "../../review/shellWord";

/** The CLI a directory is planned with. */
export interface TerraformCli {
  readonly path: string;
  readonly name: "tofu" | "terraform";
}

/** Where OpenTofu and Terraform are installed from, for the message when neither is on PATH. */
export const TERRAFORM_INSTALL_PAGES = {
  tofu: "https://opentofu.org/docs/intro/install/",
  terraform: "https://developer.hashicorp.com/terraform/install",
} as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The executable `name` in a PATH of `env`, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const names = process.platform === "win32" ? [`${name}.exe`, name] : [name];
  for (const dir of (env.PATH ?? env.Path ?? "").split(delimiter))
    for (const file of names) {
      const path = dir ? join(dir, file) : "";
      if (path && isExecutable(path)) return path;
    }
  return undefined;
}

/**
 * The team's own CLI: `--terraform-cli <path>` when given, else `tofu` on PATH, else `terraform`
 * on PATH. Throws a DriftError (`TERRAFORM_CLI_MISSING`) saying what to install, and where.
 */
export function findTerraformCli(env: NodeJS.ProcessEnv, explicit?: string): TerraformCli {
  if (explicit !== undefined) {
    const path = explicit.includes("/") || explicit.includes(sep) ? resolve(explicit) : onPath(explicit, env);
    if (!path || !isExecutable(path))
      throw new DriftError(
        DriftErrorCode.TerraformCliMissing,
        `--terraform-cli ${explicit}: no executable there. Name the tofu or terraform executable (a path, or a name on PATH), or leave the flag out to use tofu, else terraform, from PATH.`,
      );
    return { path, name: /terraform[^/\\]*$/.test(path) ? "terraform" : "tofu" };
  }
  for (const name of ["tofu", "terraform"] as const) {
    const path = onPath(name, env);
    if (path) return { path, name };
  }
  throw new DriftError(
    DriftErrorCode.TerraformCliMissing,
    "--terraform needs OpenTofu (`tofu`) or Terraform (`terraform`) on PATH, and neither is there. " +
      `Install OpenTofu (${TERRAFORM_INSTALL_PAGES.tofu}) or Terraform (${TERRAFORM_INSTALL_PAGES.terraform}), ` +
      "or name the executable with --terraform-cli <path>.",
  );
}

/** `` `<cli> -chdir=<dir> <args>` ``, quoted as code: a command a finding names, to paste from anywhere. */
export function chdirCommand(cli: TerraformCli["name"], dir: string, args: string): string {
  return `\`${cli} -chdir=${shellWord(dir)} ${args}\``;
}
