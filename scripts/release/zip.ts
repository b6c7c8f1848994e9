/**
 * Reproducible zips, made by the machine's Info-ZIP `zip` (installed with apt-get when missing; no
 * npm dependency for a few files per archive): `-X` (no uid/gid or extra time fields) and a fixed
 * modification time, read in UTC, so two builds of the same files give the same bytes whatever
 * the clock or time zone. The Terraform registries' zips (terraform.ts) and the CLI's Windows
 * archives (cliArchive.ts) are made so.
 */
import { execFileSync } from "node:child_process";
import { rmSync, utimesSync } from "node:fs";
import * as path from "node:path";
import { ensureCommand } from "./debianPackages";

/** Every zip entry's modification time (DOS time, whole seconds from 1980): fixed, so the bytes are. */
const ZIP_MTIME = new Date("2000-01-01T00:00:00Z");

/** Writes `file`, holding `names` from `folder` (their modes kept, their times fixed); `step` names the build step in errors. */
export function reproducibleZip(file: string, folder: string, names: readonly string[], step: string): void {
  const zip = ensureCommand("zip", ["zip"], step);
  for (const name of names) utimesSync(path.join(folder, name), ZIP_MTIME, ZIP_MTIME);
  rmSync(file, { force: true }); // zip adds to an existing archive
  // TZ=UTC: zip writes DOS times in local time.
  execFileSync(zip, ["-q", "-X", file, ...names], { cwd: folder, env: { ...process.env, TZ: "UTC" } });
}
