/**
 * `npm run engine`: makes the Pulumi CLI available and prints the directory that holds it.
 * Progress goes to stderr so that `$(npm run -s engine)` captures only the directory.
 */
import { provisionEngine } from "./provision";

async function main(): Promise<void> {
  const started = Date.now();
  const engine = await provisionEngine({ log: (line) => console.error(`[engine] ${line}`) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.error(
    `[engine] pulumi ${engine.version} ready (${engine.source}, ${seconds}s)` +
      (engine.hasLanguageHost ? "" : "; no pulumi-language-nodejs: program directories run through the Automation API"),
  );
  console.log(engine.binDir);
}

main().catch((err: unknown) => {
  console.error(`[engine] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
