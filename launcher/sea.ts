/**
 * The single executable's main script (scripts/release/executables.ts), a few lines: it picks the
 * door (pickDoor.ts), compiles that door's bundle, the asset `<door>.js`, with the V8 code cache
 * the release trained on a launch of that door (`<door>.codecache`; bundleScript.ts says why), and
 * starts it. The other doors' bundles are never read. A target whose runtime could not run where
 * the release was built has no caches: it compiles as it goes.
 */
import { getAsset } from "node:sea";
import { compileBundle, runBundle } from "./bundleScript";
import { optionalAsset, seaFiles } from "./seaFiles";
import { bundleName, openDoor } from "./doors";
import { pickDoor } from "./pickDoor";

// Node.js puts the executable's path at argv[1] too: the arguments start at 2.
const args = process.argv.slice(2);
const door = pickDoor({ args, env: process.env, names: [process.argv0, process.execPath] });
const cache = optionalAsset(`${door}.codecache`);
const script = compileBundle(getAsset(bundleName(door), "utf8"), bundleName(door), cache);
// Only a broken release gets here (a cache made by another runtime): it still works, slower.
if (cache && script.cachedDataRejected)
  process.stderr.write("pulumi-resource-webhooks: V8 rejected the executable's code cache; starting without it\n");
openDoor(door, runBundle(script, require, __filename, __dirname), seaFiles(), args);
