/**
 * What the build put beside the doors (doors.ts `BuiltFiles`), as the single executable carries
 * it: SEA assets (scripts/release/executables.ts). Only the executable's entry (sea.ts) loads
 * this: `node:sea` is not in every Node.js a plugin directory may run on.
 */
import { getAsset } from "node:sea";
import type { BuiltFiles } from "./doors";

/** The executable's assets `schema.json`, `description.json` and `version`. */
export function seaFiles(): BuiltFiles {
  return {
    schema: () => getAsset("schema.json", "utf8"),
    description: () => getAsset("description.json", "utf8"),
    version: () => getAsset("version", "utf8"),
    executable: true,
  };
}

/** The executable's asset `name` as bytes, or undefined when the release made none. */
export function optionalAsset(name: string): Buffer | undefined {
  try {
    return Buffer.from(getAsset(name));
  } catch {
    return undefined;
  }
}
