/**
 * `npm run dist:checksums`: `dist/release/SHA256SUMS`, one `<sha256>  <file>` line (sha256sum's
 * format, so `sha256sum -c SHA256SUMS` checks them) per file at the top of dist/release/.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, releaseDir, runStep } from "./release";

export const CHECKSUMS_FILE = "SHA256SUMS";

runStep(async () => {
  const dir = releaseDir();
  const lines = readdirSync(dir)
    .filter((name) => name !== CHECKSUMS_FILE && statSync(path.join(dir, name)).isFile())
    .sort()
    .map(
      (name) =>
        `${createHash("sha256")
          .update(readFileSync(path.join(dir, name)))
          .digest("hex")}  ${name}\n`,
    );
  const file = path.join(dir, CHECKSUMS_FILE);
  writeFileSync(file, lines.join(""));
  console.log(`${describe(file)}: ${lines.length} files`);
});
