/**
 * `npm start`'s launcher (scripts/start.ts is the command). When dist/ is up to date with the
 * sources (scripts/build.ts's check), it runs the built dist/scripts/start.js in plain Node.js:
 * tsx's loader hooks would see every module the run loads and about double the time Node.js takes
 * to load @pulumi/pulumi (~0.5 s of CPU a run). Otherwise — sources changed, or no build yet — it
 * runs scripts/start.ts through tsx, which builds dist/ first. Plain JavaScript, so that Node.js
 * runs it as it is.
 */
"use strict";
/* global require, process, console, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS script that Node.js runs as it is */
const { spawnSync } = require("node:child_process");
const { join } = require("node:path");

/** dist/scripts/build.js's isUpToDate, or undefined when there is no build of it yet. */
function builtCheck() {
  try {
    return require("../dist/scripts/build.js").isUpToDate;
  } catch {
    return undefined;
  }
}

const isUpToDate = builtCheck();
if (isUpToDate?.()) {
  require("../dist/scripts/start.js");
} else {
  const args = [require.resolve("tsx/cli"), join(__dirname, "start.ts"), ...process.argv.slice(2)];
  const run = spawnSync(process.execPath, args, { stdio: "inherit" });
  if (run.error) {
    console.error(`[start] failed: ${run.error.message}`);
    process.exit(1);
  }
  process.exit(run.status ?? 1);
}
