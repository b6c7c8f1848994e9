/**
 * `npm run dist:checksums`: `dist/release/SHA256SUMS`, one `<sha256>  <file>` line (sha256sum's
 * format, so `sha256sum -c SHA256SUMS` checks them) per file at the top of dist/release/ and per
 * file of its Maven repository (`maven/…`, by relative path). The module proxy's `goproxy/` is
 * left out: Go checks modules against its own checksum database.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, releaseDir, runStep } from "./release";

export const CHECKSUMS_FILE = "SHA256SUMS";

runStep(async () => {
  const dir = releaseDir();
  const top = readdirSync(dir).filter((name) => name !== CHECKSUMS_FILE && statSync(path.join(dir, name)).isFile());
  const maven = existsSync(path.join(dir, "maven"))
    ? readdirSync(path.join(dir, "maven"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    : [];
  const lines = [...top, ...maven].sort().map(
    (name) =>
      `${createHash("sha256")
        .update(readFileSync(path.join(dir, name)))
        .digest("hex")}  ${name}\n`,
  );
  const file = path.join(dir, CHECKSUMS_FILE);
  writeFileSync(file, lines.join(""));
  console.log(`${describe(file)}: ${lines.length} files`);
});
