/**
 * Provisions the engine once per test run, with the language hosts built from
 * `$WEBHOOKS_LANGUAGE_HOST_SOURCE` when it is set (see support/toolchain.ts). A failure is
 * handed to the end-to-end tests, which then fail with the reason: they never skip.
 */
import type { TestProject } from "vitest/node";
import { provisionEngine, type Engine } from "../../engine/provision";
import { testLanguageHostSource } from "../support/toolchain";

declare module "vitest" {
  export interface ProvidedContext {
    engine: Engine | { error: string };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const started = Date.now();
  try {
    const engine = await provisionEngine({
      log: (line) => console.log(`[engine] ${line}`),
      languageHostSource: testLanguageHostSource(),
    });
    console.log(
      `[engine] pulumi ${engine.version} (${engine.source}) ready in ${((Date.now() - started) / 1000).toFixed(1)}s: ${engine.binDir}`,
    );
    project.provide("engine", engine);
  } catch (err) {
    project.provide("engine", { error: err instanceof Error ? err.message : String(err) });
  }
}
