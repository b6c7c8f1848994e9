/**
 * The layers of docs/architecture.md, as the source files import one another: the drift review and
 * the policy pack reach the resource through provider/model.ts, the wire layer and the client
 * only, and no file of theirs, nor of provider/ (every layer and front door), imports, through any
 * path, a file that imports it back.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const FOLDERS = ["drift", "policy"];

/** The repository files a source file imports (relative imports, `import type` included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/^(?:import|export)\b[^;]*?from "(\.{1,2}\/[^"]+)"/gms)].map((m) => {
    const target = relative(ROOT, resolve(ROOT, dirname(file), m[1]!));
    return readdirSync(join(ROOT, dirname(target))).includes(`${target.split("/").pop()}.ts`)
      ? `${target}.ts`
      : `${target}/index.ts`;
  });
}

/** The TypeScript files of `folder`, with `recursive` those of its subfolders too. */
function sourcesIn(folder: string, recursive = false): string[] {
  return readdirSync(join(ROOT, folder), { recursive })
    .map(String)
    .filter((name) => name.endsWith(".ts"))
    .map((name) => `${folder}/${name}`);
}

/** Files, with what each imports among `files`, that reach themselves again through their imports. */
function circlesAmong(files: readonly string[]): string[] {
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((t) => files.includes(t))]));
  const circles: string[] = [];
  const visit = (file: string, path: string[]): void => {
    if (path.includes(file)) {
      if (path[0] === file) circles.push([...path, file].join(" → "));
      return;
    }
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
  };
  for (const file of files) visit(file, []);
  return circles;
}

const files = FOLDERS.flatMap((folder) => sourcesIn(folder));

describe("drift/ and policy/", () => {
  it("reach the provider through its model, the wire layer and the client only", () => {
    const outside = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith("provider/"))
        .filter((target) => !/^provider\/(model\.ts|wire\/|client\/)/.test(target))
        .map((target) => `${file} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it("import one way: no file reaches itself through its imports", () => {
    expect(circlesAmong(files)).toEqual([]);
  });
});

describe("provider/", () => {
  // Type-only imports count: two files that take each other's types are one concept split in two.
  it("imports one way: no file reaches itself through its imports, types included", () => {
    expect(circlesAmong(sourcesIn("provider", true))).toEqual([]);
  });
});
