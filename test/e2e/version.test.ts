/**
 * One version, moved by one command (docs/release.md): `npm version <x.y.z>` in a scratch copy of
 * this checkout, made a git repository as a clone is, moves package.json, the lockfile, the schema,
 * the generated SDKs, the documented commands and CHANGELOG's heading, and commits and tags them all:
 * afterwards no file names the old version except the changelog's history and third-party pins.
 * Then `npm run dist` there names the new version in every artifact and manifest. The copy and its
 * release are the run's one release (support/sharedRelease.ts), which install.test.ts and
 * package.test.ts install from.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../support/commands";
import { CHECKOUT_VERSION as OLD, RELEASE_VERSION as NEXT, sharedRelease } from "../support/sharedRelease";

/** The Java SDK's package folder (its resources) and its folder in a Maven repository. */
const JAVA_PACKAGE = "io/github/webhooksubscriptions/webhooks";
const MAVEN_PATH = "io/github/webhook-subscriptions/webhooks";

/**
 * Files that may still name the old version: the changelog's history, third-party modules' versions,
 * and test fixtures, which record what a past release wrote (a plan, a state) and must keep it.
 */
const MAY_NAME_OLD = (file: string) =>
  file === "CHANGELOG.md" ||
  file === "package-lock.json" ||
  file.endsWith("go.sum") ||
  (file.startsWith("test/") && file.includes("/fixtures/"));

let clone: string;
let release: string;
let scratch: string;
const started = Date.now();

const read = (file: string) => readFileSync(join(clone, file), "utf8");
const json = (file: string) => JSON.parse(read(file)) as Record<string, unknown>;
/** One member of a tar.gz in the release, as text. */
const fromTar = (archive: string, member: string) =>
  execFileSync("tar", ["-xzOf", join(release, archive), member], { encoding: "utf8", maxBuffer: 2 ** 30 });
/** One member of a zip (the wheel) in the release, as text. */
const fromZip = (archive: string, member: string) =>
  execFileSync("unzip", ["-p", join(release, archive), member], { encoding: "utf8" });

beforeAll(async () => {
  ({ checkout: clone, dir: release } = await sharedRelease());
  scratch = mkdtempSync(join(tmpdir(), "version-e2e-"));
}, 1_800_000);

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  console.log(`[version] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it("npm commits and tags everything the version script moved: the tree is clean", async () => {
  expect((await run("git", ["status", "--porcelain"], clone)).stdout).toBe("");
  expect((await run("git", ["tag", "--points-at", "HEAD"], clone)).stdout.trim()).toBe(`v${NEXT}`);
  const moved = (await run("git", ["show", "--name-only", "--format=", "HEAD"], clone)).stdout;
  console.log(`[version] the v${NEXT} commit:\n${moved}`);
  for (const file of ["package.json", "package-lock.json", "CHANGELOG.md", "README.md", "sdk/python/pyproject.toml"])
    expect(moved.split("\n")).toContain(file);
});

it("package, lockfile, schema, SDK manifests and plugin metadata say the new version", async () => {
  expect(json("package.json").version).toBe(NEXT);
  const lock = json("package-lock.json") as { version: string; packages: Record<string, { version: string }> };
  expect([lock.version, lock.packages[""]!.version]).toEqual([NEXT, NEXT]);
  const schema = await run(
    "npx",
    ["tsx", "-e", 'console.log(require("./scripts/packageSchema").packageSchema().version)'],
    clone,
  );
  expect(schema.stdout.trim()).toBe(NEXT);
  expect(read("sdk/python/pyproject.toml")).toContain(`version = "${NEXT}"`);
  expect(json("sdk/nodejs/package.json")).toMatchObject({ version: NEXT, pulumi: { version: NEXT } });
  for (const plugin of [
    "sdk/python/pulumi_webhooks/pulumi-plugin.json",
    "sdk/go/webhooks/pulumi-plugin.json",
    `sdk/java/src/main/resources/${JAVA_PACKAGE}/plugin.json`,
  ])
    expect(json(plugin), plugin).toMatchObject({ name: "webhooks", version: NEXT });
  expect(read(`sdk/java/src/main/resources/${JAVA_PACKAGE}/version.txt`)).toBe(NEXT);
  expect(read("sdk/java/pom.xml")).toContain(`<artifactId>webhooks</artifactId>\n  <version>${NEXT}</version>`);
});

it("CHANGELOG: the Unreleased section is the new version's, a fresh Unreleased above it", () => {
  const today = new Date().toISOString().slice(0, 10);
  const changelog = read("CHANGELOG.md");
  expect(changelog).toContain(`## [Unreleased]\n\n## [${NEXT}] - ${today}\n`);
  expect(changelog).toContain(`## [${OLD}]`);
  expect(changelog).toMatch(new RegExp(`^\\[Unreleased\\]: .*/compare/v${NEXT}\\.\\.\\.HEAD$`, "m"));
  expect(changelog).toMatch(new RegExp(`^\\[${NEXT}\\]: .*/compare/v${OLD}\\.\\.\\.v${NEXT}$`, "m"));
});

it("no tracked file names the old version any more (but the changelog's history and third-party pins)", async () => {
  const files = (await run("git", ["ls-files"], clone)).stdout.split("\n").filter((f) => f && !MAY_NAME_OLD(f));
  const old = new RegExp(`(?<![\\d.])${OLD.replaceAll(".", "\\.")}(?![\\d]|\\.\\d)`);
  const naming = files.flatMap((file) =>
    read(file)
      .split("\n")
      .map((line, i) => `${file}:${i + 1}: ${line.trim()}`)
      .filter((line) => old.test(line.slice(line.indexOf(": ") + 2))),
  );
  expect(
    naming,
    `files that still name ${OLD}: add them to VERSIONED_FILES (scripts/version.ts) or stop naming a version`,
  ).toEqual([]);
  // The documented install command moved with it.
  expect(read("README.md")).toContain(`pulumi-resource-webhooks-v${NEXT}.tgz`);
});

describe(`npm run dist: every artifact names ${NEXT}`, () => {
  const PLATFORMS = ["linux-amd64", "linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64", "windows-arm64"];
  const NAMES = [
    ...PLATFORMS.map((platform) => `pulumi-resource-webhooks-v${NEXT}-${platform}.tar.gz`),
    `pulumi-resource-webhooks-v${NEXT}.tgz`,
    `pulumi-webhook-subscriptions-${NEXT}.tgz`,
    `pulumi_webhooks-${NEXT}-py3-none-any.whl`,
    `pulumi_webhooks-${NEXT}.tar.gz`,
    ...PLATFORMS.map((platform) => `terraform-provider-webhooks_${NEXT}_${platform.replace("-", "_")}.zip`),
    `terraform-provider-webhooks_${NEXT}_SHA256SUMS`,
    `terraform-provider-webhooks_${NEXT}_SHA256SUMS.sig`,
    `terraform-provider-webhooks_${NEXT}_manifest.json`,
    ...PLATFORMS.map(
      (platform) => `webhook-subscriptions-v${NEXT}-${platform}.${platform.startsWith("windows") ? "zip" : "tar.gz"}`,
    ),
  ];

  it("file names: each versioned artifact, none of the old version; SHA256SUMS lists exactly them", () => {
    const names = readdirSync(release).sort();
    console.log(`[version] dist/release:\n${names.join("\n")}`);
    expect(names).toEqual([...NAMES, "SHA256SUMS", "goproxy", "maven", "schema.json"].sort());
    const sums = readFileSync(join(release, "SHA256SUMS"), "utf8").trim().split("\n");
    const listed = sums.map((line) => line.split(/\s+\*?/)[1]!);
    expect(listed.filter((file) => !file.startsWith("maven/")).sort()).toEqual([...NAMES, "schema.json"].sort());
    expect(listed.filter((file) => file.startsWith("maven/") && file.includes(OLD))).toEqual([]);
  });

  it(`maven/: the jar, sources, javadoc and pom at ${NEXT} only, each with .sha1 and .md5; the pom and version.txt say it`, async () => {
    const dir = join(release, "maven", MAVEN_PATH);
    expect(readdirSync(dir).filter((name) => !name.startsWith("maven-metadata.xml"))).toEqual([NEXT]);
    const base = `webhooks-${NEXT}`;
    const artifacts = [`${base}.jar`, `${base}-sources.jar`, `${base}-javadoc.jar`, `${base}.pom`];
    expect(readdirSync(join(dir, NEXT)).sort()).toEqual(
      artifacts.flatMap((file) => [file, `${file}.md5`, `${file}.sha1`]).sort(),
    );
    expect(readFileSync(join(dir, NEXT, `${base}.pom`), "utf8")).toContain(
      `<groupId>io.github.webhook-subscriptions</groupId>\n  <artifactId>webhooks</artifactId>\n  <version>${NEXT}</version>`,
    );
    const jar = join(dir, NEXT, `${base}.jar`);
    expect(execFileSync("unzip", ["-p", jar, `${JAVA_PACKAGE}/version.txt`], { encoding: "utf8" })).toBe(NEXT);
    expect(
      JSON.parse(execFileSync("unzip", ["-p", jar, `${JAVA_PACKAGE}/plugin.json`], { encoding: "utf8" })),
    ).toMatchObject({
      name: "webhooks",
      version: NEXT,
    });
    const sha1 = (await run("sha1sum", [jar], scratch)).stdout.split(" ")[0];
    expect(readFileSync(`${jar}.sha1`, "utf8").trim()).toBe(sha1);
  });

  it("schema.json, the npm tarball's package.json, the plugin tgz's package.json and PulumiPlugin.yaml", () => {
    expect(JSON.parse(readFileSync(join(release, "schema.json"), "utf8"))).toMatchObject({ version: NEXT });
    const npm = JSON.parse(fromTar(`pulumi-webhook-subscriptions-${NEXT}.tgz`, "package/package.json")) as object;
    expect(npm).toMatchObject({ name: "pulumi-webhook-subscriptions", version: NEXT });
    const plugin = `pulumi-resource-webhooks-v${NEXT}.tgz`;
    expect(JSON.parse(fromTar(plugin, "./package.json")) as object).toMatchObject({ version: NEXT });
    expect(fromTar(plugin, "./PulumiPlugin.yaml")).toBe("runtime: nodejs\n");
  });

  it("the wheel's and the sdist's metadata, and their pulumi-plugin.json", () => {
    const wheel = `pulumi_webhooks-${NEXT}-py3-none-any.whl`;
    expect(fromZip(wheel, `pulumi_webhooks-${NEXT}.dist-info/METADATA`)).toMatch(new RegExp(`^Version: ${NEXT}$`, "m"));
    expect(JSON.parse(fromZip(wheel, "pulumi_webhooks/pulumi-plugin.json")) as object).toMatchObject({ version: NEXT });
    const sdist = `pulumi_webhooks-${NEXT}.tar.gz`;
    expect(fromTar(sdist, `pulumi_webhooks-${NEXT}/PKG-INFO`)).toMatch(new RegExp(`^Version: ${NEXT}$`, "m"));
  });

  it(`goproxy/: the module at v${NEXT} only (list, .info, .mod, .zip)`, async () => {
    const files = (await run("find", [".", "-type", "f"], join(release, "goproxy"))).stdout.trim().split("\n").sort();
    console.log(`[version] goproxy/:\n${files.join("\n")}`);
    const versioned = files.filter((file) => !file.endsWith("/@v/list"));
    expect(versioned.map((file) => file.split("/@v/")[1]).sort()).toEqual(
      [`v${NEXT}.info`, `v${NEXT}.mod`, `v${NEXT}.zip`].sort(),
    );
    const dir = versioned[0]!.slice(0, versioned[0]!.indexOf("/@v/"));
    expect(readFileSync(join(release, "goproxy", dir, "@v", "list"), "utf8")).toBe(`v${NEXT}\n`);
    expect(JSON.parse(readFileSync(join(release, "goproxy", dir, "@v", `v${NEXT}.info`), "utf8"))).toEqual({
      Version: `v${NEXT}`,
    });
    const zip = join(release, "goproxy", dir, "@v", `v${NEXT}.zip`);
    const plugin = (await run("unzip", ["-Z1", zip], scratch)).stdout
      .split("\n")
      .find((f) => f.endsWith("/pulumi-plugin.json"));
    expect(plugin, "the module zip's pulumi-plugin.json").toBeDefined();
    expect(plugin!.startsWith(`${dir.replace(/^\.\//, "")}@v${NEXT}/`)).toBe(true);
    expect(JSON.parse(execFileSync("unzip", ["-p", zip, plugin!], { encoding: "utf8" })) as object).toMatchObject({
      version: NEXT,
    });
  });

  it.each(PLATFORMS)("%s: the executable's archive, its embedded schema at the new version", (platform) => {
    const dir = join(scratch, platform);
    mkdirSync(dir);
    execFileSync("tar", ["-xzf", join(release, `pulumi-resource-webhooks-v${NEXT}-${platform}.tar.gz`), "-C", dir]);
    const binary = readdirSync(dir).find((name) => name.startsWith("pulumi-resource-webhooks"))!;
    const bytes = readFileSync(join(dir, binary)).toString("latin1");
    expect(bytes).toContain(`"version": "${NEXT}"`);
    rmSync(dir, { recursive: true });
  });

  it.each(PLATFORMS)(
    "%s: the Terraform zip holds terraform-provider-webhooks_v<new>, the archive's executable",
    (platform) => {
      const [os] = platform.split("-");
      const entry = `terraform-provider-webhooks_v${NEXT}${os === "windows" ? ".exe" : ""}`;
      const zip = join(release, `terraform-provider-webhooks_${NEXT}_${platform.replace("-", "_")}.zip`);
      expect(execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" })).toBe(`${entry}\n`);
      const member = `pulumi-resource-webhooks${os === "windows" ? ".exe" : ""}`;
      const archived = execFileSync(
        "tar",
        ["-xzOf", join(release, `pulumi-resource-webhooks-v${NEXT}-${platform}.tar.gz`), member],
        {
          maxBuffer: 2 ** 30,
        },
      );
      expect(execFileSync("unzip", ["-p", zip, entry], { maxBuffer: 2 ** 30 }).equals(archived)).toBe(true);
    },
  );
});
