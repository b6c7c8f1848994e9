/**
 * Where a configuration declares each of its subscriptions: the line of
 * `resource "webhooks_subscription" "<name>"` in its module's .tf files, so that a finding points
 * a person (and code scanning) at the block to change.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { FindingLocation } from "../../review/model";
import { relativeFile } from "../relativeFile";
import type { PlanJson } from "./planJson";
import { TERRAFORM_SUBSCRIPTION_TYPE } from "./stateParsing";
import { configFiles, dataDir } from "./workingDirectory";

/** The module path of an address (`module.team["a"].module.inner.x.y` → `["team", "inner"]`). */
function modulePath(address: string): string[] {
  const path: string[] = [];
  const step = /^module\.([A-Za-z0-9_-]+)(?:\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?\./;
  let rest = address;
  for (let m = step.exec(rest); m; m = step.exec(rest)) {
    path.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return path;
}

/** The resource name of an address, when the entry does not say it: `…webhooks_subscription.packets["eu"]` → `packets`. */
function resourceName(address: string): string | undefined {
  return new RegExp(`${TERRAFORM_SUBSCRIPTION_TYPE}\\.([A-Za-z0-9_-]+)(?:\\[.*\\])?$`).exec(address)?.[1];
}

/** Where each `resource "webhooks_subscription" "<name>"` of a module's .tf files is, by name. */
function declarationsIn(dir: string, cwd: string): Map<string, FindingLocation> {
  const found = new Map<string, FindingLocation>();
  let files: string[];
  try {
    // A .tf.json file has no block header to point at.
    files = configFiles(dir).filter((f) => !f.endsWith(".json"));
  } catch {
    return found;
  }
  const header = new RegExp(`^\\s*resource\\s+"${TERRAFORM_SUBSCRIPTION_TYPE}"\\s+"([A-Za-z0-9_-]+)"`);
  for (const file of files)
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        const name = header.exec(line)?.[1];
        if (name && !found.has(name)) found.set(name, { file: relativeFile(join(dir, file), cwd), line: i + 1 });
      });
  return found;
}

/** What locating declarations needs besides the plan. */
export interface LocatorContext {
  /** The root module's directory. */
  readonly absDir: string;
  /** Where the review runs: locations are relative to it. */
  readonly cwd: string;
  /** For `TF_DATA_DIR`, where `init` put remote modules. */
  readonly env: NodeJS.ProcessEnv;
  /** Where a finding points when the declaration is not found (no longer declared, a remote module not installed). */
  readonly fallbackFile: string;
}

/**
 * Where each resource is declared: its module's directory (the configuration's local `source`s,
 * else `.terraform/modules/modules.json`, where `init` put remote ones), and the line of its
 * block in the .tf files there; else the fallback file. Each directory is read once.
 */
export function locator(plan: PlanJson, context: LocatorContext): (address: string, name?: string) => FindingLocation {
  let installed: Map<string, string> | undefined;
  const installedDir = (key: string): string | undefined => {
    if (!installed) {
      installed = new Map();
      try {
        const manifest = JSON.parse(
          readFileSync(join(dataDir(context.absDir, context.env), "modules", "modules.json"), "utf8"),
        ) as { Modules?: { Key?: string; Dir?: string }[] };
        for (const m of manifest.Modules ?? []) if (m.Key && m.Dir) installed.set(m.Key, m.Dir);
      } catch {
        // No module installed: the local sources say it all.
      }
    }
    const dir = installed.get(key);
    return dir === undefined ? undefined : resolve(context.absDir, dir);
  };
  const moduleDir = (path: readonly string[]): string | undefined => {
    let dir = context.absDir;
    let config = plan.configuration?.root_module;
    for (const [i, name] of path.entries()) {
      const call = config?.module_calls?.[name];
      const source = call?.source ?? "";
      const local = /^\.\.?[/\\]/.test(source) ? resolve(dir, source) : installedDir(path.slice(0, i + 1).join("."));
      if (!local) return undefined;
      dir = local;
      config = call?.module;
    }
    return dir;
  };
  const declarations = new Map<string, Map<string, FindingLocation>>();
  const declared = (dir: string): Map<string, FindingLocation> => {
    let found = declarations.get(dir);
    if (!found) declarations.set(dir, (found = declarationsIn(dir, context.cwd)));
    return found;
  };
  return (address, name = resourceName(address)) => {
    const dir = moduleDir(modulePath(address));
    const at = dir && name ? declared(dir).get(name) : undefined;
    return at ?? { file: context.fallbackFile };
  };
}
