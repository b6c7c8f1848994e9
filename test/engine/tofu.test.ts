/**
 * OpenTofu provisioning's order (engine/tofu.ts) and the CLI that reports it, with stand-in `tofu`
 * scripts that answer `tofu version -json`, so nothing is built; the real build is what every
 * end-to-end run's global setup does (test/e2e/tofu.test.ts checks its result).
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { engineCommand } from "../../cli/engine";
import { provisionTofu, TOFU_VERSION, tofuRoot } from "../../engine/tofu";

const scratch = mkdtempSync(join(tmpdir(), "tofu-provision-"));
const outsidePath = process.env.PATH;

afterEach(() => {
  process.env.PATH = outsidePath;
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A directory holding a `tofu` that says it is `version`, after the warning a real one prints on
 * stdout when TF_CLI_CONFIG_FILE names a missing file.
 */
function standIn(name: string, version: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const cli = join(dir, "tofu");
  const warning =
    "\\nWarning: Unable to open CLI configuration file\\n\\nThe CLI configuration file at /x does not exist.\\n";
  writeFileSync(
    cli,
    `#!/bin/sh\nprintf '${warning}'\necho '{\n  "terraform_version": "${version}",\n  "platform": "linux_amd64"\n}'\n`,
  );
  chmodSync(cli, 0o755);
  return dir;
}

it("takes a tofu of exactly the pinned version from PATH, passing over others", async () => {
  const older = standIn("older", "1.10.10");
  const pinned = standIn("pinned", TOFU_VERSION);
  process.env.PATH = [older, pinned, outsidePath].join(delimiter);
  const cache = join(scratch, "untouched-cache");
  const tofu = await provisionTofu({ cacheDir: cache });
  expect(tofu).toEqual({ path: join(pinned, "tofu"), binDir: pinned, version: TOFU_VERSION, source: "path" });
  expect(existsSync(cache)).toBe(false);
});

it("takes the cache's tofu, at <cache>/v<version>/bin, when PATH has none of that version", async () => {
  const cache = join(scratch, "cache");
  const binDir = join(tofuRoot(cache), "bin");
  mkdirSync(join(binDir, ".."), { recursive: true });
  const made = standIn(join("cache", `v${TOFU_VERSION}`, "bin"), TOFU_VERSION);
  expect(made).toBe(binDir);
  process.env.PATH = [standIn("older2", "1.10.10"), outsidePath].join(delimiter);
  const lines: string[] = [];
  const tofu = await provisionTofu({ cacheDir: cache, log: (line) => lines.push(line) });
  expect(tofu).toEqual({ path: join(binDir, "tofu"), binDir, version: TOFU_VERSION, source: "cache" });
  expect(lines).toEqual([`using cached tofu ${TOFU_VERSION} (${binDir})`]);
});

it("names the module version and what to install when the Go module proxy cannot be had", async () => {
  // No proxy at all (as on a machine without one), and a version no module cache holds (none exists).
  vi.stubEnv("GOPROXY", "off");
  const failure = provisionTofu({ cacheDir: join(scratch, "missing"), version: "1.99.0" });
  await expect(failure).rejects.toThrow(/Cannot build github\.com\/opentofu\/opentofu@v1\.99\.0 \(\.\/cmd\/tofu\)/);
  await expect(failure).rejects.toThrow(/GOPROXY=off/);
  await expect(failure).rejects.toThrow(/Go module proxy \(GOPROXY\)/);
  expect(existsSync(join(scratch, "missing", "v1.99.0", "bin", "tofu"))).toBe(false);
}, 120_000);

it("`webhook-subscriptions engine --tofu` prints the directory holding tofu, and its progress on stderr", async () => {
  const pinned = standIn("for-cli", TOFU_VERSION);
  process.env.PATH = [pinned, outsidePath].join(delimiter);
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  expect(await engineCommand.run(["--tofu"])).toBe(0);
  expect(stdout.mock.calls.map(([text]) => String(text))).toEqual([`${pinned}\n`]);
  const progress = stderr.mock.calls.map(([text]) => String(text)).join("");
  expect(progress).toContain(`[tofu] using tofu ${TOFU_VERSION} from PATH (${pinned})`);
  expect(progress).toMatch(
    new RegExp(`\\[tofu\\] tofu ${TOFU_VERSION.replace(/\./g, "\\.")} ready \\(path, [\\d.]+s\\)`),
  );
});

it("finds a cached tofu even when TF_CLI_CONFIG_FILE names a missing file (tofu then warns on stdout)", async () => {
  const cache = join(scratch, "warning-cache");
  const binDir = join(tofuRoot(cache), "bin");
  mkdirSync(binDir, { recursive: true });
  // As tofu does: the warning about the missing file comes on stdout, before the JSON.
  writeFileSync(
    join(binDir, "tofu"),
    `#!/bin/sh\n[ -n "$TF_CLI_CONFIG_FILE" ] && echo 'Warning: Unable to open CLI configuration file'\n` +
      `echo '{"terraform_version":"${TOFU_VERSION}","platform":"linux_amd64"}'\n`,
  );
  chmodSync(join(binDir, "tofu"), 0o755);
  vi.stubEnv("TF_CLI_CONFIG_FILE", join(scratch, "no-such.tfrc"));
  process.env.PATH = outsidePath
    ?.split(delimiter)
    .filter((dir) => !existsSync(join(dir, "tofu")))
    .join(delimiter);
  const tofu = await provisionTofu({ cacheDir: cache });
  expect(tofu).toMatchObject({ binDir, source: "cache" });
});
