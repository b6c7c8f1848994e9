/**
 * Provisions the engine and OpenTofu once per test run, with the language hosts built from
 * `$WEBHOOKS_LANGUAGE_HOST_SOURCE` when it is set (see support/toolchain.ts). A failure is
 * handed to the end-to-end tests, which then fail with the reason: they never skip.
 */
import type { TestProject } from "vitest/node";
import { provisionEngine, type Engine } from "../../engine/provision";
import { provisionTofu, type Tofu } from "../../engine/tofu";
import { testLanguageHostSource } from "../support/toolchain";

declare module "vitest" {
  export interface ProvidedContext {
    engine: Engine | { error: string };
    tofu: Tofu | { error: string };
  }
}

export default async function setup(project: TestProject): Promise<void> {
  // Side by side: on a new machine both are cold Go builds, and each is a check on a warm one.
  await Promise.all([
    provide(project, "engine", () =>
      provisionEngine({
        log: (line) => console.log(`[engine] ${line}`),
        languageHostSource: testLanguageHostSource(),
      }).then((engine) => {
        console.log(`[engine] pulumi ${engine.version} (${engine.source}) ready: ${engine.binDir}`);
        return engine;
      }),
    ),
    provide(project, "tofu", () =>
      provisionTofu({ log: (line) => console.log(`[tofu] ${line}`) }).then((tofu) => {
        console.log(`[tofu] tofu ${tofu.version} (${tofu.source}) ready: ${tofu.binDir}`);
        return tofu;
      }),
    ),
  ]);
}

/** Provides what `make` gives, or its error for the tests to fail with. */
async function provide<K extends "engine" | "tofu">(
  project: TestProject,
  key: K,
  make: () => Promise<Exclude<import("vitest").ProvidedContext[K], { error: string }>>,
): Promise<void> {
  const started = Date.now();
  try {
    const made = await make();
    console.log(`[${key}] ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    project.provide(key, made);
  } catch (err) {
    project.provide(key, { error: err instanceof Error ? err.message : String(err) });
  }
}
