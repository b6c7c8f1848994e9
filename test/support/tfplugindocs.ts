/**
 * tfplugindocs, HashiCorp's checker of Terraform registry docs (the layout both registries render:
 * `docs/index.md`, `docs/resources/*.md`, `docs/data-sources/*.md`), built from the Go module proxy
 * at a pinned version into a cache outside the repository, as tofu is (engine/goModuleBuild.ts), and
 * `validateRegistryDocs`, the check a docs test runs with it.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { cacheHome } from "../../engine/cacheHome";
import { buildGoModuleCommand } from "../../engine/goModuleBuild";

const execFileAsync = promisify(execFile);

/** The terraform-plugin-docs release the docs are checked with. */
export const TFPLUGINDOCS_VERSION = "v0.25.0";

/** The tfplugindocs binary, built first if the cache lacks it; throws saying what failed and what to do. */
export async function tfplugindocs(log: (line: string) => void = () => {}): Promise<string> {
  const root = cacheHome("tfplugindocs", TFPLUGINDOCS_VERSION);
  const binary = join(root, "bin", "tfplugindocs");
  if (existsSync(binary)) return binary;
  await buildGoModuleCommand(
    {
      module: "github.com/hashicorp/terraform-plugin-docs",
      version: TFPLUGINDOCS_VERSION,
      packageDir: "./cmd/tfplugindocs",
      ldflags: "-s -w",
    },
    binary,
    root,
    log,
  );
  return binary;
}

/** What `tfplugindocs validate` needs. */
export interface RegistryDocs {
  /** The folder holding `docs/` (tfplugindocs' provider directory). */
  readonly providerDir: string;
  /** `tofu providers schema -json`'s output for the provider, as a file: validate then starts no CLI. */
  readonly providersSchema: string;
  /** The provider's local name. @default "webhooks" */
  readonly providerName?: string;
}

/**
 * Runs `tfplugindocs validate` on `docs`; resolves with its output, or rejects with it (each
 * finding names the file and what is wrong).
 */
export async function validateRegistryDocs(docs: RegistryDocs): Promise<string> {
  const binary = await tfplugindocs();
  const name = docs.providerName ?? "webhooks";
  const scratch = mkdtempSync(join(tmpdir(), "tfplugindocs-"));
  try {
    return await validate(binary, docs.providerDir, name, schemaByShortName(docs.providersSchema, name, scratch));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * tfplugindocs finds a provider's schema only under its short name or
 * `registry.terraform.io/hashicorp/<name>`, and `tofu providers schema -json` keys ours by its
 * full address (`registry.opentofu.org/webhook-subscriptions/webhooks`): a copy keyed by the short
 * name, in `dir`.
 */
function schemaByShortName(file: string, name: string, dir: string): string {
  const json = JSON.parse(readFileSync(file, "utf8")) as { provider_schemas?: Record<string, unknown> };
  const schemas = json.provider_schemas ?? {};
  const key = Object.keys(schemas).find((address) => address === name || address.endsWith(`/${name}`));
  if (!key)
    throw new Error(
      `${file} holds no schema for provider "${name}" (it has: ${Object.keys(schemas).join(", ") || "none"}); ` +
        "give the output of `tofu providers schema -json` in a configuration that requires it",
    );
  const copy = join(dir, "providers-schema.json");
  writeFileSync(copy, JSON.stringify({ ...json, provider_schemas: { [name]: schemas[key] } }));
  return copy;
}

async function validate(binary: string, providerDir: string, name: string, providersSchema: string): Promise<string> {
  const args = [
    "validate",
    "--provider-name",
    name,
    "--provider-dir",
    providerDir,
    "--providers-schema",
    providersSchema,
  ];
  try {
    const { stdout, stderr } = await execFileAsync(binary, args, {
      // No download of a Terraform CLI, nor any other request: everything it needs is in the files.
      env: { ...process.env, CHECKPOINT_DISABLE: "1" },
      timeout: 120_000,
    });
    return stdout + stderr;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`tfplugindocs validate found problems in ${providerDir}/docs:\n${stdout ?? ""}${stderr ?? ""}`, {
      cause: err,
    });
  }
}
