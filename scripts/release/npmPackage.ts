/**
 * `npm run dist:npm`: `dist/release/pulumi-webhook-subscriptions-<v>.tgz`, the npm package as
 * `npm publish` would upload it (`npm pack`: its prepack builds dist/ and strips `prepare`).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { describe, releaseDir, ROOT, runStep } from "./release";

runStep(async () => {
  const out = releaseDir();
  const name = execFileSync("npm", ["pack", "--pack-destination", out, "--loglevel=error"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .pop()!;
  console.log(describe(path.join(out, name)));
});
