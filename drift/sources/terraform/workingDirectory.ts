/**
 * A Terraform/OpenTofu working directory as `--terraform <dir>` names it: checked before anything
 * runs against an instance, so that bad input fails at once with what to do.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { DriftError, DriftErrorCode } from "../../errors";
import type { SourceRef } from "../../review/model";
import { relativeFile } from "../relativeFile";
import { chdirCommand, type TerraformCli } from "./cli";

/** A configuration file of a module: Terraform's `.tf` and `.tf.json`, OpenTofu's `.tofu` too. */
const CONFIG_FILE = /\.(tf|tofu)(\.json)?$/;

/** A module directory's configuration files, sorted (throws when it is no directory). */
export function configFiles(absDir: string): string[] {
  return readdirSync(absDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && CONFIG_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Where `init` put the directory's providers and modules: `TF_DATA_DIR` (both CLIs), relative to it, else `.terraform`. */
export function dataDir(absDir: string, env: NodeJS.ProcessEnv): string {
  return resolve(absDir, env.TF_DATA_DIR || ".terraform");
}

/**
 * Bad input, before anything runs against the instance: `dir` must be an initialised working
 * directory, else a DriftError (`TERRAFORM_DIRECTORY`) names the flag, the value and what to do.
 * Returns the source as findings name it (its first configuration file, relative to `cwd`).
 */
export function checkTerraformDirectory(options: {
  /** The directory as given on the command line. */
  readonly dir: string;
  readonly absDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The CLI the advice names. @default "tofu" */
  readonly cli?: TerraformCli["name"];
  /** The flag that named it, as messages say. @default "--terraform" */
  readonly flag?: string;
}): SourceRef {
  const { dir, absDir } = options;
  const fail = (what: string) =>
    new DriftError(DriftErrorCode.TerraformDirectory, `${options.flag ?? "--terraform"} ${dir}: ${what}`);
  if (!existsSync(absDir))
    throw fail("no such directory. Name a Terraform/OpenTofu working directory: the one you run `tofu plan` in.");
  if (!statSync(absDir).isDirectory())
    throw fail(
      "not a directory. Name the working directory that holds the configuration's .tf files; for a state file, use --terraform-state.",
    );
  const files = configFiles(absDir);
  if (files.length === 0)
    throw fail(
      "holds no .tf file, so it is no Terraform/OpenTofu configuration. Name the directory that holds the root module's .tf files.",
    );
  if (!existsSync(dataDir(absDir, options.env)))
    throw fail(
      `not initialised (no ${options.env.TF_DATA_DIR || ".terraform/"} in it). Run ${chdirCommand(options.cli ?? "tofu", dir, "init")} first, then review again.`,
    );
  return { kind: "terraform-directory", name: dir, file: relativeFile(join(absDir, files[0]!), options.cwd) };
}
