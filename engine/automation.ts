/**
 * Opening stacks on the provisioned engine through the Automation API: with a local `file://`
 * backend (`openStack`: `npm start`, benchmarks, tests) or with the backend the Pulumi CLI would
 * choose for a project (`projectWorkspace`: the drift review and the program runner).
 *
 * A Node.js program runs one of two ways. The runners (`webhook-subscriptions preview|up|…`,
 * `npm start`) run it in this process (`directoryProgram`), because they exist for machines without
 * the Node.js language host. The drift review runs it through its language host, as `pulumi preview`
 * does: the program then loads its own `@pulumi/pulumi` in its own process. In this process it would
 * meet this package's copy whenever the two are not one install (a global CLI, or this checkout,
 * reviewing a program with its own node_modules), and the engine would refuse every resource
 * ("Request message serialization failure").
 */
import { mkdirSync, existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { LocalWorkspace, PulumiCommand, Stack, type ConfigMap, type PulumiFn } from "@pulumi/pulumi/automation";
import { load as loadYaml } from "js-yaml";
import { resolveBackend, type Backend } from "./backend";
import { closeEngineConnectionsWhenGone } from "./engineConnections";
import { registerTypeScript } from "./typescript";
import type { Engine } from "./provision";

/** Passphrase of local stacks' secrets provider, unless the caller's environment sets one. */
export const LOCAL_PASSPHRASE = "pulumi-webhook-subscriptions-local";

/**
 * The local stacks' passphrase, only when `env` names none, neither itself nor by file: a
 * default PULUMI_CONFIG_PASSPHRASE would win over the team's PULUMI_CONFIG_PASSPHRASE_FILE. For
 * the local flow and for reading; nothing that writes a team's secrets takes it.
 */
export function localPassphraseDefault(env: NodeJS.ProcessEnv): Record<string, string> {
  return env.PULUMI_CONFIG_PASSPHRASE !== undefined || env.PULUMI_CONFIG_PASSPHRASE_FILE !== undefined
    ? {}
    : { PULUMI_CONFIG_PASSPHRASE: LOCAL_PASSPHRASE };
}

export interface StackOptions {
  engine: Engine;
  /** Directory of the `file://` backend; created if missing. */
  backendDir: string;
  stackName: string;
  /**
   * The program directory (holding Pulumi.yaml and the program). Also the working directory of the
   * dynamic-provider host, so the package must be resolvable from it.
   */
  workDir: string;
  /** An inline program; by default the directory's own program (see `programEntry`) runs in-process. */
  program?: PulumiFn;
  /** Project name for an inline program in a directory without Pulumi.yaml. */
  projectName?: string;
  config?: ConfigMap;
  /** Extra environment for the engine and the provider (e.g. WEBHOOKS_* settings). */
  env?: Record<string, string>;
}

/** What every engine process gets: no update checks, our CLI first on PATH (plugins are found there). */
function baseEnv(engine: Engine, extra: Record<string, string>): Record<string, string> {
  return {
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
    // The dynamic-provider shim sits beside the CLI.
    PATH: `${engine.binDir}${delimiter}${process.env.PATH ?? ""}`,
    ...extra,
  };
}

/** The environment of a local stack: a `file://` backend in `backendDir` and the local passphrase by default. */
export function engineEnv(
  engine: Engine,
  backendDir: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  mkdirSync(backendDir, { recursive: true });
  return baseEnv(engine, {
    PULUMI_BACKEND_URL: pathToFileURL(resolve(backendDir)).href,
    ...localPassphraseDefault({ ...process.env, ...extra }),
    ...extra,
  });
}

/** Entry files tried in a program directory, in the order the Node.js language host tries them. */
const ENTRY_FILES = ["index.ts", "index.js"] as const;

/**
 * The program's entry file, as the Node.js language host finds it: Pulumi.yaml's `main` (a file,
 * or a directory), else the directory itself; in a directory, its package.json `main`, else
 * `index.ts`, else `index.js`. TypeScript and JavaScript programs alike.
 */
export function programEntry(workDir: string): string {
  const found = findProgramEntry(workDir);
  if (!found)
    throw new Error(
      `No program entry in ${programDirectory(workDir)}: expected ${ENTRY_FILES.join(" or ")}` +
        ` (or set \`main\` in Pulumi.yaml or package.json to the program's file).`,
    );
  return found;
}

/** The program's entry file as `programEntry` finds it, or undefined when the directory holds none. */
export function findProgramEntry(workDir: string): string | undefined {
  const main = programDirectory(workDir);
  if (existsSync(main) && statSync(main).isFile()) return main;
  return packageJsonMain(main) ?? ENTRY_FILES.map((name) => join(main, name)).find((file) => existsSync(file));
}

/** Pulumi.yaml's `main` (a file or a directory), resolved from `workDir`; else `workDir` itself. */
function programDirectory(workDir: string): string {
  const projectFile = join(workDir, "Pulumi.yaml");
  const project = existsSync(projectFile)
    ? (loadYaml(readFileSync(projectFile, "utf8")) as { main?: string } | null)
    : null;
  return resolve(workDir, project?.main ?? ".");
}

/** The `main` file of `dir/package.json`, when it names one that exists. */
function packageJsonMain(dir: string): string | undefined {
  const file = join(dir, "package.json");
  if (!existsSync(file)) return undefined;
  const main = (JSON.parse(readFileSync(file, "utf8")) as { main?: unknown }).main;
  if (typeof main !== "string") return undefined;
  const path = resolve(dir, main);
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
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
    const mod = await loadFresh(workDir, entry, ++runs);
    const main = (mod.default as { default?: unknown } | undefined)?.default ?? mod.default;
    if (typeof main === "function") return (await (main as () => unknown)()) as Record<string, unknown>;
    // A program whose exports are its stack outputs.
    const outputs: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(mod)) if (key !== "default" && key !== "__esModule") outputs[key] = value;
    return outputs;
  };
}

/**
 * Evaluates a program module again. Inside vitest's module runner TypeScript is imported as is
 * (a query string makes a new instance); everywhere else the program goes through `require`, with
 * the program directory's modules out of the require cache and, for TypeScript without a hook
 * loaded (tsx), ts-node registered as the language host would.
 */
async function loadFresh(workDir: string, entry: string, run: number): Promise<Record<string, unknown>> {
  const typeScript = entry.endsWith(".ts");
  // vitest marks its worker processes with this global (an env var would leak into child processes).
  if (typeScript && !require.extensions[".ts"] && "__vitest_worker__" in globalThis)
    return (await import(`${pathToFileURL(entry).href}?run=${run}`)) as Record<string, unknown>;
  if (typeScript) registerTypeScript(workDir);
  const dir = dirname(entry) + sep;
  for (const key of Object.keys(require.cache))
    if (key.startsWith(dir) && !key.includes(`${sep}node_modules${sep}`)) delete require.cache[key];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the require cache is the point
  return require(entry) as Record<string, unknown>;
}

/**
 * `program` as every in-process run here gets it: its connections to the engine are closed once
 * that engine is gone, so a later run in this process cannot inherit them (engine/engineConnections.ts).
 */
export function inProcess(program: PulumiFn): PulumiFn {
  return async () => {
    closeEngineConnectionsWhenGone();
    return program();
  };
}

/** A workspace on a program directory, with the backend the Pulumi CLI would use for it. */
export interface ProjectWorkspace {
  readonly workspace: LocalWorkspace;
  readonly backend: Backend;
}

/**
 * How a Node.js program runs (any other language always runs through its language host):
 * - `in-process`: loaded into this process (`directoryProgram`), for machines without the Node.js
 *   language host; it shares this process's `@pulumi/pulumi`, so it must resolve the same copy;
 * - `language-host`: through `pulumi-language-nodejs`, exactly as `pulumi preview` runs it, with
 *   the program's own `@pulumi/pulumi` in a process of its own.
 */
export type NodeProgramRun = "in-process" | "language-host";

/**
 * Opens the program directory `workDir` (holding Pulumi.yaml) the way `pulumi` run there would:
 * backend from `backendUrl`, else PULUMI_BACKEND_URL, else Pulumi.yaml, else the CLI's login;
 * the passphrase and every other setting from the environment. A Node.js program runs as
 * `nodeProgram` says.
 */
export async function projectWorkspace(options: {
  readonly engine: Engine;
  readonly workDir: string;
  readonly backendUrl?: string;
  /** Environment overrides over `process.env`; undefined values are ignored. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default "in-process" (the runners'; the drift review passes "language-host") */
  readonly nodeProgram?: NodeProgramRun;
}): Promise<ProjectWorkspace> {
  const extra = Object.fromEntries(
    Object.entries(options.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const workspace = await LocalWorkspace.create({
    workDir: options.workDir,
    pulumiCommand: await pulumiCommandOf(options.engine),
    envVars: baseEnv(options.engine, extra),
  });
  const project = await workspace.projectSettings();
  // Without a `program` the Automation API runs `pulumi` on the directory, and the CLI runs the
  // program through its language host; with one, the program is served from this process.
  const runtime = typeof project.runtime === "string" ? project.runtime : project.runtime?.name;
  if (runtime === "nodejs" && (options.nodeProgram ?? "in-process") === "in-process")
    workspace.program = inProcess(directoryProgram(options.workDir));
  const backend = resolveBackend({
    backendUrl: options.backendUrl,
    env: { ...process.env, ...extra },
    projectBackendUrl: project.backend?.url,
  });
  if (backend.url) workspace.envVars.PULUMI_BACKEND_URL = backend.url;
  return { workspace, backend };
}

/** Each engine's PulumiCommand, found once (see pulumiCommandOf). */
const PULUMI_COMMANDS = new WeakMap<Engine, Promise<PulumiCommand>>();

/**
 * The engine's own `pulumi`: PulumiCommand looks for it at <root>/bin/pulumi, where ours lives and
 * where most installs keep it. One found on PATH in a directory of another name runs as `pulumi`,
 * which the engine's environment (`baseEnv`) finds first on PATH.
 */
function pulumiCommandOf(engine: Engine): Promise<PulumiCommand> {
  // PulumiCommand.get runs `pulumi version`: once per engine, not once per stack a review opens.
  let command = PULUMI_COMMANDS.get(engine);
  if (!command) {
    command =
      engine.source === "path" && join(engine.root, "bin") !== engine.binDir
        ? PulumiCommand.get()
        : PulumiCommand.get({ root: engine.root });
    PULUMI_COMMANDS.set(engine, command);
    command.catch(() => PULUMI_COMMANDS.delete(engine));
  }
  return command;
}

/** Creates or selects a stack on the local backend. */
export async function openStack(options: StackOptions): Promise<Stack> {
  const pulumiCommand = await pulumiCommandOf(options.engine);
  const hasProject = existsSync(join(options.workDir, "Pulumi.yaml"));
  const workspace = await LocalWorkspace.create({
    workDir: options.workDir,
    program: inProcess(options.program ?? directoryProgram(options.workDir)),
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
