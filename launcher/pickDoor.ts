/**
 * Which door a start is for, from how the process was started, before any door is loaded:
 *
 * 1. the command line (`webhook-subscriptions drift …`): its first argument is one of the CLI's
 *    words. A person who types `drift` means the CLI, whatever the environment holds;
 * 2. the Terraform and OpenTofu provider: go-plugin's magic cookie is in the environment (Terraform
 *    starts a provider with no arguments);
 * 3. the command line again when there are no arguments and the executable is named
 *    `webhook-subscriptions` (the CLI's archives name it so): it prints the usage rather than
 *    serving a plugin nobody asked for;
 * 4. the Pulumi plugin when started as the engine starts a provider: its logging flags
 *    (`--logtostderr`, `-v=9`, `--tracing <endpoint>`), then the engine's address, or nothing;
 * 5. the command line for anything else: a mistyped command (`adpot`) or one this release does
 *    not have is a usage error that names the commands, never a plugin waiting for an engine.
 */
import { startedAsTerraformProvider } from "../provider/terraform/goPlugin/handshake";
import type { Door } from "./doors";

/** The CLI's name: its npm bin, and the executable's name in the CLI's release archives. */
export const CLI_NAME = "webhook-subscriptions";

/**
 * The first arguments that start the CLI: its commands, help and version (cli/index.ts; a test
 * holds the two lists together). Those that need the npm package say so themselves.
 */
export const CLI_WORDS: ReadonlySet<string> = new Set([
  "drift",
  "adopt",
  "comment",
  "issue",
  "emulator",
  "engine",
  "preview",
  "up",
  "refresh",
  "destroy",
  "help",
  "--help",
  "-h",
  "--version",
  "-v",
]);

/** How the process was started. */
export interface Start {
  /** The arguments after the executable (or after the script, for `node index.js`). */
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** The paths the executable was started by (argv[0], the executable's own): its name picks the CLI when there are no arguments. */
  readonly names?: readonly string[];
}

/** The executable's file name without its directory and a Windows `.exe`. */
const baseName = (file: string) =>
  file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.exe$/i, "");

/** An engine's address: `host:port` (`127.0.0.1:52011`, `[::1]:52011`, `localhost:52011`). */
const ADDRESS = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;

/**
 * Whether `args` are what the Pulumi engine starts a provider with (pulumi's plugin.go
 * `buildPluginArguments`): `--logtostderr`, `-v=<n>` and `--tracing <endpoint>`, in that order,
 * then its address; nothing at all is a plugin started by hand, which serves as well.
 */
function isEngineStart(args: readonly string[]): boolean {
  let rest = [...args];
  if (rest[0] === "--logtostderr") rest = rest.slice(1);
  if (/^-v=\d+$/.test(rest[0] ?? "")) rest = rest.slice(1);
  if (rest[0] === "--tracing" && rest.length >= 2) rest = rest.slice(2);
  return rest.length === 0 || (rest.length === 1 && ADDRESS.test(rest[0]!));
}

/** The door `start` is for. */
export function pickDoor({ args, env, names = [] }: Start): Door {
  const [first] = args;
  if (first !== undefined && CLI_WORDS.has(first)) return "cli";
  if (startedAsTerraformProvider(env)) return "terraform";
  if (first === undefined && names.some((name) => baseName(name) === CLI_NAME)) return "cli";
  return isEngineStart(args) ? "pulumi" : "cli";
}
