/**
 * `npm run dist:terraform` (scripts/release/terraform.ts) on a release folder of stand-in plugin
 * archives, one per platform: the registries' names, the executable's bytes unchanged, the
 * manifest, SHA256SUMS and its signature by a key handed over in the environment, and zips that
 * come out byte for byte the same from another build.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SIGNING_KEY_VARIABLE, SIGNING_PASSPHRASE_VARIABLE, signingKeyFromEnv } from "../../scripts/release/gpgSign";
import { TARGETS, targetName, type Target } from "../../scripts/release/nodeRuntime";
import { executableArchiveName, executableName } from "../../scripts/release/release";
import {
  terraformArtifacts,
  terraformExecutableName,
  terraformManifestName,
  terraformSumsName,
  terraformZipName,
} from "../../scripts/release/terraform";
import { makeSigningKey, verifySignature, type TestSigningKey } from "../support/gpgKey";

const VERSION = "1.2.3";
const scratch = mkdtempSync(join(tmpdir(), "dist-terraform-test-"));
let key: TestSigningKey;

/** The stand-in executable of `target`: bytes that differ per platform. */
const executableBytes = (target: Target) => Buffer.from(`#!/bin/sh\necho ${targetName(target)}\n`);

/** A release folder with a plugin archive per platform, its files stamped `mtime`. */
function releaseFolder(name: string, mtime: Date): string {
  const dir = join(scratch, name);
  for (const target of TARGETS) {
    const folder = join(scratch, `${name}-${targetName(target)}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, executableName(target.os)), executableBytes(target), { mode: 0o755 });
    writeFileSync(join(folder, "LICENSE"), "license\n");
    utimesSync(join(folder, executableName(target.os)), mtime, mtime);
    mkdirSync(dir, { recursive: true });
    const archive = join(dir, executableArchiveName(VERSION, target.os, target.arch));
    execFileSync("tar", ["-czf", archive, "-C", folder, executableName(target.os), "LICENSE"]);
  }
  return dir;
}

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

beforeAll(() => {
  key = makeSigningKey("dist-terraform test", "test passphrase", scratch);
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("writes a zip per platform holding the same executable bytes as terraform-provider-webhooks_v<v>, mode 0755", () => {
  const dir = releaseFolder("named", new Date());
  terraformArtifacts(dir, VERSION, undefined);
  for (const target of TARGETS) {
    const zip = join(dir, terraformZipName(VERSION, target.os, target.arch));
    const entry = terraformExecutableName(VERSION, target.os);
    expect(entry).toBe(`terraform-provider-webhooks_v1.2.3${target.os === "windows" ? ".exe" : ""}`);
    expect(execFileSync("unzip", ["-Z1", zip]).toString()).toBe(`${entry}\n`);
    expect(execFileSync("unzip", ["-p", zip, entry])).toEqual(executableBytes(target));
    expect(execFileSync("unzip", ["-Z", zip, entry]).toString()).toMatch(/^-rwxr-xr-x/);
  }
  expect(
    readdirSync(dir)
      .filter((name) => name.startsWith("terraform-provider-webhooks_"))
      .sort(),
  ).toEqual(
    [
      ...TARGETS.map((target) => `terraform-provider-webhooks_1.2.3_${target.os}_${target.arch}.zip`),
      "terraform-provider-webhooks_1.2.3_SHA256SUMS",
      "terraform-provider-webhooks_1.2.3_manifest.json",
    ].sort(),
  );
  expect(JSON.parse(readFileSync(join(dir, terraformManifestName(VERSION)), "utf8"))).toEqual({
    version: 1,
    metadata: { protocol_versions: ["6.0"] },
  });
});

it("SHA256SUMS lists every zip and the manifest, in sha256sum's format", () => {
  const dir = releaseFolder("sums", new Date());
  terraformArtifacts(dir, VERSION, undefined);
  const sums = readFileSync(join(dir, terraformSumsName(VERSION)), "utf8");
  const listed = sums.trimEnd().split("\n");
  expect(listed).toHaveLength(TARGETS.length + 1);
  for (const name of [...TARGETS.map((t) => terraformZipName(VERSION, t.os, t.arch)), terraformManifestName(VERSION)])
    expect(listed).toContain(`${sha256(join(dir, name))}  ${name}`);
  execFileSync("sha256sum", ["--check", "--strict", terraformSumsName(VERSION)], { cwd: dir });
});

it("the zips are reproducible: the same bytes from archives made at other times, in another time zone", () => {
  const first = releaseFolder("first", new Date("2024-03-01T10:00:00Z"));
  const second = releaseFolder("second", new Date("2026-11-25T23:59:59Z"));
  terraformArtifacts(first, VERSION, undefined);
  const tz = process.env.TZ;
  process.env.TZ = "Pacific/Kiritimati";
  try {
    terraformArtifacts(second, VERSION, undefined);
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
  for (const name of [terraformSumsName(VERSION), ...TARGETS.map((t) => terraformZipName(VERSION, t.os, t.arch))])
    expect(sha256(join(second, name)), name).toBe(sha256(join(first, name)));
});

it("signs SHA256SUMS with the key in the environment: a binary detached signature that gpg verifies", () => {
  const dir = releaseFolder("signed", new Date());
  const signing = signingKeyFromEnv({
    [SIGNING_KEY_VARIABLE]: key.armoredPrivate,
    [SIGNING_PASSPHRASE_VARIABLE]: key.passphrase,
  });
  const written = terraformArtifacts(dir, VERSION, signing);
  const sums = join(dir, terraformSumsName(VERSION));
  expect(written).toContain(`${terraformSumsName(VERSION)}.sig`);
  const signature = readFileSync(`${sums}.sig`);
  expect(signature.toString("latin1")).not.toContain("-----BEGIN PGP SIGNATURE-----");
  expect(verifySignature(key, `${sums}.sig`, sums)).toBe(true);
  // …and not of other bytes.
  writeFileSync(join(scratch, "tampered"), `${readFileSync(sums, "utf8")}tampered\n`);
  expect(verifySignature(key, `${sums}.sig`, join(scratch, "tampered"))).toBe(false);
});

it("a wrong passphrase fails the step, naming the variable to set, never the passphrase", () => {
  const dir = releaseFolder("wrong-passphrase", new Date());
  const signing = { armored: key.armoredPrivate, passphrase: "not the passphrase" };
  expect(() => terraformArtifacts(dir, VERSION, signing)).toThrow(/WEBHOOKS_RELEASE_GPG_PASSPHRASE/);
  try {
    terraformArtifacts(dir, VERSION, signing);
  } catch (err) {
    expect((err as Error).message).not.toContain("not the passphrase");
  }
});

it("a signing-key variable that holds no armored private key is refused, naming the variable", () => {
  expect(() => signingKeyFromEnv({ [SIGNING_KEY_VARIABLE]: "AAAA" })).toThrow(
    /WEBHOOKS_RELEASE_GPG_KEY holds no ASCII-armored private key/,
  );
  expect(signingKeyFromEnv({})).toBeUndefined();
});

it("a missing plugin archive names it and the step to run first", () => {
  const dir = join(scratch, "empty");
  mkdirSync(dir);
  expect(() => terraformArtifacts(dir, VERSION, undefined)).toThrow(
    /pulumi-resource-webhooks-v1\.2\.3-linux-amd64\.tar\.gz is missing; run npm run dist:executables first/,
  );
});
