/**
 * Where a stack's findings point: the line of the program that declares each resource, else the
 * project's Pulumi.yaml. Paths are relative to the directory the review ran in, with `/`, so a
 * pull request's annotations land on the file the team edits.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { FindingLocation, SourceRef } from "../../review/model";
import { relativeFile } from "../relativeFile";
import type { DeclaredAt } from "./stateSnapshot";

/** The stack `name` of the project in `workDir`, as findings name it (paths relative to `cwd`). */
export function stackRef(name: string, workDir: string, cwd: string): SourceRef {
  return { kind: "pulumi-stack", name, file: relativeFile(join(workDir, "Pulumi.yaml"), cwd) };
}

/**
 * Whether a program's line names the resource `name`: quoted as it is, or as a TypeScript template
 * literal or a Python f-string whose fixed parts it fits (`hook-${i}`, f"hook-{i}" for `hook-3`: a
 * resource made in a loop). A template of placeholders alone fits any name, so it says nothing.
 */
export function namesResource(line: string, name: string): boolean {
  if ([`"${name}"`, `'${name}'`, `\`${name}\``].some((quoted) => line.includes(quoted))) return true;
  const templates = [
    ...[...line.matchAll(/`([^`]*\$\{[^`]*)`/g)].map(([, t]) => t!.split(/\$\{[^}]*\}/)),
    ...[...line.matchAll(/\b[rR]?[fF][rR]?(?:"([^"]*\{[^"]*)"|'([^']*\{[^']*)')/g)].map(([, d, s]) =>
      (d ?? s)!.split(/\{[^}]*\}/),
    ),
  ];
  return templates.some(
    (fixed) =>
      fixed.some((part) => part !== "") &&
      new RegExp(`^${fixed.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`).test(name),
  );
}

/** The line of `<name>:` under a YAML program's `resources` in Pulumi.yaml (1-based), if any. */
function yamlLine(lines: readonly string[], name: string): number | undefined {
  const at = lines.findIndex((line) => line.replace(/["']/g, "").trimEnd() === `  ${name}:`);
  return at < 0 ? undefined : at + 1;
}

/**
 * Where each resource of the stack `ref` (its program in `workDir`) is declared, each file read
 * once. The state's line (`declaredAt`, the last `up`'s) counts only while that line of the file
 * still makes the resource (namesResource): after an edit the file alone is known. A YAML
 * program's resource points at its line in Pulumi.yaml; any other at Pulumi.yaml.
 */
export function declaringLocations(
  ref: SourceRef,
  workDir: string,
): (name: string, declaredAt?: DeclaredAt) => FindingLocation {
  const read = new Map<string, readonly string[]>();
  const linesOf = (file: string): readonly string[] => {
    let lines = read.get(file);
    if (!lines) {
      lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
      read.set(file, lines);
    }
    return lines;
  };
  const programDir = posix.dirname(ref.file);
  return (name, declaredAt) => {
    const lines = declaredAt ? linesOf(join(workDir, declaredAt.file)) : [];
    if (declaredAt && lines.length > 0) {
      const file = posix.join(programDir, declaredAt.file);
      return namesResource(lines[declaredAt.line - 1] ?? "", name) ? { file, line: declaredAt.line } : { file };
    }
    const line = yamlLine(linesOf(join(workDir, "Pulumi.yaml")), name);
    return line === undefined ? { file: ref.file } : { file: ref.file, line };
  };
}
