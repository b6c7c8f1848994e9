/**
 * Lets a plain Node.js process `require` a TypeScript program, the way the Node.js language host
 * does: ts-node and typescript from the program's own dependencies when it has them, else the
 * copies vendored in @pulumi/pulumi. Used by the program runner when no TypeScript hook (tsx,
 * ts-node) is loaded already.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { gte } from "semver";

interface TsNode {
  register(options: Record<string, unknown>): unknown;
}

let registered = false;

/** Registers ts-node once per process for programs in `workDir`. Transpiles only: type checks are `tsc`'s job. */
/* eslint-disable @typescript-eslint/no-require-imports -- modules found at run time, by path */
export function registerTypeScript(workDir: string): void {
  if (registered || require.extensions[".ts"]) return;
  let strings: { tsnodeRequire: string; typescriptRequire: string };
  try {
    // The language host's own lookup (project copy first, vendored copy second); resolved from the program's SDK.
    const tsutils = require(require.resolve("@pulumi/pulumi/tsutils", { paths: [workDir, __dirname] })) as {
      typeScriptRequireStrings(): { tsnodeRequire: string; typescriptRequire: string };
    };
    strings = tsutils.typeScriptRequireStrings();
  } catch (err) {
    throw new Error(
      `Cannot load TypeScript for the program in ${workDir} (${(err as Error).message}). ` +
        "Add typescript and ts-node to the project's devDependencies, or write the program in JavaScript.",
      { cause: err },
    );
  }
  const tsconfig = join(workDir, "tsconfig.json");
  const tsNode = require(strings.tsnodeRequire) as TsNode;
  const typescript = require(strings.typescriptRequire) as { version: string };
  // As the language host: nodenext from TypeScript 4.7 on (newer releases reject "node"), commonjs before.
  const nodeNext = gte(typescript.version, "4.7.0");
  tsNode.register({
    compiler: strings.typescriptRequire,
    transpileOnly: true,
    project: tsconfig,
    skipProject: !existsSync(tsconfig),
    compilerOptions: {
      target: "ES2020",
      module: nodeNext ? "nodenext" : "commonjs",
      moduleResolution: nodeNext ? "nodenext" : "node",
    },
  });
  registered = true;
}
/* eslint-enable @typescript-eslint/no-require-imports */
