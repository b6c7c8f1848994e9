/**
 * `npm run dist:terraform`: the Terraform and OpenTofu registries' artifacts, made from the plugin
 * executables `dist:executables` already built (the same bytes: one executable, three front doors):
 *
 * - `terraform-provider-webhooks_<v>_<os>_<arch>.zip` per platform of the Pulumi archives, holding
 *   the executable as `terraform-provider-webhooks_v<v>` (`.exe` on windows);
 * - `terraform-provider-webhooks_<v>_manifest.json`, the protocol versions it speaks;
 * - `terraform-provider-webhooks_<v>_SHA256SUMS` over the zips and the manifest;
 * - `…_SHA256SUMS.sig`, its binary detached signature with the key in WEBHOOKS_RELEASE_GPG_KEY
 *   (gpgSign.ts). Without a key it is left out and the log says so: release.yml verifies it.
 *
 * The zips are reproducible (zip.ts).
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { detachSign, SIGNING_KEY_VARIABLE, signingKeyFromEnv, type SigningKey } from "./gpgSign";
import { type Target, TARGETS, targetsNamed } from "./nodeRuntime";
import { describe, executableArchiveName, executableName, releaseDir, releaseVersion, runStep } from "./release";
import { reproducibleZip } from "./zip";

/** The provider's name in the registries' file names (`terraform-provider-<type>`). */
export const TERRAFORM_PROVIDER = "terraform-provider-webhooks";

/** The registry manifest: the plugin protocol versions the executable speaks. */
export const TERRAFORM_MANIFEST = { version: 1, metadata: { protocol_versions: ["6.0"] } } as const;

/** The executable inside a zip: `terraform-provider-webhooks_v<v>`, `.exe` on windows. */
export function terraformExecutableName(version: string, os: string): string {
  return `${TERRAFORM_PROVIDER}_v${version}${os === "windows" ? ".exe" : ""}`;
}

/** `terraform-provider-webhooks_<v>_<os>_<arch>.zip`. */
export function terraformZipName(version: string, os: string, arch: string): string {
  return `${TERRAFORM_PROVIDER}_${version}_${os}_${arch}.zip`;
}

/** `terraform-provider-webhooks_<v>_SHA256SUMS`; its signature is this name plus `.sig`. */
export function terraformSumsName(version: string): string {
  return `${TERRAFORM_PROVIDER}_${version}_SHA256SUMS`;
}

/** `terraform-provider-webhooks_<v>_manifest.json`. */
export function terraformManifestName(version: string): string {
  return `${TERRAFORM_PROVIDER}_${version}_manifest.json`;
}

/**
 * Writes the artifacts into `dir` (a release folder holding the plugin archives of `targets`);
 * returns their file names. Signs only when `key` is given.
 */
export function terraformArtifacts(
  dir: string,
  version: string,
  key: SigningKey | undefined,
  targets: readonly Target[] = TARGETS,
): string[] {
  const work = mkdtempSync(path.join(tmpdir(), "dist-terraform-"));
  try {
    const zips = targets.map((target) => {
      const archive = path.join(dir, executableArchiveName(version, target.os, target.arch));
      if (!existsSync(archive))
        throw new Error(`dist:terraform: ${path.basename(archive)} is missing; run npm run dist:executables first`);
      const folder = path.join(work, `${target.os}_${target.arch}`);
      mkdirSync(folder, { recursive: true });
      execFileSync("tar", ["-xzf", archive, "-C", folder, executableName(target.os)]);
      const name = terraformExecutableName(version, target.os);
      renameSync(path.join(folder, executableName(target.os)), path.join(folder, name));
      chmodSync(path.join(folder, name), 0o755);
      const file = terraformZipName(version, target.os, target.arch);
      reproducibleZip(path.join(dir, file), folder, [name], "dist:terraform");
      console.log(describe(path.join(dir, file)));
      return file;
    });

    const manifest = terraformManifestName(version);
    writeFileSync(path.join(dir, manifest), `${JSON.stringify(TERRAFORM_MANIFEST)}\n`);
    const sums = terraformSumsName(version);
    const lines = [...zips, manifest].sort().map(
      (name) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(dir, name)))
          .digest("hex")}  ${name}\n`,
    );
    writeFileSync(path.join(dir, sums), lines.join(""));

    const signature = `${sums}.sig`;
    rmSync(path.join(dir, signature), { force: true });
    if (!key) {
      console.log(`${sums} is not signed: ${SIGNING_KEY_VARIABLE} is unset (release.yml sets it from its secrets)`);
      return [...zips, manifest, sums];
    }
    const fingerprint = detachSign(path.join(dir, sums), path.join(dir, signature), key);
    console.log(`${signature}: signed with key ${fingerprint}`);
    return [...zips, manifest, sums, signature];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  // `--target linux-amd64 …`: the zips of those alone (of what `dist:executables --target` built).
  const { values } = parseArgs({ options: { target: { type: "string", multiple: true } } });
  runStep(async () => {
    terraformArtifacts(
      releaseDir(),
      releaseVersion(),
      signingKeyFromEnv(),
      targetsNamed("dist:terraform", values.target),
    );
  });
}
