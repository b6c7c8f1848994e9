/**
 * The executable's three doors, each its own bundle, loaded only when picked (pickDoor.ts): the
 * Pulumi plugin (provider/native/), the Terraform and OpenTofu provider (provider/terraform/) and
 * the command line (cli/). This is the one module that knows all three: the doors never import
 * one another (test/layers.test.ts), and the build bundles each from the entry named here
 * (scripts/release/executables.ts, scripts/buildPlugin.ts).
 */
import type { main as cliMain } from "../cli/index";
import type { servePulumi } from "../provider/native/main";
import type { serveTerraform } from "../provider/terraform/main";

export const DOORS = ["pulumi", "terraform", "cli"] as const;
export type Door = (typeof DOORS)[number];

/** The plugin doors: what the `runtime: nodejs` plugin directory holds besides the launcher. */
export const PLUGIN_DOORS = ["terraform", "pulumi"] as const satisfies readonly Door[];

/** Each door's bundle entry, from the repository's root. */
export const DOOR_ENTRIES: Readonly<Record<Door, string>> = {
  pulumi: "provider/native/main.ts",
  terraform: "provider/terraform/main.ts",
  cli: "cli/index.ts",
};

/** A door's bundle: `<door>.js`, the SEA asset or the file of the plugin directory. */
export const bundleName = (door: Door): string => `${door}.js`;

/** What the build put beside the doors, read only by the door that needs it. */
export interface BuiltFiles {
  /** The Pulumi package schema (GetSchema serves it). */
  readonly schema: () => string;
  /** The resource's neutral description, JSON (the Terraform schema is derived from it). */
  readonly description: () => string;
  readonly version: () => string;
  /** The single executable (the CLI then says which commands need the npm package). */
  readonly executable: boolean;
}

/** What each door's bundle exports. */
interface DoorExports {
  pulumi: { servePulumi: typeof servePulumi };
  terraform: { serveTerraform: typeof serveTerraform };
  cli: { main: typeof cliMain };
}

/** Starts `door` from its bundle's exports with the process's `args` (after the executable). */
async function start(door: Door, exports: unknown, files: BuiltFiles, args: readonly string[]): Promise<void> {
  if (door === "pulumi") {
    // The engine's address, its last argument: the engine puts its logging and tracing flags
    // (`--logtostderr`, `-v=9`, `--tracing <url>`) before it, and run-plugin hands them on as they came.
    const engine = args.at(-1);
    const { servePulumi } = exports as DoorExports["pulumi"];
    return servePulumi({ schema: files.schema(), version: files.version(), ...(engine ? { engine } : {}) });
  }
  if (door === "terraform") {
    const { serveTerraform } = exports as DoorExports["terraform"];
    return serveTerraform({ description: files.description(), version: files.version() });
  }
  process.exit(await runCli(exports, files, args));
}

/** Runs the CLI's `main` from its bundle's exports with `args`; resolves with the exit code. */
export function runCli(exports: unknown, files: BuiltFiles, args: readonly string[]): Promise<number> {
  const { main } = exports as DoorExports["cli"];
  return main(args, { version: files.version, executable: files.executable });
}

/** Starts `door`; a failure to start is printed with its stack and exits 1. */
export function openDoor(door: Door, exports: unknown, files: BuiltFiles, args: readonly string[]): void {
  start(door, exports, files, args).catch((err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
