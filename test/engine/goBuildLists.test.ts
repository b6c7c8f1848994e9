/**
 * The Go modules here that compile against Pulumi's SDK resolve every module at the version the
 * CLI's own build does (engine/wrapper/v<PULUMI_VERSION>/go.mod). Go's build cache keys a compiled
 * package by its dependencies' versions, so with the same ones (and the same settings:
 * engine/goBuild.ts) a machine that built the CLI from source compiles only our code: the
 * example's build took 224 s of CPU there before, when its x/sys, grpc and otel were older.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PULUMI_VERSION } from "../../engine/provision";

const ROOT = join(__dirname, "..", "..");

/** A go.mod's `require` lines, module path to version (both the block and the one-line form). */
function requirements(file: string): Map<string, string> {
  const text = readFileSync(join(ROOT, file), "utf8");
  const lines = [
    ...[...text.matchAll(/^require \(\n([^)]*)\)/gm)].flatMap(([, block]) => block!.split("\n")),
    ...[...text.matchAll(/^require ([^(\s].*)$/gm)].map(([, line]) => line!),
  ];
  return new Map(
    lines
      .map((line) => line.replace(/\/\/.*/, "").trim())
      .filter(Boolean)
      .map((line) => line.split(/\s+/) as [string, string]),
  );
}

describe("Go modules built beside the CLI", () => {
  const cli = requirements(`engine/wrapper/v${PULUMI_VERSION}/go.mod`);

  it.each(["examples/go/go.mod", "scripts/gen-go/go.mod"])(
    "%s requires each module the CLI's build has at the CLI's version",
    (file) => {
      const required = requirements(file);
      expect(required.get("github.com/pulumi/pulumi/sdk/v3") ?? required.get("github.com/pulumi/pulumi/pkg/v3")).toBe(
        `v${PULUMI_VERSION}`,
      );
      const differing = [...required]
        .filter(([module, version]) => cli.has(module) && cli.get(module) !== version)
        .map(([module, version]) => `${module} ${version}, the CLI's build: ${cli.get(module)}`);
      expect(differing, `run go get <module>@<the CLI's version> in ${file}'s folder, then go mod tidy`).toEqual([]);
      // Most of them are shared: the check is not vacuous.
      expect([...required.keys()].filter((module) => cli.has(module)).length).toBeGreaterThan(50);
    },
  );
});
