/** Where a program directory's entry is found: TypeScript and JavaScript, `main` as a folder or a file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { programEntry } from "../../engine/automation";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A program directory holding `files` (path → content). */
function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "program-entry-"));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe("programEntry", () => {
  it("takes index.ts, else index.js, in the project directory", () => {
    const ts = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n", "index.ts": "", "index.js": "" });
    expect(programEntry(ts)).toBe(join(ts, "index.ts"));
    const js = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n", "index.js": "" });
    expect(programEntry(js)).toBe(join(js, "index.js"));
  });

  it("follows Pulumi.yaml's main, to a folder or to a file", () => {
    const folder = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: infra/\n", "infra/index.js": "" });
    expect(programEntry(folder)).toBe(join(folder, "infra", "index.js"));
    const file = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\nmain: src/app.js\n", "src/app.js": "" });
    expect(programEntry(file)).toBe(join(file, "src", "app.js"));
  });

  it("follows package.json's main in the program folder, as the language host does", () => {
    const dir = project({
      "Pulumi.yaml": "name: p\nruntime: nodejs\n",
      "package.json": JSON.stringify({ main: "bin/program.js" }),
      "bin/program.js": "",
      "index.ts": "",
    });
    expect(programEntry(dir)).toBe(join(dir, "bin", "program.js"));
  });

  it("says what it looked for when there is no entry", () => {
    const dir = project({ "Pulumi.yaml": "name: p\nruntime: nodejs\n" });
    expect(() => programEntry(dir)).toThrow(`No program entry in ${dir}: expected index.ts or index.js`);
  });
});
