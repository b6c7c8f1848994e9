/**
 * A Pulumi stack as a source of the review: `reviewDrift` (drift/reviewDrift.ts) reads its state,
 * refreshes it in a preview and, unless `--state-only`, previews its program, all through the
 * team's `pulumi`; this turns its report into what every source says (source.ts): the
 * subscriptions the stack claims, and what its own engine found about them.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DriftReport, ManagedSubscription, ProgramDifference } from "../report";
import type { FieldFinding, FindingLocation, SourceRef, SourceSummary } from "../review/model";
import { relativeFile } from "./relativeFile";
import type { Claim, Observation, SourceResult } from "./source";

/** The stack `name` of the project in `workDir`, as findings name it (paths relative to `cwd`). */
export function stackRef(name: string, workDir: string, cwd: string): SourceRef {
  return { kind: "pulumi-stack", name, file: relativeFile(join(workDir, "Pulumi.yaml"), cwd) };
}

/**
 * Where a YAML program declares a resource: the line of `<name>:` under Pulumi.yaml's `resources`.
 * (Other languages' SDKs record the line in the state, `declaredAt`; a YAML program's does not.)
 */
function declaringLine(projectFile: string): (name: string) => number | undefined {
  let lines: string[] | undefined;
  return (name) => {
    lines ??= existsSync(projectFile) ? readFileSync(projectFile, "utf8").split("\n") : [];
    const at = lines.findIndex((line) => line.replace(/["']/g, "").trimEnd() === `  ${name}:`);
    return at < 0 ? undefined : at + 1;
  };
}

/** The stack's review as a source: its claims and observations, from its own report. */
export function stackSource(report: DriftReport, ref: SourceRef, workDir: string): SourceResult {
  const lineOf = declaringLine(join(workDir, "Pulumi.yaml"));
  // Files are relative to where the command ran, as the project file's is (ref.file).
  const programDir = dirname(ref.file);
  const declared = new Map(report.managed.map((m) => [m.urn, m.declaredAt]));
  const location = (name: string, urn?: string): FindingLocation => {
    const at = urn === undefined ? undefined : declared.get(urn);
    if (at) return { file: programDir === "." ? at.file : join(programDir, at.file), line: at.line };
    const line = lineOf(name);
    return line === undefined ? { file: ref.file } : { file: ref.file, line };
  };
  const claims: Claim[] = report.managed.map((m) => ({
    guid: m.guid,
    address: m.urn,
    location: location(m.name, m.urn),
  }));
  const observations: Observation[] = [
    ...report.managed.flatMap((m) => stateObservation(m, location(m.name, m.urn))),
    ...report.differsFromProgram.map((d) => programObservation(d, report.stack, location(d.name, d.urn))),
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
