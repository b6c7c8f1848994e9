/**
 * Loaded with NODE_OPTIONS=--require into the processes the engine starts: in the
 * dynamic-provider host it records the process's peak resident set (maxRSS) into
 * $BENCH_RSS_DIR/<pid>.json — every 100 ms and at exit, because the engine may end its plugins
 * with a signal that skips exit handlers. Other Node processes (the host's launcher) are left alone.
 */
"use strict";
/* global require, process, setInterval */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS hook for node --require */
const { renameSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.BENCH_RSS_DIR;
if (dir && (process.argv[1] ?? "").includes("dynamic-provider")) {
  const file = join(dir, `${process.pid}.json`);
  const partial = `${file}.partial`;
  const record = () => {
    // Written aside and renamed into place: the engine may end the process in the middle of a
    // write, and a truncated record once failed a 50-minute run. maxRSS is in kilobytes.
    writeFileSync(partial, JSON.stringify({ pid: process.pid, maxRssKb: process.resourceUsage().maxRSS }));
    renameSync(partial, file);
  };
  setInterval(record, 100).unref();
  process.on("exit", record);
}
