/**
 * `webhook-subscriptions engine`: makes the Pulumi CLI available and prints the directory that
 * holds it; `--tofu` does the same for OpenTofu. Progress goes to stderr, so
 * `$(webhook-subscriptions engine)` captures only the directory.
 */
import { provisionEngine } from "../engine/provision";
import { provisionTofu, TOFU_VERSION } from "../engine/tofu";
import { parseFlags, type Command } from "./command";

const USAGE = `usage: webhook-subscriptions engine [--tofu]

Makes the Pulumi CLI available: a compatible \`pulumi\` on PATH, else the cache
($WEBHOOKS_ENGINE_CACHE or ~/.cache/pulumi-webhook-subscriptions/engine), else the official
installer, else a build from Go modules — with the language hosts built beside it when
$WEBHOOKS_LANGUAGE_HOST_SOURCE names their source folder. Prints the directory holding \`pulumi\`.

  --tofu  OpenTofu ${TOFU_VERSION} instead, for the Terraform front door: a \`tofu\` of that version
          on PATH, else the cache (~/.cache/pulumi-webhook-subscriptions/tofu), else a build from
          the Go module proxy. Prints the directory holding \`tofu\`.`;

export const engineCommand: Command = {
  usage: USAGE,
  async run(argv) {
    const flags = parseFlags(argv, { tofu: { type: "boolean" } }, USAGE);
    if (flags === "help") {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const started = Date.now();
    const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
    if (flags.tofu) {
      const tofu = await provisionTofu({ log: (line) => process.stderr.write(`[tofu] ${line}\n`) });
      process.stderr.write(`[tofu] tofu ${tofu.version} ready (${tofu.source}, ${seconds()}s)\n`);
      process.stdout.write(`${tofu.binDir}\n`);
      return 0;
    }
    const engine = await provisionEngine({ log: (line) => process.stderr.write(`[engine] ${line}\n`) });
    process.stderr.write(
      `[engine] pulumi ${engine.version} ready (${engine.source}, ${seconds()}s)` +
        (engine.hasLanguageHost
          ? "\n"
          : "; no pulumi-language-nodejs: run program directories with `webhook-subscriptions up --cwd <dir> --stack <name>`\n"),
    );
    process.stdout.write(`${engine.binDir}\n`);
    return 0;
  },
};
