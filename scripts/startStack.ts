/**
 * The stack `npm start` runs, made ready with as few Pulumi CLI processes as can be (each is
 * ~0.3 s of CPU): the stack is created only when the local backend has none, and its config is
 * read from its Pulumi.<stack>.yaml, the CLI asked only for a secret value `npm start` must know.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { load as loadYaml } from "js-yaml";
import type { PulumiRun } from "../engine/pulumiRun";

/** Where `npm start` runs the CLI: the program directory, the stack, the engine's environment. */
export interface StartStack {
  readonly run: PulumiRun;
  readonly workDir: string;
  readonly backendDir: string;
  readonly stackName: string;
  readonly env: Record<string, string>;
}

function project(workDir: string): string {
  return (loadYaml(readFileSync(join(workDir, "Pulumi.yaml"), "utf8")) as { name: string }).name;
}

/**
 * Creates the stack unless the `file://` backend in `backendDir` holds it already (its checkpoint,
 * `.pulumi/stacks/<project>/<stack>.json`, the backend's layout; when that is not found, the
 * CLI's `stack select --create` decides, as the Automation API's `createOrSelect` does).
 */
export async function ensureStack(s: StartStack): Promise<void> {
  if (backendStacks(s).includes(s.stackName)) return;
  await cli(s, ["stack", "select", "--create"]);
}

/** The stacks of the project the `file://` backend in `backendDir` holds (from its checkpoints). */
export function backendStacks(s: Pick<StartStack, "workDir" | "backendDir">): string[] {
  const stacks = join(s.backendDir, ".pulumi", "stacks", project(s.workDir));
  if (!existsSync(stacks)) return [];
  return readdirSync(stacks).flatMap((name) => /^(.+)\.json(?:\.gz)?$/.exec(name)?.[1] ?? []);
}

/** The stack's config file as written: plain values as strings, secrets as `{ secure }`. */
export function stackConfigFile(s: Pick<StartStack, "workDir" | "stackName">): Record<string, unknown> {
  const file = join(s.workDir, `Pulumi.${s.stackName}.yaml`);
  if (!existsSync(file)) return {};
  const parsed = loadYaml(readFileSync(file, "utf8")) as { config?: Record<string, unknown> } | null;
  return parsed?.config ?? {};
}

/** A config value, or undefined when unset; a secret one is decrypted by the CLI. */
export async function configValue(s: StartStack, key: string): Promise<string | undefined> {
  const value = stackConfigFile(s)[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object") return String(value);
  return (await cli(s, ["config", "get", key])).trimEnd();
}

/**
 * A stack secret the program requires, generated once and kept (encrypted) in the stack's config;
 * true when it was generated now.
 */
export async function ensureSecret(s: StartStack, key: string): Promise<boolean> {
  if (stackConfigFile(s)[key] !== undefined) return false;
  // On stdin, which the CLI reads when it is not a terminal: a command line is visible to every process.
  await cli(s, ["config", "set", key, "--secret"], randomBytes(16).toString("hex"));
  return true;
}

/** `pulumi <args> --stack <name> --non-interactive`, `input` on its stdin: its stdout. */
async function cli(s: StartStack, args: string[], input?: string): Promise<string> {
  const full = [...args, "--stack", s.stackName, "--non-interactive"];
  const result = await s.run(full, s.workDir, s.env, undefined, undefined, input);
  return result.stdout;
}
