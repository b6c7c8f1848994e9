/**
 * scripts/release/sign.ts's failures say what went wrong: a machine without cargo gets the
 * install's own message (what it needs, where the binary may go), not an empty "sign failed".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { signAdHoc } from "../../scripts/release/sign";

const cache = mkdtempSync(join(tmpdir(), "sign-cache-"));
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(cache, { recursive: true, force: true });
});

it("says rcodesign could not be installed, and what it needs, when cargo is missing", () => {
  vi.stubEnv("XDG_CACHE_HOME", cache);
  vi.stubEnv("PATH", join(cache, "no-such-bin"));
  expect(() => signAdHoc(join(cache, "binary"), "pulumi-resource-webhooks")).toThrow(
    /^could not install rcodesign \(cargo install apple-codesign --version [\d.]+ --locked --no-default-features\): .*ENOENT[\s\S]*It needs Rust's cargo on PATH/,
  );
});
