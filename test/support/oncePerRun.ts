/**
 * What a test run builds once and its files share (the release, the plugin): the first file that
 * asks builds it in the run's folder (e2e/runFolderSetup.ts); the files after it, even ones
 * running beside it, wait for it and reuse it, or fail with its error.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";

/** `build`'s result (JSON), built once per run in `<run folder>/<name>/`, which `build` is given. */
export async function oncePerRun<T>(name: string, build: (dir: string) => Promise<T>): Promise<T> {
  const root = join(inject("runFolder"), name);
  mkdirSync(root, { recursive: true });
  const [done, failed] = [join(root, "built.json"), join(root, "failed.txt")];
  try {
    mkdirSync(join(root, "lock")); // atomic: only one builder
  } catch {
    while (!existsSync(done) && !existsSync(failed)) await sleep(2_000);
  }
  if (existsSync(failed)) throw new Error(`the run's ${name} failed to build: ${readFileSync(failed, "utf8")}`);
  if (existsSync(done)) return JSON.parse(readFileSync(done, "utf8")) as T;
  try {
    const built = await build(root);
    writeFileSync(done, JSON.stringify(built));
    return built;
  } catch (err) {
    writeFileSync(failed, err instanceof Error ? err.message : String(err));
    throw err;
  }
}
