/**
 * The Go anchor of the Terraform bench (bench/terraformAnchor/: a tfplugin6 provider on
 * terraform-plugin-go, pinned in its go.mod and go.sum, with our schema and no I/O), built from the
 * Go module proxy into the cache home once per version of its source — never committed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { cacheHome } from "../engine/cacheHome";
import { run } from "../engine/run";

/** The anchor's Go module. */
export const ANCHOR_SOURCE = join(__dirname, "terraformAnchor");

/** The environment variable naming the `providers schema -json` entry the anchor serves (its main.go). */
export const ANCHOR_SCHEMA_ENV = "WEBHOOKS_ANCHOR_SCHEMA";

/** A digest of the anchor's source (go.mod, go.sum, *.go): a changed source builds a new anchor. */
export function anchorSourceDigest(dir = ANCHOR_SOURCE): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(dir)
    .filter((f) => f === "go.mod" || f === "go.sum" || f.endsWith(".go"))
    .sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(dir, file)))
      .update("\0");
  return hash.digest("hex").slice(0, 16);
}

/**
 * The anchor executable, named as Terraform looks for a provider (`terraform-provider-webhooks`)
 * in a folder of its own, built first when this source has not been built on this machine.
 */
export async function ensureGoAnchor(log: (line: string) => void): Promise<string> {
  const dir = cacheHome("bench", "terraform-anchor", anchorSourceDigest());
  const out = join(dir, "terraform-provider-webhooks");
  if (existsSync(out)) return out;
  log(`building the Go anchor (terraform-plugin-go from the Go module proxy) into ${dir}…`);
  mkdirSync(dir, { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  await run(
    "go",
    ["build", "-trimpath", "-ldflags", "-s -w", "-o", tmp, "."],
    ANCHOR_SOURCE,
    // go.sum pins every module; never fetch another Go toolchain behind the user's back.
    { ...process.env, CGO_ENABLED: "0", GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly" },
    log,
  );
  renameSync(tmp, out); // an interrupted build never looks finished
  return out;
}
