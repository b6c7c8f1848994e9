/**
 * `--verify` for a stack: the team's own `pulumi preview --json` of the program with the adopted
 * code. It passes when the only steps are the adoptions (an `import` for the native door; a
 * `create` that takes over its `adoptGuid` for the dynamic one) and everything else stays the
 * same; otherwise each resource and field that would change is named.
 */
import type { CommandResult, PulumiRun } from "../../engine/pulumiRun";

/** One step of `pulumi preview --json`. */
interface PreviewStep {
  readonly op: string;
  readonly urn: string;
  readonly diffReasons?: readonly string[];
  readonly detailedDiff?: Readonly<Record<string, { readonly kind?: string }>> | null;
}

interface PreviewJson {
  readonly steps?: readonly PreviewStep[];
  readonly diagnostics?: readonly { readonly urn?: string; readonly message?: string; readonly severity?: string }[];
}

/** What the preview showed: each problem as a line naming the resource and its fields. */
export interface Verification {
  /** The adopted resources the preview adopts. */
  readonly adopted: number;
  readonly problems: readonly string[];
}

/** The steps that change nothing on the instance. */
const UNCHANGED = new Set(["same", "read", "refresh"]);

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
/** A URN's type (the last of its `$`-joined parent types). */
const typeOf = (urn: string) => urn.split("::").at(-2)?.split("$").at(-1) ?? "";
/** The stack and the providers: a new stack creates both, which changes nothing on any instance. */
const isStackOrProvider = (urn: string) =>
  typeOf(urn) === "pulumi:pulumi:Stack" || typeOf(urn).startsWith("pulumi:providers:");

/**
 * Previews `stack` in `workDir` and checks it against `names` (the adopted resources' names) and
 * the step that adopts them (`import` or `create`).
 */
export async function verifyPreview(
  run: PulumiRun,
  target: { readonly stack: string; readonly workDir: string; readonly env: Readonly<Record<string, string>> },
  names: ReadonlySet<string>,
  adoptingOp: "import" | "create",
): Promise<Verification> {
  const result = await run(["preview", "--json", "--stack", target.stack], target.workDir, target.env).catch(
    (err: unknown): CommandResult => {
      const failed = (err as { commandResult?: CommandResult }).commandResult;
      if (failed) return failed;
      throw err;
    },
  );
  let preview: PreviewJson;
  try {
    preview = JSON.parse(result.stdout) as PreviewJson;
  } catch {
    return { adopted: 0, problems: [`pulumi preview failed: ${result.stderr.trim() || result.stdout.trim()}`] };
  }
  const problems: string[] = [];
  const adopted = new Set<string>();
  for (const step of preview.steps ?? []) {
    const name = nameOf(step.urn);
    if (isStackOrProvider(step.urn) && (step.op === "create" || UNCHANGED.has(step.op))) continue;
    if (names.has(name) && step.op === adoptingOp) {
      adopted.add(name);
      const fields = Object.keys(step.detailedDiff ?? {});
      if (fields.length > 0) problems.push(`${name}: the import differs from the instance in ${fields.join(", ")}`);
      continue;
    }
    if (UNCHANGED.has(step.op)) continue;
    const fields = [...new Set([...Object.keys(step.detailedDiff ?? {}), ...(step.diffReasons ?? [])])];
    problems.push(`${name}: ${step.op}${fields.length > 0 ? ` (${fields.join(", ")})` : ""}`);
  }
  for (const d of preview.diagnostics ?? [])
    if (d.severity === "error" && d.message)
      problems.push(`${d.urn ? `${nameOf(d.urn)}: ` : ""}${d.message.replace(/\s+/g, " ").trim()}`);
  if (result.code !== 0 && problems.length === 0)
    problems.push(`pulumi preview failed (exit ${result.code}): ${result.stderr.trim()}`);
  const missing = [...names].filter((n) => !adopted.has(n));
  if (missing.length > 0 && problems.length === 0)
    problems.push(
      `the preview adopts ${adopted.size} of ${names.size}: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", …" : ""} ` +
        "not in the program (is the adopted file included, and a built program rebuilt?)",
    );
  return { adopted: adopted.size, problems };
}
