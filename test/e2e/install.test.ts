/**
 * The provider as users install it, with nothing cloned: the run's one release (a copy of this
 * checkout moved to the next version, then `npm run dist`: support/sharedRelease.ts) served on
 * loopback; the production download address is redirected to it with the engine's
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES; each user has an empty PULUMI_HOME and only their
 * language's host on PATH (no `pulumi-language-nodejs` but for TypeScript).
 *
 * - the release holds every artifact of docs' table and SHA256SUMS verifies them (platforms.test.ts
 *   starts or inspects each executable);
 * - every command and program of the Pulumi Registry's pages (docs/installation-configuration.md,
 *   docs/_index.md), as written: each language's install line, the plugin's, the `config set`
 *   lines (with a token that begins with `-`) and the environment variables; each language runs
 *   the overview's program (its example, as the page shows it);
 * - Python: the wheel in a fresh virtualenv; `pulumi up` downloads the plugin and creates; no
 *   changes; destroy;
 * - YAML: no `plugins:`; the page's plugin install command; its `config set` lines; `pulumi up`;
 * - Go: `go get` of the module path through the release's module proxy; the page's environment
 *   variables; up, no changes, destroy;
 * - Java: the page's `mvn` line, its `pom.xml` dependency, and `mvn package` with the release's
 *   Maven repository in the user's Maven settings; up, no changes, the lookup's output, destroy;
 * - TypeScript: `…/native` from the npm tarball, installed with README's dist/release line, then
 *   the page's `npm install` line with the tarball for the name; up, destroy;
 * - in each language (TypeScript on both front doors), and for tofu (40) and terraform (8): the
 *   release's `webhook-subscriptions adopt` of an estate made by scripts (support/adoptEstate.ts),
 *   the team's `up` or `apply` importing every one, the instance unchanged, no header value anywhere;
 * - README's other dist/release lines (the way to install before the first release), as written in
 *   fresh directories: the wheel imports, the Go package lists, the Java project compiles, the
 *   plugin's archive installs. An import or compile check, not `up`: the tests above run `up` in
 *   each language from the same artifacts;
 * - a failed download (server down, missing asset, wrong checksum) says so and leaves nothing
 *   installed in PULUMI_HOME;
 * - Terraform and OpenTofu (tofu, and the machine's `terraform` when on PATH): `init` from a packed
 *   filesystem mirror of the release's zips, and from the provider registry protocol served over
 *   loopback HTTPS (support/providerRegistry.ts) with the public source address kept and the
 *   registry host sent there by a `host` block, checking SHA256SUMS and its signature as from the
 *   public registry (a tampered zip and another key refused), then apply, plan (no change) and
 *   destroy one subscription with the installed provider; `providers lock` for every platform.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { get as httpsGet } from "node:https";
import { homedir, tmpdir, userInfo } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../../engine/provision";
import { publicHome } from "../../scripts/packageSchema";
import { registryProgram } from "../../scripts/registryDocs";
import { TARGETS } from "../../scripts/release/nodeRuntime";
import { cliArchiveName } from "../../scripts/release/release";
import {
  terraformExecutableName,
  terraformManifestName,
  terraformSumsName,
  terraformZipName,
} from "../../scripts/release/terraform";
import { resourcesSummary, run, type Result } from "../support/commands";
import { adoptEstate } from "../support/adoptEstate";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { freePort } from "../support/freePort";
import { makeSigningKey, verifySignature, type TestSigningKey } from "../support/gpgKey";
import { FORK_JOIN_SETTING, newerJavaBin } from "../support/javaRuntime";
import { MAVEN_JVM_ENV } from "../support/mavenJvm";
import { writeUserPackage } from "../support/pulumiProject";
import { PROVIDER_ADDRESS, ProviderRegistry } from "../support/providerRegistry";
import { ReleaseServer } from "../support/releaseServer";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { shellBlocks } from "../support/shellBlocks";
import { cliEnv, terraformClis, type TerraformCli } from "../support/terraformClis";
import {
  listedZipSha,
  mirrorCliConfig,
  packedMirror,
  registryCliConfig,
  writeConfiguration,
} from "../support/terraformUser";
import { makeTestTls, type TestTls } from "../support/testCa";
import { downloadOverride, installedPlugins, userEnv } from "../support/userInstall";

/** The release's version; the copy's README and examples name it. */
const VERSION = RELEASE_VERSION;
const ARCHIVE = `pulumi-resource-webhooks-v${VERSION}-linux-amd64.tar.gz`;
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const PRODUCTION = publicHome().pluginDownloadURL;
/** The Java SDK's folder in a Maven repository: its groupId's path and its artifactId. */
const MAVEN_PATH = `${publicHome().mavenGroup.replaceAll(".", "/")}/webhooks`;
/** npm's cache first, quiet: as settings, for a command run as written. */
const NPM = {
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_loglevel: "error",
};

let engine: Engine;
let root: string;
let checkout: string;
let release: string;
let server: ReleaseServer;
let service: EmulatorHarness;
/** The release's `webhook-subscriptions` (the CLI archive), as a team unpacks it. */
let webhookCli: string;
const started = Date.now();

/**
 * `adopt` of a scripted estate into the user's stack, with the release's CLI (support/adoptEstate.ts):
 * `count` subscriptions under `https://<label>-…`, then the team's `pulumi up` imports them all.
 */
async function adoptIntoStack(
  label: string,
  count: number,
  dir: string,
  env: NodeJS.ProcessEnv,
  instance: EmulatorHarness = service,
  imported = `= ${count} imported`,
  build?: () => Promise<unknown>,
): Promise<void> {
  const temp = mkdtempSync(join(root, `tmp-${label}-`));
  const teamEnv = { ...env, TMPDIR: temp };
  const { output } = await adoptEstate({
    service: instance,
    cli: webhookCli,
    label,
    count,
    dir,
    env: teamEnv,
    target: ["--into-stack", "dev"],
    // Once a run (Python's 40): the next adopt finds nothing left.
    again: label === "py",
    ...(build ? { build } : {}),
    takeOver: async () => {
      const up = await pulumi(dir, teamEnv, ["up", "--yes"]);
      expect(up.stdout).toContain(imported);
      return up;
    },
    expectEmpty: () => pulumi(dir, teamEnv, ["preview", "--expect-no-changes"]),
    review: ["--stack", "dev"],
    grepped: [join(root, "state"), temp],
  });
  console.log(`[install] ${label}: adopted ${count} into ${output}`);
}

/** A user's project: `example`'s files, its Pulumi.yaml without the checkout's `plugins:` section. */
function userProject(example: string, name: string): string {
  const dir = join(root, name);
  cpSync(join(checkout, "examples", example), dir, { recursive: true });
  const file = join(dir, "Pulumi.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace(/^plugins:\n(?:[ #].*\n)*/m, ""));
  expect(readFileSync(file, "utf8")).not.toMatch(/^plugins:/m);
  return dir;
}

/** A user of `hosts` with a fresh, empty PULUMI_HOME. */
function user(name: string, hosts: readonly string[]): { env: NodeJS.ProcessEnv; home: string } {
  const home = join(root, `home-${name}`);
  mkdirSync(home);
  return {
    home,
    env: userEnv(engine, { root, home, hosts, serverUrl: server.url, passphrase: "install-passphrase" }),
  };
}

/** `pulumi <args> --stack dev` in `dir`; logs the summary line. */
async function pulumi(dir: string, env: NodeJS.ProcessEnv, args: string[], expected = 0): Promise<Result> {
  const result = await run("pulumi", [...args, "--stack", "dev", "--non-interactive"], dir, env, expected);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[install] ${dir.split("/").pop()}: pulumi ${args.join(" ")}: ${summary}`);
  return result;
}

async function newStack(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  await pulumi(dir, env, ["stack", "init"]);
  await pulumi(dir, env, ["config", "set", "webhooks:baseUrl", service.url]);
  await pulumi(dir, env, ["config", "set", "--secret", "webhooks:token", "dev-builder"]);
}

/** README's section of the published packages' install lines, and that of dist/release's. */
const PUBLISHED = "Install the native provider";
const FROM_DIST = "Before the first release: install from dist/release";
/** The Pulumi Registry's pages, where the Registry reads them. */
const INSTALL_PAGE = join("docs", "installation-configuration.md");
const OVERVIEW_PAGE = join("docs", "_index.md");
/** The example instance address the installation page's commands name. */
const PAGE_URL = "https://instance.example.com/api";
/** A token that begins with `-`: the installation page's `--` is what lets `pulumi config set` take it. */
const DASH_TOKEN = "-install-test-builder-token";

/** The fenced `language` blocks of the checkout's `page` under `## heading`. */
function pageBlocks(page: string, heading: string, language = "sh"): string[] {
  return shellBlocks(readFileSync(join(checkout, page), "utf8"), language)
    .filter((b) => b.heading === heading)
    .map((b) => b.script);
}

/** The line for `language` (its trailing comment) in the sh block of `page`'s `section`. */
function lineFor(page: string, section: string, language: string): string {
  const blocks = pageBlocks(page, section);
  const line = blocks[0]?.split("\n").find((text) => text.endsWith(`# ${language}`));
  if (blocks.length !== 1 || !line) throw new Error(`${page} "${section}": no sh block with a line for ${language}`);
  return line;
}

/** README's line for `language` in `section`'s sh block. */
const readmeLine = (language: string, section = PUBLISHED) => lineFor("README.md", section, language);

/** The installation page's one sh block of `section`; its commands, with `text` once replaced by `by` when given. */
function pageScript(section: string, match: (script: string) => boolean, replace?: [string, string]): string {
  const scripts = pageBlocks(INSTALL_PAGE, section).filter(match);
  if (scripts.length !== 1)
    throw new Error(`${INSTALL_PAGE} "${section}": expected one such sh block, found ${scripts.length}`);
  if (!replace) return scripts[0]!;
  const [text, by] = replace;
  if (scripts[0]!.split(text).length !== 2) throw new Error(`${INSTALL_PAGE} "${section}": expected ${text} once`);
  return scripts[0]!.replace(text, by);
}

/** Runs `script` (a page's commands) in bash, in `dir`. */
function bash(what: string, script: string, dir: string, env: NodeJS.ProcessEnv): Promise<Result> {
  console.log(`[install] ${what}:\n$ ${script.split("\n").join("\n$ ")}`);
  return run("bash", ["-euo", "pipefail", "-c", script], dir, env);
}

/** Runs the installation page's install line for `language` as written, in `dir`. */
function asWritten(language: string, dir: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return bash(language, lineFor(INSTALL_PAGE, "Installation", language), dir, env);
}

/** The installation page's plugin install command. */
const pluginCommand = () => pageScript("The plugin", () => true);

/** Runs README's dist/release line for `language` as written, in `dir`, with `RELEASE` set as it says. */
function fromDist(language: string, dir: string, env: NodeJS.ProcessEnv): Promise<Result> {
  return bash(language, readmeLine(language, FROM_DIST), dir, { ...env, RELEASE: release });
}

/**
 * The program `file` of examples/`example`, as the user's copy in `dir` (the one that runs) has it,
 * is the Registry overview's program for that example (docs/_index.md shows each without its
 * opening comment and, for YAML, the checkout's `plugins:`).
 */
function expectOverviewProgram(dir: string, example: string, file: string): void {
  const page = readFileSync(join(checkout, OVERVIEW_PAGE), "utf8");
  const marker = `<!-- generated: example examples/${example}/${file} -->`;
  const shown = /```\w+\n([\s\S]*?)```/.exec(page.slice(page.indexOf(marker)))?.[1];
  if (!page.includes(marker) || shown === undefined)
    throw new Error(`${OVERVIEW_PAGE}: no program of examples/${example}/${file}`);
  expect(registryProgram(file, readFileSync(join(dir, file), "utf8")), `${OVERVIEW_PAGE}: examples/${example}`).toBe(
    shown,
  );
}

/** The release server's log since `from`, as lines. */
const served = (from: number) =>
  server.log
    .slice(from)
    .map((entry) => `GET ${entry.path} ${entry.status}`)
    .join("\n");

beforeAll(async () => {
  engine = requireLanguageHosts([
    "pulumi-language-python",
    "pulumi-language-yaml",
    "pulumi-language-go",
    "pulumi-language-java",
  ]);
  root = mkdtempSync(join(tmpdir(), "install-e2e-"));
  ({ checkout, dir: release } = await sharedRelease());
  server = await ReleaseServer.start(release);
  service = await EmulatorHarness.start();
  const cliDir = join(root, "cli");
  mkdirSync(cliDir);
  await run("tar", ["-xzf", join(release, cliArchiveName(VERSION, "linux", "amd64")), "-C", cliDir], cliDir);
  webhookCli = join(cliDir, "webhook-subscriptions");
}, 1_800_000);

afterAll(async () => {
  await service?.close();
  await server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  console.log(`[install] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

describe("the release", () => {
  it("holds every artifact of docs' table, and SHA256SUMS verifies each", async () => {
    const names = readdirSync(release).sort();
    console.log(`[install] dist/release:\n${names.join("\n")}`);
    for (const expected of [
      ARCHIVE,
      `pulumi-resource-webhooks-v${VERSION}-linux-arm64.tar.gz`,
      `pulumi-resource-webhooks-v${VERSION}-darwin-amd64.tar.gz`,
      `pulumi-resource-webhooks-v${VERSION}-darwin-arm64.tar.gz`,
      `pulumi-resource-webhooks-v${VERSION}-windows-amd64.tar.gz`,
      `pulumi-resource-webhooks-v${VERSION}-windows-arm64.tar.gz`,
      // The CLI: the same executables, named webhook-subscriptions (platforms.test.ts starts them).
      ...TARGETS.map((target) => cliArchiveName(VERSION, target.os, target.arch)),
      `pulumi-resource-webhooks-v${VERSION}.tgz`,
      `pulumi-webhook-subscriptions-${VERSION}.tgz`,
      `pulumi_webhooks-${VERSION}-py3-none-any.whl`,
      `pulumi_webhooks-${VERSION}.tar.gz`,
      "goproxy",
      "maven",
      "schema.json",
      "SHA256SUMS",
    ])
      expect(names).toContain(expected);
    const check = await run("sha256sum", ["--check", "--strict", "SHA256SUMS"], release);
    const maven = readdirSync(join(release, "maven"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(release, join(entry.parentPath, entry.name)));
    // Every file but goproxy/ and SHA256SUMS itself, the Maven repository's among them.
    expect(check.stdout.trim().split("\n")).toHaveLength(names.length - 3 + maven.length);
    const jar = `maven/${MAVEN_PATH}/${VERSION}/webhooks-${VERSION}`;
    for (const file of [`${jar}.jar`, `${jar}-sources.jar`, `${jar}-javadoc.jar`, `${jar}.pom`])
      for (const suffix of ["", ".sha1", ".md5"]) expect(maven).toContain(`${file}${suffix}`);
    expect(JSON.parse(readFileSync(join(release, "schema.json"), "utf8"))).toMatchObject({
      version: VERSION,
      pluginDownloadURL: PRODUCTION,
    });
  });
});

describe("Python: pip install pulumi_webhooks, then pulumi up downloads the plugin", () => {
  it("create, no changes, destroy, with no Node.js language host", async () => {
    const dir = userProject("python", "python");
    expectOverviewProgram(dir, "python", "__main__.py");
    const { env, home } = user("python", ["python"]);
    expect(installedPlugins(home)).toEqual([]);
    await run("python3", ["-m", "venv", "venv"], dir);
    // The project's virtualenv activated; pip finds the release's wheel, and pulumi on PyPI.
    const venv = { ...env, PATH: `${join(dir, "venv", "bin")}:${env.PATH}`, PIP_FIND_LINKS: release };
    await asWritten("Python", dir, venv);
    const versions = await run(
      join(dir, "venv", "bin", "python"),
      ["-c", "import importlib.metadata as m; print(m.version('pulumi_webhooks'), m.version('pulumi'))"],
      dir,
    );
    console.log(`[install] python: pulumi_webhooks, pulumi: ${versions.stdout.trim()}`);
    expect(versions.stdout.split(" ")[0]).toBe(VERSION);
    await newStack(dir, env);
    const from = server.log.length;
    const up = await pulumi(dir, env, ["up", "--yes"]);
    console.log(`[install] python: release server during up:\n${served(from)}`);
    expect(served(from)).toContain(`GET /${ARCHIVE} 200`);
    expect(up.stdout).toMatch(/\+ 3 created/);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
    expect(readdirSync(join(home, "plugins", `resource-webhooks-v${VERSION}`))).toContain("pulumi-resource-webhooks");
    expect(await service.all()).toHaveLength(2);
    expect((await pulumi(dir, env, ["preview", "--expect-no-changes"])).stdout).toMatch(/3 unchanged/);
    await adoptIntoStack("py", 40, dir, env);
    expect((await pulumi(dir, env, ["destroy", "--yes"])).stdout).toMatch(/- 43 deleted/);
    expect(await service.all()).toEqual([]);
    expect(
      served(from)
        .split("\n")
        .filter((line) => line.includes(ARCHIVE)),
    ).toHaveLength(1);
  }, 900_000);
});

describe("Go: go get through the module proxy, then pulumi up downloads the plugin", () => {
  it("create, no changes, destroy", async () => {
    const dir = userProject("go", "go");
    const { env, home } = user("go", ["go"]);
    const goEnv = {
      ...env,
      GOPROXY: `file://${join(release, "goproxy")},${process.env.GOPROXY || "https://proxy.golang.org"}`,
      GONOSUMDB: publicHome().goModule,
      GOFLAGS: "-mod=mod",
      GOTOOLCHAIN: "local",
    };
    expectOverviewProgram(dir, "go", "main.go");
    await asWritten("Go", dir, goEnv);
    // No stack config: the instance and the token from the page's environment variables, as written.
    await pulumi(dir, goEnv, ["stack", "init"]);
    const exports = pageScript("Configuration", (script) => script.includes("export "), [PAGE_URL, service.url]);
    const { stdout: after } = await bash("the environment variables", `${exports}\nenv -0`, dir, {
      ...goEnv,
      TOKEN: "dev-builder",
    });
    const values = new Map(
      after
        .split("\0")
        .filter((entry) => entry.includes("="))
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
    );
    const exported = Object.fromEntries(
      [...exports.matchAll(/^export (\w+)=/gm)].map(([, name]) => [name!, values.get(name!)]),
    );
    expect(exported).toEqual({ WEBHOOKS_BASE_URL: service.url, WEBHOOKS_TOKEN: "dev-builder" });
    const configured = { ...goEnv, ...exported };
    const from = server.log.length;
    expect((await pulumi(dir, configured, ["up", "--yes"])).stdout).toMatch(/\+ 3 created/);
    console.log(`[install] go: release server during up:\n${served(from)}`);
    expect(served(from)).toContain(`GET /${ARCHIVE} 200`);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
    expect((await pulumi(dir, configured, ["preview", "--expect-no-changes"])).stdout).toMatch(/3 unchanged/);
    await adoptIntoStack("go", 8, dir, configured);
    expect((await pulumi(dir, configured, ["destroy", "--yes"])).stdout).toMatch(/- 11 deleted/);
    expect(await service.all()).toEqual([]);
  }, 900_000);
});

describe("Java: the Maven dependency from the release's repository, then pulumi up downloads the plugin", () => {
  /**
   * Maven's user settings, in the Java user's own home: the release's repository beside Central
   * (where a release puts the SDK), and this machine's local repository, so the Pulumi SDK and
   * Maven's plugins are downloaded once per machine, not per run. Maven finds settings under
   * Java's `user.home`, which Java takes from the passwd entry, not $HOME: MAVEN_OPTS sets it,
   * after the run's own JVM settings (support/mavenJvm.ts).
   */
  function mavenUser(): NodeJS.ProcessEnv {
    const home = join(root, "maven-user");
    const local = join(homedir(), ".m2", "repository");
    // A previous run's copy of this version would be used instead of the release's: Maven never
    // re-checks a release version it holds.
    rmSync(join(local, MAVEN_PATH, VERSION), { recursive: true, force: true });
    mkdirSync(join(home, ".m2"), { recursive: true });
    writeFileSync(
      join(home, ".m2", "settings.xml"),
      `<settings><localRepository>${local}</localRepository>
  <profiles><profile><id>release</id><repositories><repository><id>release</id>
    <url>${pathToFileURL(join(release, "maven")).href}</url></repository></repositories></profile></profiles>
  <activeProfiles><activeProfile>release</activeProfile></activeProfiles>
</settings>
`,
    );
    return { MAVEN_OPTS: `${MAVEN_JVM_ENV.MAVEN_OPTS} -Duser.home=${home}` };
  }

  it("mvn package, create, no changes, the lookup, destroy, with no Node.js language host", async () => {
    const dir = userProject("java", "java");
    expectOverviewProgram(dir, "java", "src/main/java/example/App.java");
    // The page's pom.xml dependency is the one the project declares (and `mvn package` builds with).
    const words = (xml: string) => xml.replace(/\s+/g, "");
    const [dependency] = pageBlocks(INSTALL_PAGE, "Installation", "xml");
    expect(dependency, `${INSTALL_PAGE}: the pom.xml dependency`).toContain(`<version>${VERSION}</version>`);
    expect(words(readFileSync(join(dir, "pom.xml"), "utf8"))).toContain(words(dependency!));
    const { env, home } = user("java", ["java"]);
    const javaEnv = { ...env, ...mavenUser() };
    const timed = async <T>(what: string, step: () => Promise<T>): Promise<T> => {
      const from = Date.now();
      const result = await step();
      console.log(`[install] java: ${what}: ${((Date.now() - from) / 1000).toFixed(1)} s`);
      return result;
    };
    await timed("the page's line", () => asWritten("Java", dir, javaEnv));
    await timed("mvn package", () =>
      run("mvn", ["--batch-mode", "--quiet", "-Dstyle.color=never", "package"], dir, javaEnv),
    );
    // The jar holds the release's SDK, fetched from the release's repository.
    const fetched = readFileSync(
      join(homedir(), ".m2", "repository", MAVEN_PATH, VERSION, "_remote.repositories"),
      "utf8",
    );
    expect(fetched).toContain(`webhooks-${VERSION}.jar>release=`);
    await newStack(dir, javaEnv);
    const from = server.log.length;
    const up = await timed("up", () => pulumi(dir, javaEnv, ["up", "--yes"]));
    expect(up.stdout).toMatch(/\+ 3 created/);
    console.log(`[install] java: release server during up:\n${served(from)}`);
    expect(served(from)).toContain(`GET /${ARCHIVE} 200`);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
    expect(await service.all()).toHaveLength(2);
    const preview = await timed("preview", () => pulumi(dir, javaEnv, ["preview", "--expect-no-changes"]));
    expect(preview.stdout).toMatch(/3 unchanged/);
    const outputs = JSON.parse(
      (await pulumi(dir, javaEnv, ["stack", "output", "--json", "--show-secrets"])).stdout,
    ) as Record<string, unknown>;
    // The enum went out as its name and came back as the same constant; the lookup read the
    // subscription live.
    expect(outputs).toMatchObject({ objectCreatedEvent: "BusinessObjectCreated", packetCreatedEvent: "PacketCreated" });
    // Java 21+, with the setting docs/native-provider.md gives for 2-core machines.
    const newer = { ...javaEnv, PATH: `${newerJavaBin()}:${javaEnv.PATH}`, JAVA_TOOL_OPTIONS: FORK_JOIN_SETTING };
    console.log(
      `[install] java: ${(await run("java", ["-version"], dir, newer)).stderr.split("\n").find((line) => line.includes(" version "))}`,
    );
    const again = await timed("preview on Java 21+", () => pulumi(dir, newer, ["preview", "--expect-no-changes"]));
    expect(again.stdout).toMatch(/3 unchanged/);
    await timed("adopt", () =>
      adoptIntoStack("java", 8, dir, javaEnv, service, "= 8 imported", () =>
        run("mvn", ["--batch-mode", "--quiet", "-Dstyle.color=never", "package"], dir, javaEnv),
      ),
    );
    const destroy = await timed("destroy", () => pulumi(dir, javaEnv, ["destroy", "--yes"]));
    expect(destroy.stdout).toMatch(/- 11 deleted/);
    expect(await service.all()).toEqual([]);
  }, 900_000);
});

describe("YAML: the installation page's plugin command and config lines, then pulumi up", () => {
  it("pulumi plugin install resource webhooks <v> --server <production>; config set with a token that begins with -; create and destroy", async () => {
    const dir = userProject("yaml", "yaml");
    expectOverviewProgram(dir, "yaml", "Pulumi.yaml");
    const { env, home } = user("yaml", ["yaml"]);
    const from = server.log.length;
    expect(pluginCommand()).toBe(`pulumi plugin install resource webhooks ${VERSION} --server ${PRODUCTION}`);
    await bash("the plugin", pluginCommand(), dir, env);
    expect(served(from)).toContain(`GET /${ARCHIVE} 200`);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
    // An instance that takes a Builder token beginning with `-` (its admin token).
    const instance = await EmulatorHarness.start({ adminToken: DASH_TOKEN });
    try {
      await pulumi(dir, env, ["stack", "init"]);
      const config = pageScript("Configuration", (script) => script.includes("config set"), [PAGE_URL, instance.url]);
      await bash("the stack config", config, dir, { ...env, TOKEN: DASH_TOKEN });
      const token = await pulumi(dir, env, ["config", "get", "webhooks:token"]);
      expect(token.stdout.trim()).toBe(DASH_TOKEN);
      expect((await pulumi(dir, env, ["up", "--yes"])).stdout).toMatch(/\+ 3 created/);
      expect(await instance.all()).toHaveLength(2);
      await adoptIntoStack("yaml", 8, dir, env, instance);
      expect((await pulumi(dir, env, ["destroy", "--yes"])).stdout).toMatch(/- 11 deleted/);
      expect(await instance.all()).toEqual([]);
    } finally {
      await instance.close();
    }
  }, 900_000);

  it("the stack config lines need their `--`: without it, the CLI takes that token for an option", async () => {
    const config = pageScript("Configuration", (script) => script.includes("config set"), [PAGE_URL, service.url]);
    const line = config.split("\n").find((text) => text.includes("webhooks:token"));
    expect(line).toContain(' -- "$TOKEN"');
    const dir = join(root, "no-dashes");
    mkdirSync(dir);
    writeFileSync(join(dir, "Pulumi.yaml"), "name: no-dashes\nruntime: yaml\n");
    const { env } = user("no-dashes", ["yaml"]);
    await pulumi(dir, env, ["stack", "init"]);
    const without = await run("bash", ["-c", line!.replace(" -- ", " ")], dir, { ...env, TOKEN: DASH_TOKEN }, 1);
    expect(without.stderr).toMatch(/unknown shorthand flag/);
  });
});

describe("README's install lines", () => {
  it("are the installation page's (which the tests above run), word for word", () => {
    const words = (line: string) => line.replace(/\s+/g, " ").trim();
    for (const language of ["TypeScript", "Python", "Go", "Java"])
      expect(words(readmeLine(language)), language).toBe(words(lineFor(INSTALL_PAGE, "Installation", language)));
    expect(words(readmeLine("YAML"))).toBe(`${pluginCommand()} # YAML`);
  });
});

describe("TypeScript: …/native from the npm tarball (README's dist/release line), then pulumi up downloads the plugin", () => {
  it("create and destroy", async () => {
    const dir = userProject("typescript-native", "typescript-native");
    expectOverviewProgram(dir, "typescript-native", "index.ts");
    const { env, home } = user("typescript", ["nodejs"]);
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    };
    const pinned = (name: string) => lock.packages[`node_modules/${name}`]!.version;
    writeUserPackage(dir, {
      sdk: pinned("@pulumi/pulumi"),
      devDependencies: { typescript: pinned("typescript"), "@types/node": pinned("@types/node") },
    });
    // The line installs the project's pins with the tarball.
    await fromDist("TypeScript", dir, NPM);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies["pulumi-webhook-subscriptions"]).toMatch(
      new RegExp(`pulumi-webhook-subscriptions-${VERSION}\\.tgz$`),
    );
    // The installation page's line, the package's name standing for the tarball (not on npm yet).
    const line = lineFor(INSTALL_PAGE, "Installation", "TypeScript");
    const tarball = join(release, `pulumi-webhook-subscriptions-${VERSION}.tgz`);
    expect(line.split(" pulumi-webhook-subscriptions ").length, line).toBe(2);
    await bash("TypeScript", line.replace(" pulumi-webhook-subscriptions ", ` ${tarball} `), dir, NPM);
    await newStack(dir, env);
    const from = server.log.length;
    expect((await pulumi(dir, env, ["up", "--yes"])).stdout).toMatch(/\+ 3 created/);
    expect(served(from)).toContain(`GET /${ARCHIVE} 200`);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
    await adoptIntoStack("tsnative", 8, dir, env);
    expect((await pulumi(dir, env, ["destroy", "--yes"])).stdout).toMatch(/- 11 deleted/);

    // The dynamic provider's program, with the same install: adopt writes `adoptGuid`, and the
    // team's `pulumi up` takes each over in its create (a create step that makes nothing new).
    const dynamic = join(root, "typescript-dynamic");
    mkdirSync(dynamic);
    for (const file of ["package.json", "tsconfig.json"]) cpSync(join(dir, file), join(dynamic, file));
    symlinkSync(join(dir, "node_modules"), join(dynamic, "node_modules"));
    writeFileSync(join(dynamic, "Pulumi.yaml"), "name: typescript-dynamic\nruntime: nodejs\n");
    writeFileSync(
      join(dynamic, "index.ts"),
      'import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";\n\n' +
        'new WebhookSubscription("catalogue", {\n  webhook: Webhook.BusinessObjectCreated,\n  filterObjectType: 7,\n' +
        '  subscriberUrl: "https://hooks.example.com/dynamic/catalogue",\n});\n',
    );
    // The dynamic provider's plugin (pulumi-resource-pulumi-nodejs) ships beside the Node.js host in
    // every Pulumi install: this user has the whole of it.
    const dynamicEnv = { ...env, PATH: `${engine.binDir}:${env.PATH}` };
    await newStack(dynamic, dynamicEnv);
    expect((await pulumi(dynamic, dynamicEnv, ["up", "--yes"])).stdout).toMatch(/\+ 2 created/);
    await adoptIntoStack("tsdynamic", 8, dynamic, dynamicEnv, service, "+ 8 created");
    expect(readFileSync(join(dynamic, "index.ts"), "utf8")).toContain('import "./webhooks-adopted";');
    expect((await pulumi(dynamic, dynamicEnv, ["destroy", "--yes"])).stdout).toMatch(/- 10 deleted/);
    expect(await service.all()).toEqual([]);
  }, 900_000);
});

describe("a download that fails says so and installs nothing", () => {
  /** `pulumi plugin install` as the README gives it, with `extra` arguments, by a fresh YAML user. */
  async function install(
    name: string,
    extra: string[],
    serverUrl = server.url,
  ): Promise<{ out: string; home: string }> {
    const { env, home } = user(name, ["yaml"]);
    const result = await run(
      "pulumi",
      ["plugin", "install", "resource", "webhooks", VERSION, "--server", PRODUCTION, ...extra],
      root,
      { ...env, PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: downloadOverride(serverUrl) },
      1,
    );
    const out = `${result.stdout}${result.stderr}`;
    console.log(`[install] ${name}: what the user sees:\n${out.trim()}`);
    return { out, home };
  }

  it("server down: the address tried, nothing in PULUMI_HOME", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const { out, home } = await install("server-down", [], closed);
    expect(out).toContain(`webhooks`);
    expect(out).toContain(closed);
    expect(out).toMatch(/connection refused/i);
    expect(installedPlugins(home)).toEqual([]);
  });

  it("the release has no archive for the platform (404): the asset's address, nothing in PULUMI_HOME", async () => {
    server.missing.add(ARCHIVE);
    try {
      const { out, home } = await install("missing", []);
      expect(out).toContain(`${server.url}/${ARCHIVE}`);
      expect(out).toMatch(/404/);
      expect(installedPlugins(home)).toEqual([]);
    } finally {
      server.missing.delete(ARCHIVE);
    }
  });

  it("a checksum that does not match: the expected one, nothing in PULUMI_HOME", async () => {
    const wrong = "00".repeat(32);
    const { out, home } = await install("checksum", ["--checksum", wrong]);
    expect(out).toMatch(new RegExp(`webhooks-${VERSION}: invalid checksum, expected ${wrong}, actual [0-9a-f]{64}`));
    expect(installedPlugins(home)).toEqual([]);
  });

  it("offline: the archive checked against SHA256SUMS installs with --file", async () => {
    // Pulumi 3.248.0's --checksum hashes the download without its last read (docs/native-provider.md),
    // so the archive's true SHA-256 is refused: verify with sha256sum, then install the file.
    const { env, home } = user("offline", ["yaml"]);
    const dir = join(root, "offline");
    mkdirSync(dir);
    cpSync(join(release, ARCHIVE), join(dir, ARCHIVE));
    cpSync(join(release, "SHA256SUMS"), join(dir, "SHA256SUMS"));
    await run("sha256sum", ["--check", "--ignore-missing", "SHA256SUMS"], dir);
    await run("pulumi", ["plugin", "install", "resource", "webhooks", VERSION, "--file", ARCHIVE], dir, env);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
  });
});

describe("before the first release: README's dist/release lines, as written, in fresh directories", () => {
  it("Python: the wheel, with pulumi from PyPI, imports in a fresh virtualenv", async () => {
    const dir = join(root, "dist-python");
    mkdirSync(dir);
    await run("python3", ["-m", "venv", "venv"], dir);
    await fromDist("Python", dir, { PATH: `${join(dir, "venv", "bin")}:${process.env.PATH}` });
    const imported = await run(
      join(dir, "venv", "bin", "python"),
      ["-c", "import importlib.metadata as m, pulumi_webhooks; print(m.version('pulumi_webhooks'))"],
      dir,
    );
    expect(imported.stdout.trim()).toBe(VERSION);
  }, 600_000);

  it("Go: go get from the release's goproxy/ in a new module; the package lists", async () => {
    const dir = join(root, "dist-go");
    mkdirSync(dir);
    const goEnv = { GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" };
    await run("go", ["mod", "init", "example.com/user"], dir, goEnv);
    await fromDist("Go", dir, goEnv);
    const pkg = `${publicHome().goModule}/webhooks`;
    const listed = await run("go", ["list", "-f", "{{.ImportPath}} {{.Module.Version}}", pkg], dir, goEnv);
    expect(listed.stdout.trim()).toBe(`${pkg} v${VERSION}`);
  }, 600_000);

  it("Java: install-file into the local Maven repository; examples/java compiles against it offline", async () => {
    // Maven's local repository is under Java's user.home, which Java takes from the passwd entry, not $HOME.
    const local = join(userInfo().homedir, ".m2", "repository", MAVEN_PATH, VERSION);
    // A copy left by the Java test above would hide the line's own work.
    rmSync(local, { recursive: true, force: true });
    try {
      const dir = join(root, "dist-java");
      cpSync(join(checkout, "examples", "java"), dir, { recursive: true });
      await fromDist("Java", dir, {});
      // Installed locally (no repository id), so any project finds it, Central or not.
      expect(readFileSync(join(local, "_remote.repositories"), "utf8")).toContain(`webhooks-${VERSION}.jar>=`);
      await run("mvn", ["--batch-mode", "--quiet", "--offline", "-Dstyle.color=never", "compile"], dir);
    } finally {
      rmSync(local, { recursive: true, force: true });
    }
  }, 600_000);

  it("the plugin: pulumi plugin install --file with the platform's archive, into a fresh PULUMI_HOME", async () => {
    const { env, home } = user("dist-plugin", ["yaml"]);
    const dir = join(root, "dist-plugin");
    mkdirSync(dir);
    expect(readmeLine("the plugin", FROM_DIST)).toContain(ARCHIVE);
    await fromDist("the plugin", dir, env);
    expect(installedPlugins(home)).toEqual([`resource-webhooks-v${VERSION}`]);
  });
});

describe("Terraform and OpenTofu: the release's registry artifacts, installed as a Terraform user installs", () => {
  let clis: TerraformCli[];
  let tls: TestTls;
  let registry: ProviderRegistry;
  let signedBy: TestSigningKey;
  /** The plugin executable for linux-amd64, from the Pulumi archive: the zip must hold the same bytes. */
  let pluginSha: string;

  beforeAll(async () => {
    clis = await terraformClis();
    console.log(`[install] terraform CLIs: ${clis.map((cli) => `${cli.name} ${cli.version}`).join(", ")}`);
    tls = makeTestTls(mkdtempSync(join(root, "tls-")));
    ({ signingKey: signedBy } = await sharedRelease());
    registry = await ProviderRegistry.start(release, signedBy, tls);
    const unpacked = mkdtempSync(join(root, "plugin-"));
    await run("tar", ["-xzf", join(release, ARCHIVE), "-C", unpacked], unpacked);
    pluginSha = sha256(join(unpacked, "pulumi-resource-webhooks"));
  });

  afterAll(async () => {
    await registry?.close();
  });

  /** A user's folder with the configuration, and the environment with `config` as CLI configuration. */
  function terraformUser(cli: TerraformCli, name: string): { dir: string; env: NodeJS.ProcessEnv; config: string } {
    const dir = mkdtempSync(join(root, `${cli.name}-${name}-`));
    writeConfiguration(join(dir, "project"), VERSION);
    const config = join(dir, "cli.tfrc");
    return { dir: join(dir, "project"), config, env: cliEnv(config, { SSL_CERT_FILE: tls.caFile, HOME: dir }) };
  }

  /** Where `init` unpacked the provider for linux_amd64 from `host`. */
  const installed = (dir: string, host: string) =>
    join(dir, ".terraform", "providers", host, "webhook-subscriptions", "webhooks", VERSION, "linux_amd64");
  const hostOf = (cli: TerraformCli) => (cli.name === "tofu" ? "registry.opentofu.org" : "registry.terraform.io");

  it("the release's SHA256SUMS covers the zips, the manifest, their SHA256SUMS and its signature", async () => {
    const sums = await run("sha256sum", ["--check", "--strict", "SHA256SUMS"], release);
    for (const name of [
      ...TARGETS.map((t) => terraformZipName(VERSION, t.os, t.arch)),
      terraformManifestName(VERSION),
      terraformSumsName(VERSION),
      `${terraformSumsName(VERSION)}.sig`,
    ])
      expect(sums.stdout).toContain(`${name}: OK`);
    await run("sha256sum", ["--check", "--strict", terraformSumsName(VERSION)], release);
    expect(
      verifySignature(
        signedBy,
        join(release, `${terraformSumsName(VERSION)}.sig`),
        join(release, terraformSumsName(VERSION)),
      ),
    ).toBe(true);
  });

  it("a packed filesystem mirror of the release's zips: init installs the same executable, unauthenticated", async () => {
    for (const cli of clis) {
      const user = terraformUser(cli, "mirror");
      const mirror = packedMirror(release, VERSION, join(user.dir, "..", "mirror"), [{ os: "linux", arch: "amd64" }]);
      mirrorCliConfig(user.config, mirror);
      const init = await run(cli.path, ["init", "-input=false", "-no-color"], user.dir, user.env);
      console.log(`[install] ${cli.name} init from a filesystem mirror:\n${init.stdout.trim()}`);
      expect(init.stdout).toContain(`Installed webhook-subscriptions/webhooks v${VERSION} (unauthenticated)`);
      const binary = join(installed(user.dir, hostOf(cli)), terraformExecutableName(VERSION, "linux"));
      expect(sha256(binary)).toBe(pluginSha);
      expect(readFileSync(join(user.dir, ".terraform.lock.hcl"), "utf8")).toMatch(/version\s+= "0\.9\.\d"[^]*"h1:/);
    }
  });

  it("the registry protocol over loopback HTTPS, the public source address: init checks SHA256SUMS and its signature; then apply, plan, destroy", async () => {
    for (const cli of clis) {
      const user = terraformUser(cli, "registry");
      registryCliConfig(user.config, registry.providersUrl);
      const from = registry.log.length;
      const init = await run(cli.path, ["init", "-input=false", "-no-color"], user.dir, user.env);
      console.log(`[install] ${cli.name} init from the registry:\n${init.stdout.trim()}\n${registry.transcript()}`);
      expect(init.stdout).toMatch(
        new RegExp(
          `Installed webhook-subscriptions/webhooks v${VERSION.replaceAll(".", "\\.")} \\((self-)?signed, key ID ${signedBy.keyId}\\)`,
        ),
      );
      const paths = registry.log.slice(from).map((entry) => `${entry.path} ${entry.status}`);
      expect(paths).toEqual(
        expect.arrayContaining([
          "/v1/providers/webhook-subscriptions/webhooks/versions 200",
          `/v1/providers/webhook-subscriptions/webhooks/${VERSION}/download/linux/amd64 200`,
          `/files/${terraformZipName(VERSION, "linux", "amd64")} 200`,
          `/files/${terraformSumsName(VERSION)} 200`,
          `/files/${terraformSumsName(VERSION)}.sig 200`,
        ]),
      );
      expect(sha256(join(installed(user.dir, hostOf(cli)), terraformExecutableName(VERSION, "linux")))).toBe(pluginSha);
      // Every platform's zip hash from the signed SHA256SUMS.
      const lock = readFileSync(join(user.dir, ".terraform.lock.hcl"), "utf8");
      for (const t of TARGETS) expect(lock).toContain(`"zh:${zipSha(t.os, t.arch)}"`);
      await applyPlanDestroy(cli, user);
    }
  });

  /**
   * The rest of a Terraform user's path with the provider `init` installed (the release's single
   * executable): one subscription applied against the emulator, a plan with no change, a destroy.
   */
  async function applyPlanDestroy(cli: TerraformCli, user: { dir: string; env: NodeJS.ProcessEnv }): Promise<void> {
    const url = `https://hooks.example.com/${cli.name}-installed`;
    writeFileSync(
      join(user.dir, "main.tf"),
      `${readFileSync(join(user.dir, "main.tf"), "utf8")}
resource "webhooks_subscription" "orders" {
  webhook            = "PacketCreated"
  filter_object_type = 2
  filter_object_guid = "6f1c2a3b-0000-4000-8000-000000000001"
  subscriber_url     = "${url}"
}
`,
    );
    const env = { ...user.env, WEBHOOKS_BASE_URL: service.url, WEBHOOKS_TOKEN: "dev-builder" };
    const apply = await run(cli.path, ["apply", "-auto-approve", "-input=false", "-no-color"], user.dir, env);
    expect(apply.stdout).toContain("1 added, 0 changed, 0 destroyed");
    const { GUID } = await service.subscriptionAt(url);
    await run(cli.path, ["plan", "-detailed-exitcode", "-input=false", "-no-color"], user.dir, env, 0);
    // An estate made by scripts, adopted into the directory: 40 for OpenTofu, 8 for terraform.
    const count = cli.name === "tofu" ? 40 : 8;
    const temp = mkdtempSync(join(root, `tmp-${cli.name}-`));
    // Where the team types the commands (the test runner's own INIT_CWD would stand for it).
    const teamEnv = { ...env, TMPDIR: temp, INIT_CWD: user.dir };
    const plan = ["plan", "-detailed-exitcode", "-input=false", "-no-color"];
    if (cli.name === "tofu") {
      // An instance that cannot be listed is not an empty one: refused, naming it, nothing written.
      const unlisted = await run(
        webhookCli,
        ["adopt", "--into-terraform", ".", "--terraform-cli", cli.path],
        user.dir,
        { ...teamEnv, WEBHOOKS_BASE_URL: "http://127.0.0.1:1" },
        1,
      );
      expect(unlisted.stderr).toContain("http://127.0.0.1:1");
      expect(unlisted.stdout).not.toContain("Nothing to adopt");
      expect(existsSync(join(user.dir, "adopted.tf"))).toBe(false);
    }
    await adoptEstate({
      service,
      cli: webhookCli,
      label: cli.name,
      count,
      dir: user.dir,
      env: teamEnv,
      target: ["--into-terraform", ".", "--terraform-cli", cli.path],
      again: cli.name === "tofu",
      takeOver: async () => {
        const apply = await run(cli.path, ["apply", "-auto-approve", "-input=false", "-no-color"], user.dir, teamEnv);
        expect(apply.stdout).toContain(`${count} imported, 0 added, 0 changed, 0 destroyed`);
        return apply;
      },
      expectEmpty: () => run(cli.path, plan, user.dir, teamEnv, 0),
      review: ["--terraform", ".", "--terraform-cli", cli.path],
      grepped: [temp],
    });
    const destroy = await run(cli.path, ["destroy", "-auto-approve", "-input=false", "-no-color"], user.dir, env);
    expect(destroy.stdout).toContain(`Resources: ${count + 1} destroyed`);
    expect((await service.all()).map((s) => s.GUID)).not.toContain(GUID);
  }

  it("service discovery: a source address naming the loopback registry's host finds its provider service", async () => {
    const body = await getJson(`${registry.url}/.well-known/terraform.json`);
    expect(body).toEqual({ "providers.v1": "/v1/providers/" });
    for (const cli of clis) {
      const user = terraformUser(cli, "discovery");
      writeFileSync(user.config, "");
      const host = new URL(registry.url).host;
      writeFileSync(
        join(user.dir, "main.tf"),
        readFileSync(join(user.dir, "main.tf"), "utf8").replace(
          `"${PROVIDER_ADDRESS}"`,
          `"${host}/${PROVIDER_ADDRESS}"`,
        ),
      );
      const init = await run(cli.path, ["init", "-input=false", "-no-color"], user.dir, user.env);
      expect(init.stdout).toContain(`key ID ${signedBy.keyId}`);
    }
  });

  it("a zip changed on the way, or a signature by another key, is refused: nothing installed", async () => {
    const stranger = makeSigningKey("not the release key", "other", root);
    for (const cli of clis) {
      for (const [what, play, message] of [
        [
          "tampered zip",
          () => (registry.tamper = terraformZipName(VERSION, "linux", "amd64")),
          /archive has\s+incorrect checksum/,
        ],
        ["wrong key", () => (registry.servedKey = stranger), /authentication\s+signature from unknown issuer/],
      ] as const) {
        const user = terraformUser(cli, what.replace(" ", "-"));
        registryCliConfig(user.config, registry.providersUrl);
        play();
        try {
          const init = await run(cli.path, ["init", "-input=false", "-no-color"], user.dir, user.env, 1);
          console.log(`[install] ${cli.name} init, ${what}:\n${init.stderr.trim()}`);
          expect(init.stderr, what).toMatch(message);
          expect(existsSync(installed(user.dir, hostOf(cli))), what).toBe(false);
        } finally {
          registry.tamper = undefined;
          registry.servedKey = signedBy;
        }
      }
    }
  });

  it("providers lock records every platform's hashes", async () => {
    for (const cli of clis) {
      const user = terraformUser(cli, "lock");
      registryCliConfig(user.config, registry.providersUrl);
      const platforms = TARGETS.map((t) => `-platform=${t.os}_${t.arch}`);
      const lock = await run(cli.path, ["providers", "lock", "-no-color", ...platforms], user.dir, user.env);
      console.log(`[install] ${cli.name} providers lock:\n${lock.stdout.trim()}`);
      const file = readFileSync(join(user.dir, ".terraform.lock.hcl"), "utf8");
      for (const t of TARGETS) expect(file).toContain(`"zh:${zipSha(t.os, t.arch)}"`);
      // One h1: (the unpacked package's hash) per platform: each zip was fetched and checked.
      expect(file.match(/"h1:/g)).toHaveLength(TARGETS.length);
    }
  });

  /** The zip's sha256 as the release's terraform SHA256SUMS lists it. */
  const zipSha = (os: string, arch: string) => listedZipSha(release, VERSION, os, arch);

  /** GET `url` as JSON, trusting the test CA (Node's own requests ignore SSL_CERT_FILE). */
  function getJson(url: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      httpsGet(url, { ca: readFileSync(tls.caFile) }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      }).on("error", reject);
    });
  }
});
