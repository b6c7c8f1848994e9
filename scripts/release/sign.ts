/**
 * Ad-hoc code signatures for the darwin executables, made on Linux: macOS runs only signed arm64
 * binaries and refuses an amd64 binary whose signature no longer matches its bytes, which
 * injecting the SEA blob breaks. `rcodesign` (crates.io's `apple-codesign`) signs; it is
 * installed once per machine with cargo into a cache outside the checkout (never committed).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import * as path from "node:path";
import { cacheHome } from "../../engine/cacheHome";

/** The apple-codesign release that signs. */
export const RCODESIGN_VERSION = "0.29.0";

function installDir(): string {
  return cacheHome("tools", `rcodesign-${RCODESIGN_VERSION}`);
}

/** The rcodesign binary, built with cargo first if the cache lacks it (minutes, once per machine). */
export function rcodesign(): string {
  const dir = installDir();
  const binary = path.join(dir, "bin", "rcodesign");
  if (existsSync(binary)) return binary;
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.dirname(dir), { recursive: true });
  // Without the default `notarize` feature: no AWS SDK to build; signing and verifying need none of it.
  const args = ["install", "apple-codesign", "--version", RCODESIGN_VERSION, "--locked", "--no-default-features"];
  // Unoptimised: 254 s of CPU cold instead of 437 (the build is on a new machine's release path), and
  // signing is as fast (its SHA-256 is ring's assembly): 1 s for a 110 MB executable either way.
  const env = { ...process.env, CARGO_PROFILE_RELEASE_OPT_LEVEL: "0" };
  console.log(`rcodesign: CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo ${args.join(" ")} (once per machine)`);
  try {
    execFileSync("cargo", [...args, "--root", scratch, "--quiet"], { env, stdio: ["ignore", "pipe", "pipe"] });
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? "").trim();
    throw new Error(
      `could not install rcodesign (cargo ${args.join(" ")}): ${stderr.split("\n").slice(-10).join("\n") || (err as Error).message}\n` +
        `It needs Rust's cargo on PATH (rustup.rs) and crates.io; or put the binary at ${binary}`,
      { cause: err },
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return binary;
}

const run = (args: string[]): string => {
  // Outside the try: an install that fails says so itself (what it needs), not as a failed signing.
  const binary = rcodesign();
  try {
    return execFileSync(binary, args, { encoding: "utf8", stdio: "pipe", maxBuffer: 2 ** 28 });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    const said = `${stdout ?? ""}${stderr ?? ""}`.trim() || (err as Error).message;
    throw new Error(`rcodesign ${args.join(" ")} failed: ${said}`, { cause: err });
  }
};

/** Signs the Mach-O `binary` in place, ad hoc (no certificate), replacing the signature it had. */
export function signAdHoc(binary: string, identifier: string): void {
  run(["sign", "--binary-identifier", identifier, binary]);
}

/**
 * The SHA-256 of each page of the Mach-O `binary` as rcodesign computes them from its bytes (what a
 * signature's CodeDirectory must hold), one hex string per page.
 */
export function codeHashes(binary: string): string[] {
  return run(["compute-code-hashes", binary]).trim().split("\n");
}
