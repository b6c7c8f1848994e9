/**
 * The layers of docs/architecture.md, as the source files import one another: the drift review and
 * the policy pack reach the resource through provider/model.ts, the wire layer and the client
 * only, and no file of theirs, nor of provider/ (every layer and front door), imports, through any
 * path, a file that imports it back. The front doors (the dynamic provider, the Pulumi plugin,
 * the Terraform provider, the CLI) never import one another, and the launcher, which picks the
 * single executable's door, is the one place that knows them all.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..");
const FOLDERS = ["drift", "policy", "adopt"];

/** The repository files a source file imports (relative imports, `import type` and `import("…")` included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const specifiers = [
    ...text.matchAll(/^(?:import|export)\b[^;]*?from "(\.{1,2}\/[^"]+)"/gms),
    ...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g),
  ];
  return specifiers.map((m) => {
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

// Every file, at any depth: a rule that skips subfolders is how a source came to import a front door unnoticed.
const files = FOLDERS.flatMap((folder) => sourcesIn(folder, true));

describe("drift/, policy/ and adopt/", () => {
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

describe("drift/: sources → findings → renderers", () => {
  const drift = sourcesIn("drift", true);

  it("keeps at its top level only the package entry and the review's error type; the rest is in sources/, review/ or render/", () => {
    expect(drift.filter((file) => !file.slice("drift/".length).includes("/"))).toEqual([
      "drift/errors.ts",
      "drift/index.ts",
    ]);
    const layers = new Set(drift.flatMap((file) => file.split("/").slice(1, -1).slice(0, 1)));
    expect([...layers].sort()).toEqual(["render", "review", "sources"]);
  });

  /** Each import from a file of `files` into a file `into` accepts, as `from → to`. */
  const importsInto = (files: readonly string[], into: (target: string) => boolean) =>
    files.flatMap((file) =>
      importsOf(file)
        .filter(into)
        .map((target) => `${file} → ${target}`),
    );

  it("renderers read the model only: no renderer imports a source", () => {
    const renderers = drift.filter((file) => file.startsWith("drift/render/"));
    expect(importsInto(renderers, (t) => t.startsWith("drift/sources/"))).toEqual([]);
  });

  it("sources never render", () => {
    const sources = drift.filter((file) => file.startsWith("drift/sources/"));
    expect(importsInto(sources, (t) => t.startsWith("drift/render/"))).toEqual([]);
  });

  it("the command line and the pipeline commands reach the review only through drift/index.ts", () => {
    const callers = [...sourcesIn("cli", true), ...sourcesIn("pipeline", true)];
    expect(importsInto(callers, (t) => t.startsWith("drift/") && t !== "drift/index.ts")).toEqual([]);
  });
});

describe("adopt/: written over the review", () => {
  it("reaches the review only through drift/index.ts, and the command line reaches it only through adopt/index.ts", () => {
    const into = (files: readonly string[], inside: (t: string) => boolean) =>
      files.flatMap((file) =>
        importsOf(file)
          .filter(inside)
          .map((target) => `${file} → ${target}`),
      );
    expect(into(sourcesIn("adopt", true), (t) => t.startsWith("drift/") && t !== "drift/index.ts")).toEqual([]);
    expect(into(sourcesIn("cli", true), (t) => t.startsWith("adopt/") && t !== "adopt/index.ts")).toEqual([]);
  });
});

describe("provider/", () => {
  // Type-only imports count: two files that take each other's types are one concept split in two.
  it("imports one way: no file reaches itself through its imports, types included", () => {
    expect(circlesAmong(sourcesIn("provider", true))).toEqual([]);
  });
});

/** The product's sources: what a user runs (not the tests, the build scripts or the benches). */
const PRODUCT = [
  "index.ts",
  ...["provider", "emulator", "drift", "adopt", "policy", "engine", "pipeline", "cli", "launcher"].flatMap((folder) =>
    sourcesIn(folder, true),
  ),
];
/** The front doors: how a user reaches the one core. */
const DOORS = {
  dynamic: "provider/dynamic/",
  native: "provider/native/",
  terraform: "provider/terraform/",
  cli: "cli/",
} as const;
/** The single executable's doors, which its launcher picks from (launcher/doors.ts). */
const EXECUTABLE_DOORS = ["native", "terraform", "cli"] as const;
const doorOf = (file: string) =>
  (Object.keys(DOORS) as (keyof typeof DOORS)[]).find((door) => file.startsWith(DOORS[door]));

/** Every product file `file` reaches through its imports, itself left out. */
function reachedFrom(file: string): Set<string> {
  const reached = new Set<string>();
  const visit = (from: string) => {
    for (const next of importsOf(from))
      if (PRODUCT.includes(next) && !reached.has(next)) {
        reached.add(next);
        visit(next);
      }
  };
  visit(file);
  reached.delete(file);
  return reached;
}

describe("the front doors and the launcher", () => {
  it("no provider door (dynamic, native, terraform) reaches another's files, through any path", () => {
    const crossings = PRODUCT.filter((file) => ["dynamic", "native", "terraform"].includes(doorOf(file) ?? "")).flatMap(
      (file) =>
        [...reachedFrom(file)]
          .filter((target) => doorOf(target) !== undefined && doorOf(target) !== doorOf(file))
          .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("no door imports another door's files, nor the launcher", () => {
    const crossings = PRODUCT.filter((file) => doorOf(file) !== undefined).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith("launcher/") || (doorOf(target) && doorOf(target) !== doorOf(file)))
        .map((target) => `${file} → ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("only the launcher imports more than one of the executable's doors (the Pulumi plugin, the Terraform provider, the CLI)", () => {
    const knowing = (file: string) =>
      new Set(
        importsOf(file)
          .map(doorOf)
          .filter((door) => EXECUTABLE_DOORS.some((known) => known === door)),
      );
    expect(PRODUCT.filter((file) => !file.startsWith("launcher/") && knowing(file).size > 1)).toEqual([]);
    // …and the launcher knows each of them.
    const launcher = new Set(sourcesIn("launcher").flatMap((file) => [...knowing(file)]));
    expect([...launcher].sort()).toEqual([...EXECUTABLE_DOORS].sort());
  });
});
