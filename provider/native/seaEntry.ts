/**
 * The single executable's entry (scripts/release/executables.ts): it runs the bundled plugin, the
 * asset `plugin.js` (provider/native/main.ts and all it uses), with the V8 code cache the release
 * trained on a launch of the front door being started, `terraform.codecache` when Terraform or
 * OpenTofu started it (go-plugin's cookie), `pulumi.codecache` otherwise (bundleScript.ts says
 * why). A target whose runtime could not run where the release was built has no cache, and starts
 * the same, compiling as it goes.
 */
import { getAsset } from "node:sea";
import { startedAsTerraformProvider } from "../terraform/goPlugin/handshake";
import { compileBundle, runBundle } from "./bundleScript";

/** The asset `name`, or undefined when the release made none. */
function asset(name: string): Buffer | undefined {
  try {
    return Buffer.from(getAsset(name));
  } catch {
    return undefined;
  }
}

const cache = asset(startedAsTerraformProvider() ? "terraform.codecache" : "pulumi.codecache");
const script = compileBundle(getAsset("plugin.js", "utf8"), cache);
// Only a broken release gets here (a cache made by another runtime): it still works, slower.
if (cache && script.cachedDataRejected)
  process.stderr.write("pulumi-resource-webhooks: V8 rejected the executable's code cache; starting without it\n");
runBundle(script, require, __filename, __dirname);
