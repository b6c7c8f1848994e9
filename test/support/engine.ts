/** The engine provisioned by the global setup, for end-to-end tests. */
import { existsSync, mkdtempSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { inject } from "vitest";
import type { Engine } from "../../engine/provision";

export const REPO_ROOT = resolve(__dirname, "..", "..");

/** The engine, or a thrown error carrying the reason it could not be provisioned. */
export function requireEngine(): Engine {
  const engine = inject("engine");
  if ("error" in engine) throw new Error(`The Pulumi engine could not be provisioned: ${engine.error}`);
  return engine;
}

/**
 * The engine, which must have these language hosts (e.g. `pulumi-language-yaml` for YAML
 * programs, `pulumi-language-nodejs` for the native plugin); else a thrown error saying where to get them.
 */
export function requireLanguageHosts(hosts: readonly string[]): Engine {
  const engine = requireEngine();
  for (const host of hosts)
    if (!existsSync(join(engine.binDir, host)))
      throw new Error(
        `pulumi ${engine.version} in ${engine.binDir} has no ${host}: set WEBHOOKS_LANGUAGE_HOST_SOURCE to a folder ` +
          "laid out like ../shared/engine-src (docs/engine.md), or put an official Pulumi install on PATH",
      );
  return engine;
}

/**
 * A fresh working directory inside the repo (gitignored): the dynamic-provider host resolves
 * `@pulumi/pulumi` and this package from its working directory, so it cannot live in /tmp.
 */
export function workDir(name: string): string {
  const parent = join(REPO_ROOT, ".work", "e2e");
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, `${name}-`));
}
