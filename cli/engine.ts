/**
 * `webhook-subscriptions engine`: makes the Pulumi CLI available and prints the directory that
 * holds it. Progress goes to stderr, so `$(webhook-subscriptions engine)` captures only the directory.
 */
import { provisionEngine } from "../engine/provision";
import { parseFlags, type Command } from "./command";

const USAGE = `usage: webhook-subscriptions engine

Makes the Pulumi CLI available: a compatible \`pulumi\` on PATH, else the cache
($WEBHOOKS_ENGINE_CACHE or ~/.cache/pulumi-webhook-subscriptions/engine), else the official
installer, else a build from Go modules — with the language hosts built beside it when
$WEBHOOKS_LANGUAGE_HOST_SOURCE names their source folder. Prints the directory holding \`pulumi\`.`;

export const engineCommand: Command = {
  usage: USAGE,
  async run(argv) {
    if (parseFlags(argv, {}, USAGE) === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const started = Date.now();
    const engine = await provisionEngine({ log: (line) => process.stderr.write(`[engine] ${line}\n`) });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stderr.write(
      `[engine] pulumi ${engine.version} ready (${engine.source}, ${seconds}s)` +
        (engine.hasLanguageHost
          ? "\n"
          : "; no pulumi-language-nodejs: run program directories with `webhook-subscriptions up --cwd <dir> --stack <name>`\n"),
    );
    process.stdout.write(`${engine.binDir}\n`);
    return 0;
  },
};
