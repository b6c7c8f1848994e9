/**
 * A Pulumi stack as a source of the review: `reviewDrift` (drift/reviewDrift.ts) reads its state,
 * refreshes it in a preview and, unless `--state-only`, previews its program, all through the
 * team's `pulumi`; this turns its report into what every source says (source.ts): the
 * subscriptions the stack claims, and what its own engine found about them.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { DriftReport, ManagedSubscription, ProgramDifference } from "../report";
import type { FieldFinding, FindingLocation, SourceRef, SourceSummary } from "../review/model";
import { relativeFile } from "./relativeFile";
import type { Claim, Observation, SourceResult } from "./source";

/** The stack `name` of the project in `workDir`, as findings name it (paths relative to `cwd`). */
export function stackRef(name: string, workDir: string, cwd: string): SourceRef {
  return { kind: "pulumi-stack", name, file: relativeFile(join(workDir, "Pulumi.yaml"), cwd) };
}

/** A file's lines, read once (none for a file that is not there). */
function fileLines(): (file: string) => readonly string[] {
  const read = new Map<string, readonly string[]>();
  return (file) => {
    let lines = read.get(file);
    if (!lines) {
      lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
      read.set(file, lines);
    }
    return lines;
  };
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

/** The stack's review as a source: its claims and observations, from its own report. */
export function stackSource(report: DriftReport, ref: SourceRef, workDir: string): SourceResult {
  const linesOf = fileLines();
  // Files are relative to where the command ran, with `/`, as the project file's is (ref.file).
  const programDir = posix.dirname(ref.file);
  const declared = new Map(report.managed.map((m) => [m.urn, m.declaredAt]));
  /**
   * Where `name` is declared. The state's line is the last `up`'s: it counts only while that line
   * of the file still makes the resource (namesResource); after an edit the file alone is known.
   */
  const location = (name: string, urn?: string): FindingLocation => {
    const at = urn === undefined ? undefined : declared.get(urn);
    const lines = at ? linesOf(join(workDir, at.file)) : [];
    if (at && lines.length > 0) {
      const file = posix.join(programDir, at.file);
      return namesResource(lines[at.line - 1] ?? "", name) ? { file, line: at.line } : { file };
    }
    const line = yamlLine(linesOf(join(workDir, "Pulumi.yaml")), name);
    return line === undefined ? { file: ref.file } : { file: ref.file, line };
  };
  const claims: Claim[] = report.managed.map((m) => ({
    guid: m.guid,
    address: m.urn,
    location: location(m.name, m.urn),
  }));
  const observations: Observation[] = [
    ...report.managed.flatMap((m) => stateObservation(m, location(m.name, m.urn))),
    // A resource the program no longer declares is not where the state saw it last.
    ...report.differsFromProgram.map((d) =>
      programObservation(d, report.stack, location(d.name, d.action === "delete" ? undefined : d.urn)),
    ),
    ...(report.policy?.violations ?? []).map((v): Observation => {
      const urn = report.managed.find((m) => m.guid === v.guid)?.urn;
      return {
        class: "policy",
        address: urn ?? v.baseUrl,
        guid: v.guid,
        fields: [{ field: v.field, secret: false, live: v.subscriberUrl }],
        message: `${v.rule} (${v.enforcementLevel}): ${v.message}`,
        location: v.resource ? location(v.resource, urn) : { file: ref.file },
        ...(v.enforcementLevel === "advisory" ? { advisory: true } : {}),
      };
    }),
  ];
  const summary: SourceSummary = {
    source: ref,
    comparison: report.comparison,
    status: report.status === "error" ? "error" : report.status === "undetermined" ? "undetermined" : "reviewed",
    claimed: report.managed.length,
    ...(report.reason ? { reason: report.reason } : {}),
    ...(report.error ? { error: report.error } : {}),
  };
  const instances = (report.instances ?? (report.instance ? [report.instance] : []))
    .filter((i): i is typeof i & { baseUrl: string } => i.baseUrl !== null)
    .map((i) => ({ baseUrl: i.baseUrl, apiVersion: i.apiVersion }));
  return { summary, claims, observations, instances, stackReport: report, notes: report.notes };
}

function stateObservation(m: ManagedSubscription, location: FindingLocation): Observation[] {
  if (m.status === "deleted")
    return [
      {
        class: "deleted",
        address: m.urn,
        guid: m.guid,
        fields: [],
        message: `${m.name} (${m.guid}) is recorded in the state but no longer exists on the instance.`,
        location,
      },
    ];
  if (m.status !== "changed") return [];
  const fields: FieldFinding[] = m.changes.map((c) =>
    c.secret ? { field: c.field, secret: true } : { field: c.field, secret: false, recorded: c.state, live: c.live },
  );
  return [
    {
      class: "differs-from-state",
      address: m.urn,
      guid: m.guid,
      fields,
      message: `${m.name} (${m.guid}) differs from the state in ${m.changes.map((c) => c.field).join(", ")}.`,
      location,
    },
  ];
}

function programObservation(d: ProgramDifference, stack: string, location: FindingLocation): Observation {
  const fields: FieldFinding[] = d.changes.map((c) =>
    c.secret ? { field: c.field, secret: true } : { field: c.field, secret: false, declared: c.declared, live: c.live },
  );
  const what =
    d.action === "create"
      ? "is declared by the program but does not exist on the instance"
      : d.action === "delete"
        ? "exists and is recorded, but the program no longer declares it"
        : `differs from the program in ${d.changes.map((c) => c.field).join(", ")} (\`pulumi up\` would ${d.action} it)`;
  return {
    class: "differs-from-program",
    address: d.urn,
    guid: d.guid,
    fields,
    message: `${d.name}${d.guid ? ` (${d.guid})` : ""} ${what}.`,
    advice: `Run \`pulumi up --stack ${stack}\` to apply the program, or change the program to the live values.`,
    location,
  };
}
