/**
 * The native provider's SDKs as their users get them (docs/native-provider.md), in a copy of this
 * checkout: sdk/ is what `npm run gen-sdk` generates now; the Python SDK as a wheel in a fresh
 * virtualenv with `pulumi` from PyPI; examples/python and examples/typescript-native run with
 * plain `pulumi` through their language hosts on an emulator (create, no changes, update in
 * place, destroy); examples/go and the Go SDK compile and pass `go vet` (there is no Go language
 * host here to run it); a TypeScript program on `…/native` type-checks against the packed tarball.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PULUMI_VERSION } from "../../engine/provision";
import { resourcesSummary, run, type Result } from "../support/commands";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT, requireLanguageHosts } from "../support/engine";
import { pulumiEnv, writeUserPackage } from "../support/pulumiProject";
import { installPythonSdk } from "../support/pythonSdk";
import { copyRepository } from "../support/repoCopy";
import { testLanguageHostSource } from "../support/toolchain";

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};
const VERSION = manifest.version;
const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];
/** Each example declares its subscriptions under its own path: stacks of two examples never share one. */
const hooksOf = (example: string) => `https://hooks.example.com/${example}`;

let root: string;
let checkout: string;
let service: EmulatorHarness;
let env: NodeJS.ProcessEnv;
const started = Date.now();

/** Every file under `dir`, relative, sorted. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** `pulumi <args> --stack dev` in examples/`example`; logs the transcript's summary line. */
async function pulumi(example: string, args: string[]): Promise<Result> {
  const result = await run("pulumi", [...args, "--stack", "dev"], join(checkout, "examples", example), env);
  const summary = resourcesSummary(result.stdout);
  if (summary) console.log(`[sdks] ${example}: pulumi ${args.join(" ")}: ${summary}`);
  return result;
}

/** The live subscription whose URL is `url` (there must be exactly one). */
async function liveAt(url: string): Promise<Record<string, unknown> & { GUID: string }> {
  const found = (await service.all()).filter((s) => s.SubscriberURL === url);
  expect(found, `subscriptions at ${url}`).toHaveLength(1);
  return found[0]!;
}

/** The example's whole life with plain `pulumi`: create, no changes, update in place, destroy. */
async function lifecycle(example: string, program: string): Promise<void> {
  const packetsUrl = `${hooksOf(example)}/packets`;
  await pulumi(example, ["stack", "init"]);
  await pulumi(example, ["config", "set", "webhooks:baseUrl", service.url]);
  await pulumi(example, ["config", "set", "--secret", "webhooks:token", "dev-builder"]);

  expect((await pulumi(example, ["up", "--yes"])).stdout).toMatch(/\+ 3 created/);
  const outputs = JSON.parse((await pulumi(example, ["stack", "output", "--show-secrets", "--json"])).stdout) as {
    packetCreatedGuid: string;
    packetCreatedSignature: string;
    objectCreatedGuid: string;
    objectCreatedEvent: string;
  };
  const packets = await liveAt(packetsUrl);
  expect(packets).toMatchObject({
    GUID: outputs.packetCreatedGuid,
    Signature: outputs.packetCreatedSignature,
    CustomHeader: "X-Api-Key",
    CustomHeaderValue: "change-me",
  });
  expect((await liveAt(`${hooksOf(example)}/objects`)).GUID).toBe(outputs.objectCreatedGuid);
  expect(outputs.objectCreatedEvent).toBe("BusinessObjectCreated");

  expect((await pulumi(example, ["preview", "--expect-no-changes"])).stdout).toMatch(/3 unchanged/);

  const file = join(checkout, "examples", example, program);
  const text = readFileSync(file, "utf8");
  expect(text).toContain(`"${packetsUrl}"`);
  writeFileSync(file, text.replace(`"${packetsUrl}"`, `"${packetsUrl}-v2"`));
  expect((await pulumi(example, ["up", "--yes"])).stdout).toMatch(/~ 1 updated/);
  const updated = await liveAt(`${packetsUrl}-v2`);
  expect(updated.GUID).toBe(packets.GUID);
  expect(updated.Signature).toBe(packets.Signature);

  expect((await pulumi(example, ["destroy", "--yes"])).stdout).toMatch(/- 3 deleted/);
  expect(await service.all()).toEqual([]);
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-python", "pulumi-language-nodejs"]);
  root = mkdtempSync(join(tmpdir(), "sdks-e2e-"));
  checkout = join(root, "checkout");
  // The checkout's files as they are now (committed or not): sdk/ as it would be committed.
  await copyRepository(checkout, { build: false });
  await run("npm", ["run", "build:plugin"], checkout);
  service = await EmulatorHarness.start();
  env = pulumiEnv(engine, root, "sdks-passphrase");
}, 900_000);

afterAll(async () => {
  await service?.close();
  if (root) rmSync(root, { recursive: true, force: true });
  console.log(`[sdks] wall time ${((Date.now() - started) / 1000).toFixed(0)} s`);
});

it("sdk/ is what `npm run gen-sdk` generates from the schema now (else: run it and commit sdk/)", async () => {
  const generated = join(root, "generated");
  await run("npm", ["run", "gen-sdk", "--", "--out", generated], checkout, {
    WEBHOOKS_LANGUAGE_HOST_SOURCE: testLanguageHostSource(),
  });
  const committed = join(checkout, "sdk");
  expect(files(committed)).toEqual(files(generated));
  for (const file of files(generated))
    expect(readFileSync(join(committed, file), "utf8"), `sdk/${file}`).toBe(
      readFileSync(join(generated, file), "utf8"),
    );
  // Every SDK asks the engine for the package's version of the plugin.
  for (const plugin of ["python/pulumi_webhooks/pulumi-plugin.json", "go/webhooks/pulumi-plugin.json"])
    expect(JSON.parse(readFileSync(join(committed, plugin), "utf8"))).toMatchObject({
      name: "webhooks",
      version: VERSION,
    });
  expect(readFileSync(join(committed, "python/pyproject.toml"), "utf8")).toContain(`version = "${VERSION}"`);
  expect(JSON.parse(readFileSync(join(committed, "nodejs/package.json"), "utf8"))).toMatchObject({ version: VERSION });
}, 600_000);

describe("Python: the SDK as a wheel in a fresh virtualenv, examples/python with `pulumi`", () => {
  it("the wheel installs with pulumi from PyPI at the CLI's version", async () => {
    const venv = await installPythonSdk(checkout, join(checkout, "examples", "python"));
    expect(venv.wheels).toEqual([`pulumi_webhooks-${VERSION}-py3-none-any.whl`]);
    console.log(`[sdks] ${venv.installed}`);
    const versions = await run(
      venv.python,
      ["-c", "import importlib.metadata as m; print(m.version('pulumi_webhooks'), m.version('pulumi'))"],
      root,
    );
    expect(versions.stdout.trim()).toBe(`${VERSION} ${PULUMI_VERSION}`);
  }, 600_000);

  it("create, no changes, update in place, destroy", () => lifecycle("python", "__main__.py"), 600_000);
});

it(
  "TypeScript: examples/typescript-native with `pulumi`: create, no changes, update in place, destroy",
  () => lifecycle("typescript-native", "index.ts"),
  600_000,
);

it("Go: examples/go and the SDK compile and pass go vet", async () => {
  const example = join(checkout, "examples", "go");
  // go.mod and go.sum pin every module; never switch toolchains behind the user's back.
  const goEnv = { GOFLAGS: "-mod=readonly", GOTOOLCHAIN: "local" };
  await run("go", ["vet", "./...", "pulumi-webhook-subscriptions/sdk/go/webhooks"], example, goEnv);
  const binary = join(root, "webhooks-go");
  await run("go", ["build", "-o", binary, "."], example, goEnv);
  expect(statSync(binary).mode & 0o111, "go build wrote an executable").not.toBe(0);
}, 900_000);

it("TypeScript: a program on `pulumi-webhook-subscriptions/native` type-checks against the packed tarball", async () => {
  // prepack rebuilds dist/ (the plugin goes): this runs last.
  await run("npm", ["pack", "--pack-destination", root, ...NPM], checkout);
  const user = join(root, "user");
  mkdirSync(user);
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version: string }>;
  };
  const pinned = (name: string) => lock.packages[`node_modules/${name}`]!.version;
  writeUserPackage(user, {
    sdk: pinned("@pulumi/pulumi"),
    tarball: join(root, `pulumi-webhook-subscriptions-${VERSION}.tgz`),
    devDependencies: { typescript: pinned("typescript"), "@types/node": pinned("@types/node") },
  });
  await run("npm", ["install", ...NPM], user);
  for (const file of ["index.ts", "tsconfig.json"])
    writeFileSync(join(user, file), readFileSync(join(checkout, "examples", "typescript-native", file)));
  await run(join(user, "node_modules", ".bin", "tsc"), ["--noEmit", "-p", "."], user);
  expect(
    readFileSync(
      join(user, "node_modules", "pulumi-webhook-subscriptions", "dist", "sdk", "nodejs", "package.json"),
      "utf8",
    ),
  ).toContain(`"version": "${VERSION}"`);
}, 900_000);
