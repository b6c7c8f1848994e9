import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  buildLanguageHosts,
  LANGUAGE_HOST_SOURCE_VARIABLE,
  LANGUAGE_HOSTS,
  languageHostSource,
  missingLanguageHosts,
} from "../../engine/languageHosts";

describe("languageHostSource", () => {
  const made: string[] = [];
  const folder = (files: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), "engine-src-"));
    made.push(dir);
    for (const file of files) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), "");
    }
    return dir;
  };
  const complete = ["build.sh", ...LANGUAGE_HOSTS.map((host) => `${host}/go.mod`)];
  // .ci/run sets the variable for the whole run: each test starts without it and leaves it as it was.
  const outside = process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  beforeEach(() => {
    delete process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
  });
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    if (outside === undefined) delete process.env[LANGUAGE_HOST_SOURCE_VARIABLE];
    else process.env[LANGUAGE_HOST_SOURCE_VARIABLE] = outside;
  });

  it("is none when neither the option nor the variable names a folder: no hosts are built", () => {
    expect(languageHostSource()).toBeUndefined();
  });

  it("takes the option before the variable, and a relative path from the working directory", () => {
    const fromOption = folder(complete);
    process.env[LANGUAGE_HOST_SOURCE_VARIABLE] = relative(process.cwd(), folder(complete));
    expect(languageHostSource(fromOption)).toBe(fromOption);
    expect(languageHostSource()).toBe(made[1]);
  });

  it("refuses a folder not laid out like ../shared/engine-src, naming the variable, the folder and what it lacks", () => {
    const dir = folder(["build.sh", "nodejs/go.mod"]);
    process.env[LANGUAGE_HOST_SOURCE_VARIABLE] = dir;
    expect(() => languageHostSource()).toThrow(
      `${LANGUAGE_HOST_SOURCE_VARIABLE}=${dir} (${dir}) is not a language-host source folder: it lacks python/go.mod, yaml/go.mod, go/go.mod, java/go.mod.`,
    );
  });
});

describe("buildLanguageHosts", () => {
  let dir: string;
  let source: string;
  let binDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "language-hosts-"));
    source = join(dir, "engine-src");
    binDir = join(dir, "engine", "bin");
    mkdirSync(source);
    mkdirSync(binDir, { recursive: true });
    // Stands in for ../shared/engine-src/build.sh: records the hosts asked for, writes a binary for each.
    writeFileSync(
      join(source, "build.sh"),
      'out=$1; shift; for h in "$@"; do echo "$h" >> "$(dirname "$0")/asked"; echo "$h" > "$out/pulumi-language-$h"; done\n',
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  // Sorted: the hosts are built side by side, so they start in any order.
  const asked = () => readFileSync(join(source, "asked"), "utf8").trim().split("\n").sort();

  it("builds every host into an empty bin directory, and nothing once all are there", async () => {
    await buildLanguageHosts(source, binDir, () => {});
    expect(asked()).toEqual([...LANGUAGE_HOSTS].sort());
    expect(missingLanguageHosts(binDir)).toEqual([]);
    await buildLanguageHosts(source, binDir, () => {});
    expect(asked()).toEqual([...LANGUAGE_HOSTS].sort());
  });

  it("builds only the hosts a cache lacks (a host added after the cache was filled), and leaves no scratch folder", async () => {
    writeFileSync(join(binDir, "pulumi-language-nodejs"), "cached");
    writeFileSync(join(binDir, "pulumi-language-python"), "cached");
    writeFileSync(join(binDir, "pulumi-language-go"), "cached");
    writeFileSync(join(binDir, "pulumi-language-java"), "cached");
    expect(missingLanguageHosts(binDir)).toEqual(["yaml"]);
    await buildLanguageHosts(source, binDir, () => {});
    expect(asked()).toEqual(["yaml"]);
    expect(readFileSync(join(binDir, "pulumi-language-nodejs"), "utf8")).toBe("cached");
    expect(readFileSync(join(binDir, "pulumi-language-python"), "utf8")).toBe("cached");
    expect(readFileSync(join(binDir, "pulumi-language-yaml"), "utf8")).toBe("yaml\n");
    expect(readdirSync(join(binDir, "..")).filter((name) => name.startsWith("language-hosts.tmp"))).toEqual([]);
  });
});
