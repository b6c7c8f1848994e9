/**
 * scripts/build.ts on a project of the repository's shape (two tsconfigs, the SDK's package.json,
 * the bin): a second build with nothing changed does nothing, a change is built incrementally,
 * and what that leaves in dist/ is, byte for byte, what a clean build of the same sources makes.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { build } from "../../scripts/build";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function project(): string {
  const root = mkdtempSync(join(tmpdir(), "build-"));
  dirs.push(root);
  const files: Record<string, string> = {
    "package.json": '{ "name": "p", "version": "1.0.0" }\n',
    "tsconfig.json": JSON.stringify({
      compilerOptions: {
        module: "commonjs",
        target: "ES2022",
        declaration: true,
        outDir: "dist",
        rootDir: ".",
        types: [],
      },
      include: ["index.ts", "cli/**/*.ts"],
    }),
    // Comments, as the repository's has: read as tsc reads it.
    "tsconfig.native.json": '// the SDK\n{ "extends": "./tsconfig.json", "include": ["sdk/nodejs/**/*.ts"] }\n',
    "sdk/nodejs/package.json": '{ "name": "sdk" }\n',
    "sdk/nodejs/index.ts": 'export { greet } from "../../index";\n',
    "index.ts": "export const greet = (name: string): string => `hello ${name}`;\n",
    "cli/index.ts": 'import { greet } from "../index";\nconsole.log(greet("cli"));\n',
    "cli/old.ts": "export const OLD = 1;\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

/** Every file of dist/ but the release's, with its bytes. */
function tree(dist: string, dir = ""): Record<string, string> {
  return Object.fromEntries(
    readdirSync(join(dist, dir), { withFileTypes: true })
      .filter((entry) => !(dir === "" && entry.name === "release"))
      .flatMap((entry) =>
        entry.isDirectory()
          ? Object.entries(tree(dist, join(dir, entry.name)))
          : [[join(dir, entry.name), readFileSync(join(dist, dir, entry.name), "utf8")]],
      ),
  );
}

it(
  "skips an unchanged build, builds a change incrementally, and leaves the dist/ a clean build makes",
  { timeout: 120_000 },
  () => {
    const root = project();
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(build({ root, log })).toBe("clean");
    expect(build({ root, log })).toBe("up to date");
    expect(lines).toHaveLength(1);

    // A source changed, one deleted (its outputs must go), one added; the release's artifacts stay.
    writeFileSync(join(root, "index.ts"), "export const greet = (name: string): string => `hi ${name}`;\n");
    rmSync(join(root, "cli/old.ts"));
    writeFileSync(join(root, "cli/new.ts"), "export const NEW = 2;\n");
    mkdirSync(join(root, "dist/release"));
    writeFileSync(join(root, "dist/release/artifact.tgz"), "kept");
    expect(build({ root, log })).toBe("incremental");
    expect(existsSync(join(root, "dist/cli/old.js"))).toBe(false);
    expect(readFileSync(join(root, "dist/release/artifact.tgz"), "utf8")).toBe("kept");
    expect(build({ root, log })).toBe("up to date");

    // Only added, nothing else touched: a new file, then one in a new folder (the check reads
    // the last build's file list while no source folder changed, so these must move a folder).
    writeFileSync(join(root, "cli/more.ts"), "export const MORE = 3;\n");
    expect(build({ root, log })).toBe("incremental");
    mkdirSync(join(root, "cli/sub"));
    writeFileSync(join(root, "cli/sub/extra.ts"), "export const EXTRA = 4;\n");
    expect(build({ root, log })).toBe("incremental");
    expect(existsSync(join(root, "dist/cli/sub/extra.js"))).toBe(true);
    expect(build({ root, log })).toBe("up to date");

    const clean = mkdtempSync(join(tmpdir(), "build-clean-"));
    dirs.push(clean);
    cpSync(root, clean, { recursive: true });
    rmSync(join(clean, "node_modules", ".cache"), { recursive: true }); // the build info
    expect(build({ root: clean, log })).toBe("clean");
    expect(tree(join(root, "dist"))).toEqual(tree(join(clean, "dist")));
    expect(Object.keys(tree(join(root, "dist")))).toContain("sdk/nodejs/package.json");

    // dist/ changed by something else: not trusted, built whole again.
    writeFileSync(join(root, "dist/index.js"), "tampered");
    expect(build({ root, log })).toBe("clean");
    expect(readFileSync(join(root, "dist/index.js"), "utf8")).toContain("hi ");
  },
);
