/**
 * Loaded with NODE_OPTIONS=--require into the processes the engine starts: in a provider process
 * — the dynamic-provider host, or the native plugin `webhooks` (which the Node.js language host
 * starts as `node …/@pulumi/pulumi/cmd/run-plugin <plugin dir> …`) — it records the process's
 * peak resident set (maxRSS) into $BENCH_RSS_DIR/<pid>.json — every 100 ms and at exit, because
 * the engine may end its plugins with a signal that skips exit handlers. Other Node processes
 * (the host's launcher, the language host's module lookups) are left alone.
 */
"use strict";
/* global require, process, setInterval, module */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS hook for node --require */
const { renameSync, writeFileSync } = require("node:fs");
const { basename, join } = require("node:path");

/**
 * Which provider a process is, from its argv as Node starts it: "dynamic", "native", or
 * undefined for any other process.
 * @param {readonly string[]} argv
 * @returns {"dynamic" | "native" | undefined}
 */
function providerKind(argv) {
  const script = argv[1] ?? "";
  if (script.includes("dynamic-provider")) return "dynamic";
  if (script.includes("run-plugin") && basename(argv[2] ?? "") === "webhooks") return "native";
  return undefined;
}

const dir = process.env.BENCH_RSS_DIR;
const kind = providerKind(process.argv);
if (dir && kind) {
  const file = join(dir, `${process.pid}.json`);
  const partial = `${file}.partial`;
  const record = () => {
    // Written aside and renamed into place: the engine may end the process in the middle of a
    // write, and a truncated record once failed a 50-minute run. maxRSS is in kilobytes.
    writeFileSync(partial, JSON.stringify({ pid: process.pid, kind, maxRssKb: process.resourceUsage().maxRSS }));
    renameSync(partial, file);
  };
  setInterval(record, 100).unref();
  process.on("exit", record);
}

module.exports = { providerKind };
