/**
 * docs/architecture.md's layout is the tree in git: every top-level folder and every folder inside
 * the code folders is named there, and every name there exists. A folder added, moved or removed
 * without the page following fails here, naming it.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";

const PAGE = "docs/architecture.md";
/** Folders whose every sub-folder, however deep, is a part of the code's layout. */
const SOURCE_FOLDERS = ["provider", "drift", "adopt", "policy", "emulator", "cli", "launcher", "scripts"];
/** Folders whose content is the page's business only one level down (docs/ holds pages, not code). */
const NOT_LISTED_INSIDE = ["docs"];

/** The layout block: the first fenced block under `## The layout`. */
export function layoutBlock(markdown: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith("The layout\n"));
  const block = section?.match(/^```\w*\n([\s\S]*?)^```$/m)?.[1];
  if (!block) throw new Error(`${PAGE} has no "## The layout" section with a fenced block`);
  return block.split("\n");
}

/**
 * The paths the layout names: an entry is a line with at most 18 spaces before its name (two per
 * level, inside the entry above it with fewer), then two spaces or the line's end; a deeper line
 * continues the description above it. A name ending in `/` is a folder.
 */
export function layoutEntries(lines: readonly string[]): string[] {
  const parents: string[] = [];
  const entries: string[] = [];
  for (const line of lines) {
    const match = /^( {0,18})(\S+)(?: {2}|$)/.exec(line);
    if (!match) continue;
    const indent = match[1]!.length;
    if (indent % 2 !== 0) throw new Error(`${PAGE}: "${line.trim()}" is indented by an odd number of spaces`);
    const level = indent / 2;
    if (level > parents.length) throw new Error(`${PAGE}: "${line.trim()}" is indented deeper than the entry above it`);
    parents.length = level;
    const path = parents.join("") + match[2]!;
    entries.push(path);
    if (path.endsWith("/")) parents.push(match[2]!);
    else parents.push(`${match[2]!}/`);
  }
  return entries;
}

/** The folders the page must name, from the files git tracks. */
export function requiredFolders(files: readonly string[]): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    if (parts.length === 0) continue;
    folders.add(`${parts[0]}/`);
    if (NOT_LISTED_INSIDE.includes(parts[0]!)) continue;
    const depth = SOURCE_FOLDERS.includes(parts[0]!) ? parts.length : Math.min(parts.length, 2);
    for (let i = 2; i <= depth; i++) folders.add(`${parts.slice(0, i).join("/")}/`);
  }
  return [...folders].sort();
}

/** Every path on `markdown` that starts with one of `topLevel` (`provider/`, …), without a trailing `/` or `.`. */
export function pathsNamed(markdown: string, topLevel: readonly string[]): string[] {
  const roots = topLevel.map((folder) => folder.replaceAll(".", "\\.")).join("|");
  const found = markdown.matchAll(new RegExp(`(?<![\\w./…-])(?:${roots})[\\w./-]*`, "g"));
  return [...new Set([...found].map(([path]) => path.replace(/[/.]+$/, "")))];
}

const tracked = () =>
  execFileSync("git", ["ls-files", "-z"], { cwd: REPO_ROOT, encoding: "utf8", maxBuffer: 2 ** 28 })
    .split("\0")
    .filter(Boolean);

describe(PAGE, () => {
  const entries = layoutEntries(layoutBlock(readFileSync(join(REPO_ROOT, PAGE), "utf8")));
  const files = tracked();

  it("names every top-level folder, and every folder inside the code folders, that git tracks", () => {
    const missing = requiredFolders(files).filter((folder) => !entries.includes(folder));
    expect(missing, `folders in git that ${PAGE}'s layout does not name`).toEqual([]);
  });

  it("names only what exists in git: each folder holds a tracked file, each file is tracked", () => {
    const absent = entries.filter((path) =>
      path.endsWith("/") ? !files.some((file) => file.startsWith(path)) : !files.includes(path),
    );
    expect(entries.length).toBeGreaterThan(40);
    expect(absent, `names in ${PAGE}'s layout that git does not track`).toEqual([]);
  });

  it("names only paths that exist, in its prose and diagrams too", () => {
    const page = readFileSync(join(REPO_ROOT, PAGE), "utf8");
    const named = pathsNamed(
      page,
      requiredFolders(files).filter((folder) => !folder.slice(0, -1).includes("/")),
    );
    expect(named.length).toBeGreaterThan(10);
    const absent = named.filter((path) => !files.some((file) => file === path || file.startsWith(`${path}/`)));
    expect(absent, `paths ${PAGE} names that git does not track`).toEqual([]);
  });

  it("names each path once in its layout", () => {
    expect(entries.filter((path, i) => entries.indexOf(path) !== i)).toEqual([]);
  });
});

describe("reading the layout", () => {
  it("nests an indented name inside the entry above it, and skips description lines", () => {
    const lines = [
      "provider/                the resource",
      "  terraform/             door 3, its description",
      "                         continues here (not/a/path/)",
      "    goPlugin/            the handshake",
      "  model.ts               the model",
      "index.ts                 the entry",
    ];
    expect(layoutEntries(lines)).toEqual([
      "provider/",
      "provider/terraform/",
      "provider/terraform/goPlugin/",
      "provider/model.ts",
      "index.ts",
    ]);
  });

  it("finds the paths of a page's prose, whatever follows them", () => {
    const text =
      "the lifecycle (provider/core/lifecycle.ts), provider/description/. Not core/x.ts, …/client or dist/y.";
    expect(pathsNamed(text, ["provider/", "dist/"])).toEqual([
      "provider/core/lifecycle.ts",
      "provider/description",
      "dist/y",
    ]);
  });

  it("requires the folders of the code folders at every depth, of the others one level down, of docs/ none", () => {
    expect(
      requiredFolders([
        "README.md",
        "provider/terraform/goPlugin/serve.ts",
        "engine/wrapper/v3.248.0/go.mod",
        "docs/terraform-registry/docs/index.md",
      ]),
    ).toEqual([
      "docs/",
      "engine/",
      "engine/wrapper/",
      "provider/",
      "provider/terraform/",
      "provider/terraform/goPlugin/",
    ]);
  });
});
