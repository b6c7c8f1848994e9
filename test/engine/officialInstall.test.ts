/**
 * A machine with an official Pulumi install (GitHub's runners, `pulumi/actions` in
 * .github/workflows) and no WEBHOOKS_LANGUAGE_HOST_SOURCE: provisioning and the tests' toolchains
 * use the `pulumi` on PATH with its hosts and name no source folder. The install is played by a
 * folder of links to a provisioned engine's files, so nothing is built or downloaded.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { hostBinary, LANGUAGE_HOST_SOURCE_VARIABLE, LANGUAGE_HOSTS } from "../../engine/languageHosts";
import { PULUMI_VERSION, provisionEngine } from "../../engine/provision";
import { languageHostSourceEnv, provisionCli, testLanguageHostSource } from "../support/toolchain";

let scratch: string;
let official: string;
let emptyCache: string;
const outside = { ...process.env };

beforeAll(async () => {
  // The run's engine with its hosts (the variable as the run has it), linked into an "install".
  const engine = await provisionEngine({ version: PULUMI_VERSION });
  scratch = mkdtempSync(join(tmpdir(), "official-install-"));
  official = join(scratch, "pulumi", "bin");
  emptyCache = join(scratch, "cache");
  mkdirSync(official, { recursive: true });
  for (const file of readdirSync(engine.binDir)) symlinkSync(join(engine.binDir, file), join(official, file));
  for (const host of LANGUAGE_HOSTS) expect(existsSync(join(official, hostBinary(host))), host).toBe(true);
}, 1_800_000);

beforeEach(() => {
  delete process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  process.env.PATH = `${official}${delimiter}${outside.PATH ?? ""}`;
});

afterEach(() => {
  process.env.PATH = outside.PATH;
  if (outside[LANGUAGE_HOST_SOURCE_VARIABLE] === undefined) delete process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  else process.env[LANGUAGE_HOST_SOURCE_VARIABLE] = outside[LANGUAGE_HOST_SOURCE_VARIABLE];
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

it("the tests name no source folder when the variable is unset", () => {
  expect(testLanguageHostSource()).toBeUndefined();
  expect(languageHostSourceEnv()).toEqual({});
});

it("`npm run engine`'s provisioning takes the pulumi on PATH with its hosts, and leaves the cache alone", async () => {
  const engine = await provisionEngine({ cacheDir: emptyCache });
  expect(engine).toMatchObject({ binDir: official, version: PULUMI_VERSION, source: "path", hasLanguageHost: true });
  expect(existsSync(emptyCache)).toBe(false);
});

it("a test toolchain's CLI (the exact pinned version) is the pulumi on PATH too", async () => {
  const engine = await provisionCli(PULUMI_VERSION, () => {});
  expect(engine).toMatchObject({ binDir: official, version: PULUMI_VERSION, source: "path", hasLanguageHost: true });
});
