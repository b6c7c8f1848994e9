import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LANGUAGE_HOST_SOURCE_VARIABLE, LANGUAGE_HOSTS, languageHostSource } from "../../engine/languageHosts";

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
      `${LANGUAGE_HOST_SOURCE_VARIABLE}=${dir} (${dir}) is not a language-host source folder: it lacks python/go.mod.`,
    );
  });
});
