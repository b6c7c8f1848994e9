#!/usr/bin/env node
/**
 * `webhook-subscriptions`: the package's one command, and the command-line door of the single
 * executable (launcher/: started with one of FIRST_WORDS, the executable runs `main` with its own
 * host). Each subcommand's module loads only when that subcommand runs, so `emulator` never loads
 * the Pulumi SDK and `--help` loads nothing.
 */
import type { Command, CommandContext } from "./command";
import { commandPrefix, npxFindsPackage } from "./invocation";
import { failureDetail } from "../engine/output";
import { packageVersion, UsageError } from "./command";

/**
 * Subcommands by name: one line for the overview, and the module, loaded on demand. `package`:
 * it needs the npm package's install (it runs Pulumi programs in-process, or provisions the
 * engine from the Go modules the package ships), so the single executable only says where to run it.
 */
const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command>; package?: true }>> = {
  drift: {
    summary: "review the drift of stacks and Terraform sources against their instances (exit 0 none, 2 drift, 1 error)",
    load: async () => (await import("./drift")).driftCommand,
  },
  adopt: {
    summary: "write every unmanaged subscription as code in the target's language (--into-stack, --into-terraform)",
    load: async () => (await import("./adopt")).adoptCommand,
  },
  emulator: {
    summary: "run the local emulator of the service (--port, --state, --legacy-only, --product, --dialect)",
    load: async () => (await import("./emulator")).emulatorCommand,
  },
  comment: {
    summary: "post the review as one pull/merge request comment, edited in place (comment github|gitlab)",
    load: async () => (await import("./comment")).commentCommand,
  },
  issue: {
    summary: "keep one drift issue: opened on drift, updated, closed when clean (issue github)",
    load: async () => (await import("./issue")).issueCommand,
  },
  engine: {
    summary: "make the Pulumi CLI available and print its directory",
    load: async () => (await import("./engine")).engineCommand,
    package: true,
  },
  preview: {
    summary: "run a program directory in-process: show what `up` would change",
    load: async () => (await import("./run")).runCommand("preview"),
    package: true,
  },
  up: {
    summary: "… create or update the stack's resources",
    load: async () => (await import("./run")).runCommand("up"),
    package: true,
  },
  refresh: {
    summary: "… read the resources back from the instance into the state",
    load: async () => (await import("./run")).runCommand("refresh"),
    package: true,
  },
  destroy: {
    summary: "… delete the stack's resources",
    load: async () => (await import("./run")).runCommand("destroy"),
    package: true,
  },
};

const HELP_WORDS = ["--help", "-h", "help"];
const VERSION_WORDS = ["--version", "-v"];
/** Every first argument the command line knows: the single executable starts its CLI on these (launcher/pickDoor.ts). */
export const FIRST_WORDS: readonly string[] = [...Object.keys(COMMANDS), ...HELP_WORDS, ...VERSION_WORDS];

/** Where the command line runs. */
export interface CliHost {
  /** The version `--version` prints. */
  readonly version: () => string;
  /** The single executable: no Node.js, no node_modules, so the `package` commands only say where they run. */
  readonly executable?: boolean;
}

/** The npm package (npx, a global install, this checkout): its own manifest says the version. */
const PACKAGE_HOST: CliHost = { version: packageVersion };

function usage(host: CliHost): string {
  const listed = Object.entries(COMMANDS).filter(([, command]) => !(host.executable && command.package));
  const packageOnly = Object.keys(COMMANDS).filter((name) => COMMANDS[name]!.package);
  return [
    "usage: webhook-subscriptions <command> [flags]",
    "",
    "Webhook subscriptions as code: the tools that come with the Pulumi package.",
    ...listed.map(([name, { summary }]) => `  ${name.padEnd(9)} ${summary}`),
    "",
    host.executable
      ? `${packageOnly.join(", ")}: from the npm package (\`${commandPrefix("package")} <command>\`), not this executable.`
      : "preview, up, refresh and destroy take --cwd <program directory> --stack <name> [--fast].",
    "`webhook-subscriptions <command> --help` describes each command's flags; --version prints the version.",
  ].join("\n");
}

/** What a `package` command says in the single executable. */
function needsPackage(name: string): string {
  return (
    `${name}: this command needs the npm package, not the single executable (it runs Pulumi programs ` +
    "in-process, or builds the engine from the Go modules the package ships). In a project that has it " +
    `(npm install pulumi-webhook-subscriptions), run: ${commandPrefix("package")} ${name} …`
  );
}

/** Runs the command line; resolves with the exit code. */
export async function main(argv: readonly string[], host: CliHost = PACKAGE_HOST): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_WORDS.includes(name)) {
    process.stdout.write(`${usage(host)}\n`);
    return name === undefined ? 1 : 0;
  }
  if (VERSION_WORDS.includes(name)) {
    process.stdout.write(`${host.version()}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`unknown command ${JSON.stringify(name)}\n${usage(host)}\n`);
    return 1;
  }
  if (host.executable && entry.package) {
    process.stderr.write(`${needsPackage(name)}\n`);
    return 1;
  }
  const command = await entry.load();
  try {
    // Decided once, here: the commands a subcommand prints run the tool as it can be run from
    // where this one was typed (npm run and npx leave that directory in INIT_CWD).
    const typedIn = process.env.INIT_CWD || process.cwd();
    const invocation = !host.executable && npxFindsPackage(typedIn) ? "package" : "executable";
    const context: CommandContext = { invocation, version: host.version() };
    return await command.run(rest, context);
  } catch (err) {
    // An engine failure is summed up in its error lines, not the whole command output.
    process.stderr.write(`${name}: ${err instanceof UsageError ? err.message : failureDetail(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
