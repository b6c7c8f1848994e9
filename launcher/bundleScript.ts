/**
 * A door's bundle as a V8 script of its own, so that its code cache can be one trained on a real
 * launch: Node.js's SEA `useCodeCache` compiles the main script before it runs, so its cache holds
 * the top level alone and every function a launch calls is compiled again at each start. The
 * single executable's entry (sea.ts) runs the picked door's bundle through here with the cache the
 * release made for it (scripts/release/codeCache/), and the release's training run makes that
 * cache through here too: V8 accepts a cache only for the very source it was made from, wrapper
 * included.
 */
import { Script } from "node:vm";

/** The bundle's CommonJS module scope, as Node.js's own module wrapper has it. */
type ModuleFunction = (
  exports: unknown,
  require: NodeJS.Require,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/**
 * The bundle's source, compiled with `cachedData` when there is one; `filename` names it in stack
 * traces. A leading `#!` line (the CLI's entry has one, which esbuild keeps) is blanked, as
 * Node.js's own loader does: inside the wrapper it would be a syntax error.
 */
export function compileBundle(source: string, filename: string, cachedData?: Buffer): Script {
  const code = source.startsWith("#!") ? source.replace(/^#!.*/, "") : source;
  return new Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename,
    ...(cachedData ? { cachedData } : {}),
  });
}

/** Runs the compiled bundle as a CommonJS module whose `require` is `require`; returns its exports. */
export function runBundle(script: Script, require: NodeJS.Require, filename: string, dirname: string): unknown {
  const module = { exports: {} };
  (script.runInThisContext() as ModuleFunction)(module.exports, require, module, filename, dirname);
  return module.exports;
}
