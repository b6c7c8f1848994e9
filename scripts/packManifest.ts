/**
 * The package.json that `npm pack` and `npm publish` put in the tarball: this repository's own,
 * without the `prepare` script.
 *
 * `prepare` builds dist/ for the installs that start from sources: `npm ci` here, and a git
 * install (npm runs only `prepare` there, never `prepack`). A tarball already holds dist/, and
 * npm lists a non-registry package's `prepare` among the install scripts to review
 * ("npm warn install-scripts … (prepare: tsx scripts/build.ts)") even though it never runs it, so a
 * user installing the tarball would be warned about a script that does nothing.
 *
 * `prepack` runs `strip` (the original bytes are kept aside in PACKING), `postpack` runs
 * `restore`. A pack interrupted between the two leaves PACKING behind; the next `strip` puts it
 * back first, and `git status` shows the stripped package.json meanwhile.
 *
 * Usage: `tsx scripts/packManifest.ts strip|restore` (in the repository root).
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const MANIFEST = "package.json";
/** Where the original package.json waits while a pack runs (ignored by git, not in `files`). */
const PACKING = ".package.json.packing";

/** Puts the original package.json back, if a pack set it aside. */
function restore(): void {
  if (existsSync(PACKING)) renameSync(PACKING, MANIFEST);
}

/** Sets the original aside and writes package.json without `scripts.prepare`. */
function strip(): void {
  restore();
  copyFileSync(MANIFEST, PACKING);
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { scripts?: Record<string, string> };
  delete manifest.scripts?.prepare;
  writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
}

const command = process.argv[2];
if (command === "strip") strip();
else if (command === "restore") restore();
else {
  console.error(`usage: tsx scripts/packManifest.ts strip|restore (got ${JSON.stringify(command)})`);
  process.exit(2);
}
