/**
 * scripts/release/targets.ts: which targets this machine runs, and the refusal on any machine
 * other than the linux-amd64 one RUNNABLE is written for (`npm run dist` on a Mac said only
 * "linux-amd64 cannot run on this machine" before).
 */
import { afterEach, expect, it } from "vitest";
import { TARGETS, targetName, targetsNamed } from "../../scripts/release/nodeRuntime";
import { ensureTargetTools, runnableTargets } from "../../scripts/release/targets";

const real = { platform: process.platform, arch: process.arch };
const pretend = (platform: string, arch: string) => {
  Object.defineProperty(process, "platform", { value: platform, configurable: true });
  Object.defineProperty(process, "arch", { value: arch, configurable: true });
};

afterEach(() => pretend(real.platform, real.arch));

it("the runnable targets are linux-amd64, linux-arm64 and windows-amd64, of the release's six", () => {
  expect(TARGETS).toHaveLength(6);
  expect(runnableTargets().map(targetName)).toEqual(["linux-amd64", "linux-arm64", "windows-amd64"]);
});

it.each([
  ["darwin", "arm64"],
  ["linux", "arm64"],
  ["win32", "x64"],
])("on %s-%s, running any target's programs is refused, naming the machine and what to do", (platform, arch) => {
  pretend(platform, arch);
  for (const target of runnableTargets())
    expect(() => ensureTargetTools(target)).toThrow(
      new RegExp(
        `^running ${targetName(target)}'s programs needs a linux-amd64 machine .*this one is ${platform}-${arch}\\. ` +
          "Run it on such a machine, or let release.yml build the release\\.$",
      ),
    );
});

it("a release step's --target names targets of the six; an unknown one is refused, naming the valid ones", () => {
  expect(targetsNamed("dist:terraform", undefined)).toEqual(TARGETS);
  expect(targetsNamed("dist:terraform", ["windows-amd64", "linux-amd64"]).map(targetName)).toEqual([
    "linux-amd64",
    "windows-amd64",
  ]);
  expect(() => targetsNamed("dist:terraform", ["linux-x64"])).toThrow(
    "dist:terraform: unknown --target linux-x64; one of linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64, windows-arm64",
  );
});
