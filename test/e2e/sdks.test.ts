/**
 * The native provider's SDKs (docs/native-provider.md), in a copy of this checkout: sdk/ is what
 * `npm run gen-sdk` generates now, and every SDK names the package's version and download address.
 * How users install and run them (the wheel, `go get`, the npm tarball, the plugin the engine
 * downloads) is test/e2e/install.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { publicHome } from "../../scripts/packageSchema";
import { run } from "../support/commands";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { copyRepository } from "../support/repoCopy";
import { languageHostSourceEnv } from "../support/toolchain";

/** The Java SDK's package folder, where its version.txt and plugin.json resources are. */
const JAVA_RESOURCES = "io/github/webhooksubscriptions/webhooks";
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

let root: string;
let checkout: string;
const started = Date.now();

/** Every file under `dir`, relative, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

beforeAll(async () => {
  requireLanguageHosts(["pulumi-language-python", "pulumi-language-nodejs", "pulumi-language-java"]);
  root = mkdtempSync(join(tmpdir(), "sdks-e2e-"));
  checkout = join(root, "checkout");
  // The checkout's files as they are now (committed or not): sdk/ as it would be committed.
  await copyRepository(checkout, { build: false });
}, 900_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  console.log(`[sdks] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it("sdk/ is what `npm run gen-sdk` generates from the schema now (else: run it and commit sdk/)", async () => {
  const generated = join(root, "generated");
  await run("npm", ["run", "gen-sdk", "--", "--out", generated], checkout, languageHostSourceEnv());
  const committed = join(checkout, "sdk");
  expect(files(committed)).toEqual(files(generated));
  for (const file of files(generated))
    expect(readFileSync(join(committed, file), "utf8"), `sdk/${file}`).toBe(
      readFileSync(join(generated, file), "utf8"),
    );
  // Every SDK asks the engine for the package's version of the plugin, from the public home.
  const server = publicHome().pluginDownloadURL;
  for (const plugin of [
    "python/pulumi_webhooks/pulumi-plugin.json",
    "go/webhooks/pulumi-plugin.json",
    `java/src/main/resources/${JAVA_RESOURCES}/plugin.json`,
  ])
    expect(JSON.parse(readFileSync(join(committed, plugin), "utf8"))).toMatchObject({
      name: "webhooks",
      version: VERSION,
      server,
    });
  expect(JSON.parse(readFileSync(join(committed, "nodejs/package.json"), "utf8"))).toMatchObject({
    pulumi: { name: "webhooks", version: VERSION, server },
  });
  expect(readFileSync(join(committed, "go/go.mod"), "utf8")).toMatch(new RegExp(`^module ${publicHome().goModule}\n`));
  expect(readFileSync(join(committed, "python/pyproject.toml"), "utf8")).toContain(`version = "${VERSION}"`);
  expect(JSON.parse(readFileSync(join(committed, "nodejs/package.json"), "utf8"))).toMatchObject({ version: VERSION });
  expect(readFileSync(join(committed, `java/src/main/resources/${JAVA_RESOURCES}/version.txt`), "utf8")).toBe(VERSION);
  expect(readFileSync(join(committed, "java/pom.xml"), "utf8")).toContain(`<version>${VERSION}</version>`);
}, 600_000);
