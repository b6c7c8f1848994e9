/**
 * `npm start -- --help` prints the usage at once: before the build, the engine or the emulator
 * (issue 39); an unknown flag is refused with the usage, not after a build.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const ROOT = join(__dirname, "../..");
const run = promisify(execFile);

it("npm start -- --help prints the usage and builds nothing", { timeout: 60_000 }, async () => {
  // As docs/getting-started.md writes it.
  const { stdout } = await run("npm", ["start", "--", "--help"], { cwd: ROOT });
  expect(stdout).toMatch(/^usage: npm start \[-- --fast \| --drift \| --help\]$/m);
  expect(stdout).toContain("--drift    review the stack's drift");
  expect(stdout).not.toContain("[start]");
});

it("npm start -- --bogus names the flag, prints the usage and exits 2", { timeout: 60_000 }, async () => {
  const failed = await run("npm", ["start", "--silent", "--", "--bogus"], { cwd: ROOT }).then(
    () => undefined,
    (err: { code: number; stderr: string; stdout: string }) => err,
  );
  expect(failed?.code).toBe(2);
  expect(failed?.stderr).toContain("[start] Unknown option '--bogus'");
  expect(failed?.stderr).toContain("usage: npm start");
  expect(failed?.stdout).not.toContain("[start] building");
});
