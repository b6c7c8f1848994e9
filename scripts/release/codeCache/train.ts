/**
 * A training launch of the plugin, run at release time by a target's own `node` (natively, under
 * qemu or under wine: ../targets.ts), bundled into one script by ../executables.ts:
 * `node train.js <plugin.js> <plugin dir> <cache file> <done file>`. It runs the bundle as the
 * single executable's entry does (provider/native/bundleScript.ts), so the front door its
 * environment asks for serves; the release drives it through a launch's calls (trainingLaunch.ts),
 * then Shutdown (Terraform's door exits) or the done file (Pulumi's has no Shutdown). On exit it
 * writes V8's code cache of the bundle, which by then holds every function the launch compiled.
 * The plugin dir holds what a non-SEA start reads: schema.json and package.json's version.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileBundle, runBundle } from "../../../provider/native/bundleScript";

const [bundle, pluginDir, cacheFile, doneFile] = process.argv.slice(2);
if (!bundle || !pluginDir || !cacheFile || !doneFile)
  throw new Error("usage: node train.js <plugin.js> <plugin dir> <cache file> <done file>");

const script = compileBundle(readFileSync(bundle, "utf8"));
process.on("exit", (code) => {
  if (code === 0) writeFileSync(cacheFile, script.createCachedData());
});
setInterval(() => {
  if (existsSync(doneFile)) process.exit(0);
}, 50);
runBundle(script, require, join(pluginDir, "index.js"), pluginDir);
