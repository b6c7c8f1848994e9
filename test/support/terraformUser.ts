/**
 * A Terraform or OpenTofu user's files: a configuration that requires the provider by its public
 * source address, and the CLI configuration (TF_CLI_CONFIG_FILE) that says where providers come
 * from: a packed filesystem mirror, or the registry hosts pointed at a loopback registry.
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { terraformSumsName, terraformZipName } from "../../scripts/release/terraform";
import { PROVIDER_ADDRESS } from "./providerRegistry";

/** The default registry host of each CLI: where `source = "webhook-subscriptions/webhooks"` points. */
export const REGISTRY_HOSTS = ["registry.opentofu.org", "registry.terraform.io"] as const;

/** `dir/main.tf`: the provider required by its public address at exactly `version`. */
export function writeConfiguration(dir: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {
  required_providers {
    webhooks = {
      source  = "${PROVIDER_ADDRESS}"
      version = "${version}"
    }
  }
}
`,
  );
}

/**
 * A packed filesystem mirror of the release's zips for `platforms` (`<host>/<namespace>/<type>/<zip>`,
 * under both registry hosts); returns its folder.
 */
export function packedMirror(
  releaseDir: string,
  version: string,
  mirror: string,
  platforms: readonly { os: string; arch: string }[],
): string {
  for (const host of REGISTRY_HOSTS) {
    const dir = join(mirror, host, PROVIDER_ADDRESS);
    mkdirSync(dir, { recursive: true });
    for (const { os, arch } of platforms) {
      const zip = terraformZipName(version, os, arch);
      copyFileSync(join(releaseDir, zip), join(dir, zip));
    }
  }
  return mirror;
}

/** The sha256 of a platform's zip as the release's Terraform SHA256SUMS lists it. */
export function listedZipSha(releaseDir: string, version: string, os: string, arch: string): string {
  const line = readFileSync(join(releaseDir, terraformSumsName(version)), "utf8")
    .split("\n")
    .find((text) => text.endsWith(`  ${terraformZipName(version, os, arch)}`));
  if (!line) throw new Error(`${terraformSumsName(version)} lists no ${os}_${arch} zip`);
  return line.split(" ")[0]!;
}

/** Throws unless the release's zip for `os`/`arch` has the sha256 its SHA256SUMS lists, as a user checks a download. */
export function verifyZip(releaseDir: string, version: string, os: string, arch: string): void {
  const zip = terraformZipName(version, os, arch);
  const actual = createHash("sha256")
    .update(readFileSync(join(releaseDir, zip)))
    .digest("hex");
  const listed = listedZipSha(releaseDir, version, os, arch);
  if (actual !== listed) throw new Error(`${zip}: sha256 ${actual}, but ${terraformSumsName(version)} lists ${listed}`);
}

/**
 * A CLI configuration file installing every provider from the filesystem mirror `mirror` only; with
 * `pluginCache`, unpacked once into that shared `plugin_cache_dir` and linked into each project.
 */
export function mirrorCliConfig(file: string, mirror: string, pluginCache?: string): string {
  const cache = pluginCache ? `plugin_cache_dir = ${JSON.stringify(pluginCache)}\n` : "";
  writeFileSync(
    file,
    `${cache}provider_installation {\n  filesystem_mirror {\n    path = ${JSON.stringify(mirror)}\n  }\n}\n`,
  );
  return file;
}

/**
 * A CLI configuration file whose `host` blocks send both registry hosts' provider service to
 * `providersUrl`: the configuration's source address stays the public one.
 */
export function registryCliConfig(file: string, providersUrl: string): string {
  writeFileSync(
    file,
    REGISTRY_HOSTS.map(
      (host) =>
        `host ${JSON.stringify(host)} {\n  services = {\n    "providers.v1" = ${JSON.stringify(providersUrl)}\n  }\n}\n`,
    ).join(""),
  );
  return file;
}
