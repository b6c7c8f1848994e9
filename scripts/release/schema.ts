/**
 * `npm run dist:schema`: `dist/release/schema.json`, the package schema (scripts/packageSchema.ts)
 * a registry reads, the same one the plugin serves and the SDKs are generated from.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { packageSchema } from "../packageSchema";
import { describe, releaseDir, runStep } from "./release";

runStep(async () => {
  const file = path.join(releaseDir(), "schema.json");
  writeFileSync(file, `${JSON.stringify(packageSchema(), null, 2)}\n`);
  console.log(describe(file));
});
