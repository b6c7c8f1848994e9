/**
 * Every archive of the run's one release (support/sharedRelease.ts) is proven to start, or for
 * darwin to be what macOS loads; each platform's CLI archive (`webhook-subscriptions-v<v>-…`)
 * holds the plugin archive's executable byte for byte:
 *
 * - linux-amd64 natively, linux-arm64 under qemu, windows-amd64 under wine (scripts/release/targets.ts):
 *   the executable unpacked from its archive is started as the engine starts it, its port read
 *   from stdout, then GetPluginInfo, GetSchema (the release's version), Configure and Check over
 *   gRPC, and a bad input comes back as a failure whose reason names the field and its value; started
 *   with Terraform's cookie, it prints go-plugin's handshake line; its blob carries V8's code cache
 *   of each door, trained by its own runtime, and the runtime accepted each (the SEA entry says
 *   so on stderr when V8 refuses a cache, as it does one made by another platform's runtime);
 * - the same three started from the CLI's archive answer as the CLI (launcher/pickDoor.ts):
 *   `--version`, the usage with no argument (the executable's name picks it); linux-amd64 with no
 *   Node.js on PATH and no node_modules also `drift --help`, a review whose report's footer runs
 *   it again as `webhook-subscriptions drift …` (no npx), a command that needs the npm package
 *   saying so, and `emulator --port 0` answering HTTP: an API description, and the `/swagger`
 *   page with each of Swagger UI's files, served from the executable's assets;
 * - darwin-amd64 and darwin-arm64: a Mach-O of the right CPU type, the NODE_SEA segment holding
 *   the schema, and an ad-hoc signature whose every page hash matches the final bytes
 *   (support/machoSignature.ts, and rcodesign's own hashes of them), refused once one byte changes;
 * - windows-arm64 (wine here runs amd64 only): PE32+ for ARM64 with the SEA blob and the schema;
 * - every blob carries each door's bundle (launcher/doors.ts), the schema, the resource's
 *   description, the version and Swagger UI's files (emulator/swaggerAssets.ts);
 * - these three have no code cache: no runtime here can make one they would accept.
 */
import { type ChildProcess, spawn, type StdioOptions } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import * as pluginproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SWAGGER_UI_ASSETS, SWAGGER_UI_FILES, swaggerAssetKey, swaggerUiDir } from "../../emulator/swaggerAssets";
import { encode } from "../../provider/native/codec";
import { TARGETS, targetName, type Target } from "../../scripts/release/nodeRuntime";
import { cliArchiveName, cliExecutableName } from "../../scripts/release/release";
import { ensureTargetTools, isRunnable, runnableTargets, runOnTarget } from "../../scripts/release/targets";
import { codeHashes } from "../../scripts/release/sign";
import { MACHO_CPU, PE_MACHINE, readMachO, readPE } from "../support/binaryFormats";
import { run } from "../support/commands";
import { verifyCodeSignature } from "../support/machoSignature";
import { serverCertificate } from "../../provider/terraform/goPlugin/certificate";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../provider/terraform/goPlugin/handshake";
import { seaBlob } from "../support/seaBlob";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";

const VERSION = RELEASE_VERSION;
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1";
/** Node.js under TCG emulation starts in seconds on an idle machine, far slower on a loaded one. */
const START_TIMEOUT = 240_000;
const URN = "urn:pulumi:dev::proj::webhooks:index:WebhookSubscription::orders";
const GOOD = {
  webhook: "PacketCreated",
  filterObjectType: 2,
  filterObjectGuid: "6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b",
  subscriberUrl: "https://hooks.example.com/orders",
};

let release: string;
let root: string;
const started = Date.now();
const log = (line: string) => console.log(`[platforms] ${line}`);

/** Unpacks `target`'s archive into its own folder; the executable's path. */
async function unpack(target: Target): Promise<string> {
  const dir = join(root, targetName(target));
  mkdirSync(dir, { recursive: true });
  await run(
    "tar",
    ["-xzf", join(release, `pulumi-resource-webhooks-v${VERSION}-${targetName(target)}.tar.gz`), "-C", dir],
    root,
  );
  const binary = target.os === "windows" ? "pulumi-resource-webhooks.exe" : "pulumi-resource-webhooks";
  expect(readdirSync(dir).sort()).toEqual(["LICENSE", binary]);
  return join(dir, binary);
}

/**
 * Unpacks `target`'s CLI archive (a zip on windows) into its own folder; the executable's path,
 * after checking it is `plugin`'s very bytes (one executable, every door).
 */
async function unpackCli(target: Target, plugin: string): Promise<string> {
  const dir = join(root, `${targetName(target)}-cli`);
  mkdirSync(dir, { recursive: true });
  const archive = join(release, cliArchiveName(VERSION, target.os, target.arch));
  if (target.os === "windows") await run("unzip", ["-q", archive, "-d", dir], root);
  else await run("tar", ["-xzf", archive, "-C", dir], root);
  const binary = cliExecutableName(target.os);
  expect(readdirSync(dir).sort()).toEqual([binary, "LICENSE"].sort());
  expect(readFileSync(join(dir, binary)).equals(readFileSync(plugin)), "the plugin archive's executable").toBe(true);
  return join(dir, binary);
}

beforeAll(async () => {
  release = (await sharedRelease()).dir;
  root = mkdtempSync(join(tmpdir(), "platforms-"));
}, 1_800_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  log(`wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it("the release has the plugin's archive and the CLI's per platform, each in SHA256SUMS", () => {
  const sums = readFileSync(join(release, "SHA256SUMS"), "utf8");
  for (const target of TARGETS)
    for (const archive of [
      `pulumi-resource-webhooks-v${VERSION}-${targetName(target)}.tar.gz`,
      cliArchiveName(VERSION, target.os, target.arch),
    ]) {
      const size = readFileSync(join(release, archive)).length;
      log(`${archive}: ${(size / 1024 / 1024).toFixed(1)} MB`);
      expect(sums).toMatch(new RegExp(`^[0-9a-f]{64}  ${archive.replaceAll(".", "\\.")}$`, "m"));
    }
  expect(cliArchiveName(VERSION, "windows", "amd64")).toMatch(/\.zip$/);
});

/** The started plugin: its port, its process, what it printed on stderr. */
interface Started {
  readonly port: number;
  readonly child: ChildProcess;
  readonly stderr: () => string;
}

/**
 * The assets of every blob but the trained caches, sorted: each door's bundle and what the doors
 * read (launcher/), and Swagger UI's files, which the emulator reads.
 */
const SEA_ASSETS = [
  ...["cli.js", "description.json", "pulumi.js", "schema.json", "terraform.js", "version"],
  ...SWAGGER_UI_FILES.map(swaggerAssetKey),
].sort();

/** What the SEA entry prints when V8 refuses a trained code cache (launcher/sea.ts). */
const CACHE_REJECTED = "rejected the executable's code cache";

/** A started program: its process, what it has printed so far, and how it ended, once it has. */
interface Launched {
  readonly child: ChildProcess;
  readonly printed: (which: 0 | 1) => string;
  readonly ended: () => { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** The command line, for the log. */
  readonly line: string;
}

/**
 * Starts `binary` with `args` on `target` (natively, under qemu or wine), with `env` over the
 * target's; `name` names its output files where the target needs files (wine).
 */
function launch(target: Target, binary: string, args: string[], env: NodeJS.ProcessEnv, name: string): Launched {
  const how = runOnTarget(target, binary, args);
  const files = [".stdout", ".stderr"].map((suffix) => join(root, `${targetName(target)}-${name}${suffix}`));
  const fds = how.stdioToFiles ? files.map((file) => openSync(file, "w")) : undefined;
  const stdio: StdioOptions = ["ignore", ...(fds ?? (["pipe", "pipe"] as const))];
  const child: ChildProcess = spawn(how.command, how.args, { env: { ...how.env, ...env }, stdio, cwd: root });
  fds?.forEach((fd) => closeSync(fd));
  let [stdout, stderr] = ["", ""];
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  // `close`: after the process's exit and its output's end.
  child.on("close", (code, signal) => (ended = { code, signal }));
  return {
    child,
    printed: (which) => (fds ? readFileSync(files[which]!, "utf8") : which === 0 ? stdout : stderr),
    ended: () => ended,
    line: [how.command, ...how.args].join(" "),
  };
}

/** Waits for `launched`'s stdout to match `pattern`; fails when it ends first, or after START_TIMEOUT (then it is killed). */
async function printed(target: Target, launched: Launched, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  const since = Date.now();
  while (Date.now() - since < START_TIMEOUT) {
    const match = pattern.exec(launched.printed(0));
    if (match) {
      log(
        `${targetName(target)}: \`${launched.line}\` printed ${what} after ${((Date.now() - since) / 1000).toFixed(1)} s`,
      );
      return match;
    }
    const ended = launched.ended();
    if (ended)
      throw new Error(
        `${targetName(target)}: exited (${ended.code ?? ended.signal}) before printing ${what}; stderr:\n${launched.printed(1)}`,
      );
    await sleep(100);
  }
  launched.child.kill("SIGKILL");
  throw new Error(
    `${targetName(target)}: no ${what} on stdout after ${START_TIMEOUT / 1000} s; stderr:\n${launched.printed(1)}`,
  );
}

/**
 * Starts `binary` as the engine does (no arguments but the engine's address, here none) and reads
 * its port; with `env`, as that environment asks (Terraform's cookie: the handshake line instead).
 */
async function start(target: Target, binary: string, env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const launched = launch(target, binary, [], env, MAGIC_COOKIE_KEY in env ? "terraform" : "pulumi");
  // The port alone, or go-plugin's handshake line: `1|6|tcp|127.0.0.1:PORT|grpc|<certificate>`.
  const line = /^(?:(\d+)|1\|6\|tcp\|127\.0\.0\.1:(\d+)\|grpc\|[A-Za-z0-9+/]+)\r?\n/;
  const port = (await printed(target, launched, line, "its port")).slice(1).find(Boolean)!;
  return { port: Number(port), child: launched.child, stderr: () => launched.printed(1) };
}

/** Runs the CLI, `binary` with `args`, on `target` to its end: its exit code and what it printed. */
async function runCli(
  target: Target,
  binary: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const launched = launch(target, binary, args, env, `cli-${args[0] ?? "none"}`);
  const since = Date.now();
  while (!launched.ended()) {
    if (Date.now() - since > START_TIMEOUT) {
      launched.child.kill("SIGKILL");
      throw new Error(`${targetName(target)}: \`${launched.line}\` still running after ${START_TIMEOUT / 1000} s`);
    }
    await sleep(100);
  }
  const result = { code: launched.ended()!.code, stdout: launched.printed(0), stderr: launched.printed(1) };
  log(
    `${targetName(target)}: \`${launched.line}\` → exit ${result.code} after ${((Date.now() - since) / 1000).toFixed(1)} s`,
  );
  return result;
}

/** One unary call through the protocol's generated client. */
function call<T>(client: provrpc.ResourceProviderClient, method: string, request: unknown): Promise<T> {
  return new Promise((resolve, reject) =>
    (client as unknown as Record<string, (...args: unknown[]) => unknown>)[method]!.call(
      client,
      request,
      { deadline: Date.now() + 120_000 },
      (err: grpc.ServiceError | null, response: T) => (err ? reject(err) : resolve(response)),
    ),
  );
}

describe.each(runnableTargets())("$os-$arch: started from its archive", (target) => {
  let plugin: Started;
  let client: provrpc.ResourceProviderClient;
  let binary: string;
  const name = targetName(target);

  beforeAll(async () => {
    ensureTargetTools(target);
    binary = await unpack(target);
    plugin = await start(target, binary);
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${plugin.port}`, grpc.credentials.createInsecure());
  }, START_TIMEOUT + 600_000);

  afterAll(async () => {
    client?.close();
    plugin?.child.kill("SIGTERM");
    if (name === "windows-amd64") await run("wineserver", ["--kill"], root, runOnTarget(target, "").env);
  });

  it("answers GetPluginInfo, GetSchema, Configure and Check; a bad input fails naming the field", async () => {
    const info = await call<pluginproto.PluginInfo>(client, "getPluginInfo", new Empty());
    log(`${name}: GetPluginInfo → version ${info.getVersion()}`);
    expect(info.getVersion()).toBe(VERSION);

    const schema = JSON.parse(
      (await call<provproto.GetSchemaResponse>(client, "getSchema", new provproto.GetSchemaRequest())).getSchema(),
    ) as { name: string; version: string; resources: Record<string, unknown> };
    log(`${name}: GetSchema → ${schema.name} ${schema.version}, resources ${Object.keys(schema.resources).join(", ")}`);
    expect(schema).toMatchObject({ name: "webhooks", version: VERSION });
    expect(Object.keys(schema.resources)).toEqual(["webhooks:index:WebhookSubscription"]);

    const configure = new provproto.ConfigureRequest().setAcceptsecrets(true);
    configure.getVariablesMap().set("webhooks:config:baseUrl", "https://webhooks.example.com");
    configure.getVariablesMap().set("webhooks:config:token", "dev-builder");
    const configured = await call<provproto.ConfigureResponse>(client, "configure", configure);
    log(
      `${name}: Configure → acceptSecrets ${configured.getAcceptsecrets()}, supportsPreview ${configured.getSupportspreview()}`,
    );
    expect(configured.getAcceptsecrets()).toBe(true);

    const check = (news: Record<string, unknown>) =>
      call<provproto.CheckResponse>(
        client,
        "check",
        new provproto.CheckRequest().setUrn(URN).setNews(encode(news)).setOlds(encode({})),
      );
    const good = await check(GOOD);
    log(
      `${name}: Check → inputs ${JSON.stringify(good.getInputs()!.toJavaScript())}, failures ${good.getFailuresList().length}`,
    );
    expect(good.getFailuresList()).toEqual([]);
    expect(good.getInputs()!.toJavaScript()).toMatchObject({
      webhook: "PacketCreated",
      subscriberUrl: GOOD.subscriberUrl,
    });

    const bad = await check({ ...GOOD, subscriberUrl: "ftp://hooks.example.com" });
    const failures = bad.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
    log(`${name}: Check (bad subscriberUrl) → ${JSON.stringify(failures)}`);
    // No `property`, by design (provider/core/lifecycle.ts: the engine would print the raw value,
    // secrets too); the reason names the field and shows the bad value.
    expect(failures).toEqual([
      {
        property: "",
        reason: expect.stringMatching(
          /^subscriberUrl must be an absolute http\(s\) URL.*"ftp:\/\/hooks\.example\.com"/,
        ),
      },
    ]);
    expect(plugin.stderr()).not.toMatch(/Error|Warning/);
  }, 300_000);

  it(
    "carries V8's code cache of each door, trained by its own runtime, and the plugin doors accept theirs at start",
    async () => {
      const { assets } = seaBlob(readFileSync(binary));
      log(
        `${name}: SEA assets ${JSON.stringify(assets)}; Pulumi door's stderr at start: ${JSON.stringify(plugin.stderr())}`,
      );
      expect(assets["pulumi.codecache"], "the Pulumi door's trained cache").toBeGreaterThan(100_000);
      expect(assets["terraform.codecache"], "the Terraform door's trained cache").toBeGreaterThan(100_000);
      expect(assets["cli.codecache"], "the CLI's trained cache").toBeGreaterThan(100_000);
      expect(Object.keys(assets).sort()).toEqual(
        [...SEA_ASSETS, "cli.codecache", "pulumi.codecache", "terraform.codecache"].sort(),
      );
      expect(plugin.stderr()).not.toContain(CACHE_REJECTED);

      // Terraform's door: started as tofu starts a provider, it prints the handshake line, cache accepted.
      const terraform = await start(target, binary, {
        [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
        PLUGIN_PROTOCOL_VERSIONS: "5,6",
        PLUGIN_CLIENT_CERT: (await serverCertificate()).certificatePem,
      });
      try {
        log(`${name}: Terraform door's stderr at start: ${JSON.stringify(terraform.stderr())}`);
        expect(terraform.stderr()).not.toContain(CACHE_REJECTED);
      } finally {
        terraform.child.kill("SIGKILL");
      }
    },
    START_TIMEOUT + 60_000,
  );

  it(
    "its CLI archive holds the same executable, which answers as the CLI: the version, and the usage with no argument",
    async () => {
      const cli = await unpackCli(target, binary);
      const version = await runCli(target, cli, ["--version"]);
      expect(version.code, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(VERSION);
      // No argument: its name (webhook-subscriptions) picks the CLI, which shows its usage and exits 1.
      const usage = await runCli(target, cli, []);
      log(`${name}: \`webhook-subscriptions\` printed:\n${usage.stdout}`);
      expect(usage.code).toBe(1);
      expect(usage.stdout).toMatch(/^usage: webhook-subscriptions <command>/);
      expect(usage.stdout).toMatch(/^ {2}drift /m);
      expect(usage.stdout).toMatch(/^ {2}emulator /m);
      expect(usage.stdout).toContain("engine, preview, up, refresh, destroy: from the npm package");
      // The CLI's trained cache accepted, as the plugin doors' are.
      expect(`${version.stderr}${usage.stderr}`).not.toContain(CACHE_REJECTED);
      expect(`${version.stderr}${usage.stderr}`).not.toMatch(/Error|Warning/);
    },
    2 * START_TIMEOUT,
  );

  it.runIf(name === "linux-amd64")(
    "with no Node.js on PATH and no node_modules: drift --help, a review's footer without npx, a command that needs the npm package says so, and the emulator serves its API description and the /swagger page with Swagger UI's files",
    async () => {
      const cli = join(root, `${name}-cli`, cliExecutableName(target.os));
      // PATH holds the CLI's folder alone, as a user's would after unpacking it; the working directory is empty.
      const bare = { PATH: join(root, `${name}-cli`), HOME: root };
      expect(readdirSync(bare.PATH).sort()).toEqual(["LICENSE", "webhook-subscriptions"]);
      const drift = await runCli(target, cli, ["drift", "--help"], bare);
      expect(drift.code, drift.stderr).toBe(0);
      expect(drift.stdout).toMatch(/^usage: webhook-subscriptions drift /);
      // A review that fails at once (no pulumi on PATH) still ends with the command that runs it
      // again, as this executable runs it: no npx.
      const review = await runCli(target, cli, ["drift", "--stack", "dev", "--state-only"], bare);
      expect(review.code, review.stderr).toBe(1);
      expect(review.stdout).toMatch(/ · `webhook-subscriptions drift --stack dev --state-only`<\/sub>$/m);
      // A mistyped command, or a flag first, is a usage error at once, never a plugin waiting for an engine.
      for (const args of [
        ["adpot", "--help"],
        ["--stack", "dev"],
      ]) {
        const unknown = await runCli(target, cli, args, bare);
        expect(unknown.code, unknown.stdout).toBe(1);
        expect(unknown.stderr).toContain(`unknown command ${JSON.stringify(args[0])}`);
        expect(unknown.stderr).toContain("usage: webhook-subscriptions <command>");
      }
      const up = await runCli(target, cli, ["up", "--stack", "dev"], bare);
      expect(up.code).toBe(1);
      expect(up.stderr).toContain("up: this command needs the npm package");
      expect(up.stderr).toContain("npx webhook-subscriptions up");

      const emulator = launch(target, cli, ["emulator", "--port", "0"], bare, "cli-emulator");
      try {
        const [, url] = await printed(target, emulator, /listening on (http:\/\/127\.0\.0\.1:\d+)/, "its address");
        const response = await fetch(`${url}/swagger/3/swagger.json`);
        const document = (await response.json()) as { openapi: string; info: { version: string } };
        log(`${name}: GET ${url}/swagger/3/swagger.json → ${response.status}, OpenAPI ${document.openapi}`);
        expect(response.status).toBe(200);
        expect(document).toMatchObject({ openapi: "3.0.3", info: { version: "3" } });
        // The page, and each file it loads: the executable's assets, the bytes swagger-ui-dist has.
        const swagger = await fetch(`${url}/swagger`);
        const page = await swagger.text();
        expect(swagger.status).toBe(200);
        expect(swagger.headers.get("content-type")).toBe("text/html; charset=utf-8");
        for (const [file, type] of Object.entries(SWAGGER_UI_ASSETS)) {
          const path = `/swagger/ui/${file}`;
          expect(page, `the page loads ${path}`).toContain(`"${path}"`);
          const asset = await fetch(`${url}${path}`);
          const bytes = Buffer.from(await asset.arrayBuffer());
          log(`${name}: GET ${url}${path} → ${asset.status}, ${asset.headers.get("content-type")}, ${bytes.length} B`);
          expect(asset.status, bytes.toString()).toBe(200);
          expect(asset.headers.get("content-type")).toBe(type);
          expect(bytes.equals(readFileSync(join(swaggerUiDir(), file))), `${path}: swagger-ui-dist's bytes`).toBe(true);
        }
      } finally {
        emulator.child.kill("SIGTERM");
      }
      while (!emulator.ended()) await sleep(100);
      expect(emulator.ended(), emulator.printed(1)).toEqual({ code: 0, signal: null });
    },
    2 * START_TIMEOUT,
  );
});

describe.each(TARGETS.filter((target) => target.os === "darwin"))("$os-$arch: what macOS loads", (target) => {
  it("is a Mach-O of its CPU type with the SEA segment, the schema, and an ad-hoc signature that verifies", async () => {
    const name = targetName(target);
    const binary = await unpack(target);
    await unpackCli(target, binary);
    const bytes = readFileSync(binary);
    const macho = readMachO(bytes);
    expect(macho.cputype).toBe(MACHO_CPU[target.arch]);
    const sea = macho.segments.find((segment) => segment.name === "NODE_SEA");
    expect(sea, "postject's NODE_SEA segment").toBeDefined();
    const blob = bytes.subarray(sea!.fileoff, sea!.fileoff + sea!.filesize);
    expect(blob.includes('"name": "webhooks"') && blob.includes(`"version": "${VERSION}"`), "the schema asset").toBe(
      true,
    );
    expect(blob.includes("pulumirpc.ResourceProvider"), "the bundled gRPC server").toBe(true);
    expect(blob.includes("WEBHOOKS_BASE_URL"), "the bundled provider").toBe(true);
    expect(
      Object.keys(seaBlob(bytes).assets).sort(),
      "each door, and no code cache: this one could not make it",
    ).toEqual(SEA_ASSETS);
    // postject flips the fuse Node.js checks at start-up from :0 to :1 when it injects the blob.
    expect(bytes.includes(SEA_FUSE)).toBe(true);
    // The signature is the last thing in the file, after the blob: signed after injection.
    expect(macho.signature?.magic, "an embedded signature SuperBlob").toBe(0xfade0cc0);
    expect(macho.signature!.dataoff).toBeGreaterThan(sea!.fileoff);
    const signature = verifyCodeSignature(bytes, macho);
    expect(signature).toMatchObject({
      identifier: "pulumi-resource-webhooks",
      adHoc: true,
      codeLimit: macho.signature!.dataoff,
    });
    // A second implementation, rcodesign's, hashes the same pages from the bytes to the same values.
    expect(codeHashes(binary)).toEqual(signature.pageHashes);
    log(
      `${name}: Mach-O cputype 0x${macho.cputype.toString(16)}, NODE_SEA ${(sea!.filesize / 1024).toFixed(0)} KiB at ${sea!.fileoff}, ` +
        `ad-hoc signature "${signature.identifier}" at ${macho.signature!.dataoff}: ${signature.pageHashes.length} page hashes ` +
        `(${signature.pageSize} B pages) match the bytes and rcodesign compute-code-hashes`,
    );

    // One changed byte of the blob fails the check: it reads the bytes, not only the signature's presence.
    const tampered = Buffer.from(bytes);
    tampered[sea!.fileoff + 16]! ^= 0xff;
    expect(() => verifyCodeSignature(tampered, readMachO(tampered))).toThrow(
      new RegExp(`page ${Math.floor((sea!.fileoff + 16) / signature.pageSize)} .* hashes to`),
    );
  }, 300_000);
});

describe.each(TARGETS.filter((target) => target.os === "windows" && !isRunnable(target)))(
  "$os-$arch: what Windows loads",
  (target) => {
    it("is a PE32+ for its machine with the SEA resource and the schema", async () => {
      const binary = await unpack(target);
      await unpackCli(target, binary);
      const bytes = readFileSync(binary);
      const pe = readPE(bytes);
      log(`${targetName(target)}: PE machine 0x${pe.machine.toString(16)}, PE32+ ${pe.pe32plus}`);
      expect(pe).toEqual({ machine: PE_MACHINE[target.arch], pe32plus: true });
      // postject's resource is named NODE_SEA_BLOB (UTF-16 in the resource directory).
      expect(bytes.includes(Buffer.from("NODE_SEA_BLOB", "utf16le"))).toBe(true);
      expect(bytes.includes(SEA_FUSE)).toBe(true);
      expect(bytes.includes(`"version": "${VERSION}"`)).toBe(true);
      expect(bytes.includes("pulumirpc.ResourceProvider")).toBe(true);
      expect(
        Object.keys(seaBlob(bytes).assets).sort(),
        "each door, and no code cache: this one could not make it",
      ).toEqual(SEA_ASSETS);
    });
  },
);
