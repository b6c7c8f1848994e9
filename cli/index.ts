#!/usr/bin/env node
/**
 * `webhook-subscriptions`: the package's one command. Each subcommand's module loads only when
 * that subcommand runs, so `emulator` never loads the Pulumi SDK and `--help` loads nothing.
 */
import type { Command } from "./command";
import { failureDetail } from "../engine/output";
import { UsageError } from "./command";

/** Subcommands by name: one line for the overview, and the module, loaded on demand. */
const COMMANDS: Readonly<Record<string, { summary: string; load: () => Promise<Command> }>> = {
  drift: {
    summary: "review a stack's drift against the instance (exit 0 none, 2 drift, 1 error)",
    load: async () => (await import("./drift")).driftCommand,
  },
  emulator: {
    summary: "run the local emulator of the service (--port, --state, --legacy-only, --product, --dialect)",
    load: async () => (await import("./emulator")).emulatorCommand,
  },
  engine: {
    summary: "make the Pulumi CLI available and print its directory",
    load: async () => (await import("./engine")).engineCommand,
  },
  preview: {
    summary: "run a program directory in-process: show what `up` would change",
    load: async () => (await import("./run")).runCommand("preview"),
  },
  up: {
    summary: "… create or update the stack's resources",
    load: async () => (await import("./run")).runCommand("up"),
  },
  refresh: {
    summary: "… read the resources back from the instance into the state",
    load: async () => (await import("./run")).runCommand("refresh"),
  },
  destroy: {
    summary: "… delete the stack's resources",
    load: async () => (await import("./run")).runCommand("destroy"),
  },
};

function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the package's own manifest, wherever it is installed
  return (require("pulumi-webhook-subscriptions/package.json") as { version: string }).version;
}

const USAGE = [
  "usage: webhook-subscriptions <command> [flags]",
  "",
  "Webhook subscriptions as code: the tools that come with the Pulumi package.",
  ...Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(9)} ${summary}`),
  "",
  "preview, up, refresh and destroy take --cwd <program directory> --stack <name> [--fast].",
  "`webhook-subscriptions <command> --help` describes each command's flags; --version prints the version.",
].join("\n");

/** Runs the command line; resolves with the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "-v") {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    process.stderr.write(`unknown command ${JSON.stringify(name)}\n${USAGE}\n`);
    return 1;
  }
  const command = await entry.load();
  try {
    return await command.run(rest);
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
