/** The engine provisioned by the global setup, for end-to-end tests. */
import { mkdtempSync, mkdirSync } from "node:fs";
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
 * A fresh working directory inside the repo (gitignored): the dynamic-provider host resolves
 * `@pulumi/pulumi` and this package from its working directory, so it cannot live in /tmp.
 */
export function workDir(name: string): string {
  const parent = join(REPO_ROOT, ".work", "e2e");
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, `${name}-`));
}
