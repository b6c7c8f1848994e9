/**
 * `npm run dist:plugin`: `dist/release/pulumi-resource-webhooks-v<v>.tgz`, the `runtime: nodejs`
 * plugin (scripts/buildPlugin.ts), the fallback for a platform without an executable:
 * `pulumi plugin install resource webhooks <v> --file <tgz>`.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import * as path from "node:path";
import { describe, PLUGIN_BINARY, releaseDir, releaseVersion, ROOT, runStep } from "./release";

runStep(async () => {
  execFileSync(process.execPath, [require.resolve("tsx/cli"), path.join(ROOT, "scripts/buildPlugin.ts")], {
    cwd: ROOT,
    stdio: "inherit",
  });
  const name = `${PLUGIN_BINARY}-v${releaseVersion()}.tgz`;
  const file = path.join(releaseDir(), name);
  copyFileSync(path.join(ROOT, "dist/plugin", name), file);
  console.log(describe(file));
});
