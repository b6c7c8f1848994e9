/**
 * `npm run emulator`: starts the emulator, prints exactly one line
 * `webhook emulator listening on <url>`, and serves until SIGINT or SIGTERM.
 * A bad flag or an unusable state file is reported on stderr with exit code 1.
 */
import { CliUsageError, FLAG_OF_OPTION, parseCliArgs, USAGE } from "./cliArgs";
import { EmulatorOptionError, startEmulator } from "./index";
import { StateFileError } from "./stateFile";

/** Turns a start failure the user can fix into one readable line; anything else keeps its stack. */
function describeStartError(error: unknown): string {
  if (error instanceof EmulatorOptionError) {
    const flag = FLAG_OF_OPTION[error.option] ?? error.option;
    return `${flag}: ${error.message}`;
  }
  if (error instanceof CliUsageError || error instanceof StateFileError) return error.message;
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") return `--port: ${(error as Error).message}`;
  return (error as Error).stack ?? String(error);
}

async function main(): Promise<void> {
  const options = parseCliArgs(process.argv.slice(2));
  if (options === "help") {
    console.log(USAGE);
    return;
  }
  const emulator = await startEmulator(options);
  console.log(`webhook emulator listening on ${emulator.url}`);
  const stop = () => {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
    // A second signal while closing means "now".
    process.once("SIGINT", () => process.exit(130));
    process.once("SIGTERM", () => process.exit(143));
    emulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`emulator: error while stopping: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  console.error(`emulator: ${describeStartError(error)}`);
  process.exit(1);
});
