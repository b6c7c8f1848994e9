/**
 * What the build put beside the doors (doors.ts `BuiltFiles`), as a plugin directory holds it:
 * schema.json, description.json and package.json's version (scripts/buildPlugin.ts; the
 * release's training launches read such a directory too: scripts/release/codeCache/train.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BuiltFiles } from "./doors";

/** The files of the plugin directory `dir`. */
export function directoryFiles(dir: string): BuiltFiles {
  const read = (name: string) => readFileSync(join(dir, name), "utf8");
  return {
    schema: () => read("schema.json"),
    description: () => read("description.json"),
    version: () => (JSON.parse(read("package.json")) as { version: string }).version,
    executable: false,
  };
}
