/**
 * Opening stacks on the provisioned engine through the Automation API, with a local `file://`
 * backend and no network: shared by `npm start`, drift review, benchmarks and the tests.
 */
import { mkdirSync, existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { LocalWorkspace, PulumiCommand, Stack, type ConfigMap, type PulumiFn } from "@pulumi/pulumi/automation";
import { load as loadYaml } from "js-yaml";
import type { Engine } from "./provision";

/** Passphrase of local stacks' secrets provider, unless the caller's environment sets one. */
export const LOCAL_PASSPHRASE = "pulumi-webhook-subscriptions-local";

export interface StackOptions {
  engine: Engine;
  /** Directory of the `file://` backend; created if missing. */
  backendDir: string;
  stackName: string;
  /**
   * The program directory (holding Pulumi.yaml and index.ts). Also the working directory of the
   * dynamic-provider host, so the package must be resolvable from it.
   */
  workDir: string;
  /** An inline program; by default the directory's own program (`index.ts`) runs in-process. */
  program?: PulumiFn;
  /** Project name for an inline program in a directory without Pulumi.yaml. */
  projectName?: string;
  config?: ConfigMap;
  /** Extra environment for the engine and the provider (e.g. WEBHOOKS_* settings). */
  env?: Record<string, string>;
}

/** The environment every engine process gets: local backend, no update checks, our CLI first on PATH. */
export function engineEnv(
  engine: Engine,
  backendDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  mkdirSync(backendDir, { recursive: true });
  return {
    PULUMI_BACKEND_URL: pathToFileURL(resolve(backendDir)).href,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? LOCAL_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    // The dynamic-provider shim sits beside the CLI; plugins are found on PATH.
    PATH: `${engine.binDir}:${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/** The program's entry file: `index.ts` in the directory Pulumi.yaml's `main` names (default: its own). */
export function programEntry(workDir: string): string {
  const projectFile = join(workDir, "Pulumi.yaml");
  const project = existsSync(projectFile)
    ? (loadYaml(readFileSync(projectFile, "utf8")) as { main?: string } | null)
    : null;
  const main = resolve(workDir, project?.main ?? ".");
  return main.endsWith(".ts") ? main : join(main, "index.ts");
}

/**
 * Loads a program directory's entry as an inline program. Used because the Node.js language
 * host may be missing (see engine/provision.ts); the program, Pulumi.yaml and stack
 * config are the directory's own, and the engine is the real one. Each run (preview, up, …)
 * evaluates the program afresh, as the language host would, so its resources register every time.
 */
export function directoryProgram(workDir: string): PulumiFn {
  let runs = 0;
  return async () => {
    const entry = programEntry(workDir);
    const mod = await loadFresh(entry, ++runs);
    const main = (mod.default as { default?: unknown } | undefined)?.default ?? mod.default;
    if (typeof main === "function") return (await (main as () => unknown)()) as Record<string, unknown>;
    // A program whose exports are its stack outputs.
    const outputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(mod)) if (key !== "default" && key !== "__esModule") outputs[key] = value;
    return outputs;
  };
}

/**
 * Evaluates a TypeScript module again. Under tsx (CommonJS hooks) the program directory's entries
 * leave the require cache; elsewhere (vitest's module runner) a query string makes a new instance.
 */
async function loadFresh(entry: string, run: number): Promise<Record<string, unknown>> {
  if (require.extensions[".ts"]) {
    const dir = dirname(entry) + sep;
    for (const key of Object.keys(require.cache))
      if (key.startsWith(dir) && !key.includes(`${sep}node_modules${sep}`)) delete require.cache[key];
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the require cache is the point
    return require(entry) as Record<string, unknown>;
  }
  return (await import(`${pathToFileURL(entry).href}?run=${run}`)) as Record<string, unknown>;
}

/** Creates or selects a stack on the local backend. */
export async function openStack(options: StackOptions): Promise<Stack> {
  // A CLI found on PATH is used from PATH; ours lives at <root>/bin/pulumi, where PulumiCommand looks.
  const pulumiCommand = await (options.engine.source === "path"
    ? PulumiCommand.get()
    : PulumiCommand.get({ root: options.engine.root }));
  const hasProject = existsSync(join(options.workDir, "Pulumi.yaml"));
  const workspace = await LocalWorkspace.create({
    workDir: options.workDir,
    program: options.program ?? directoryProgram(options.workDir),
    pulumiCommand,
    envVars: engineEnv(options.engine, options.backendDir, options.env),
    ...(hasProject
      ? {}
      : {
          projectSettings: {
            name: options.projectName ?? "inline",
            runtime: "nodejs",
            backend: { url: pathToFileURL(resolve(options.backendDir)).href },
          },
        }),
  });
  const stack = await Stack.createOrSelect(options.stackName, workspace);
  if (options.config) await stack.setAllConfig(options.config);
  return stack;
}
