/**
 * A training launch of one door, run at release time by a target's own `node` (natively, under
 * qemu or under wine: ../targets.ts), bundled into one script by ../executables.ts:
 * `node train.js <door> <door bundle> <plugin dir> <cache file> <done file>`. It compiles the
 * door's bundle and starts it as the single executable's entry does (launcher/sea.ts, through
 * launcher/bundleScript.ts and launcher/doors.ts). A plugin door serves; the release drives it
 * through a launch's calls (trainingLaunch.ts), then Shutdown (Terraform's door exits) or the done
 * file (Pulumi's has no Shutdown). The CLI runs CLI_TRAINING and exits. On exit it writes V8's code
 * cache of the bundle, which by then holds every function the launch compiled. The plugin dir
 * holds what a plugin directory holds: schema.json, description.json and package.json's version.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileBundle, runBundle } from "../../../launcher/bundleScript";
import { directoryFiles } from "../../../launcher/directoryFiles";
import { bundleName, DOORS, openDoor, runCli } from "../../../launcher/doors";

/** The engine's address as the engine passes it: nothing listens there, and the launch logs nothing to it. */
const ENGINE = "127.0.0.1:1";
/**
 * The CLI's training: each command's `--help` loads that command's modules (the Automation API's
 * for drift, fastify's and the routes' for the emulator), so their top levels arrive compiled and
 * no start parses the 5 MB bundle again (drift's start: about 560 → 150 ms of CPU on linux-amd64).
 */
const CLI_TRAINING = [
  ["drift", "--help"],
  ["emulator", "--help"],
];

const [name, bundle, pluginDir, cacheFile, doneFile] = process.argv.slice(2);
const door = DOORS.find((known) => known === name);
if (!door || !bundle || !pluginDir || !cacheFile || !doneFile)
  throw new Error(`usage: node train.js <${DOORS.join("|")}> <door bundle> <plugin dir> <cache file> <done file>`);

const script = compileBundle(readFileSync(bundle, "utf8"), bundleName(door));
process.on("exit", (code) => {
  if (code === 0) writeFileSync(cacheFile, script.createCachedData());
});
const exports = runBundle(script, require, join(pluginDir, bundleName(door)), pluginDir);
const files = directoryFiles(pluginDir);
if (door === "cli") {
  void (async () => {
    for (const args of CLI_TRAINING) await runCli(exports, files, args);
    process.exit(0);
  })();
} else {
  setInterval(() => {
    if (existsSync(doneFile)) process.exit(0);
  }, 50);
  openDoor(door, exports, files, door === "pulumi" ? [ENGINE] : []);
}
