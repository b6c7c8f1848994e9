/**
 * `--baseline <previous report.json>`: a scheduled review flags only what is new. Each finding of
 * this run is `new` or `known` by its fingerprint (classify.ts), which holds no field value, so a
 * known finding whose values moved stays known; the review exits 2 only when one is new.
 */
import { readFileSync } from "node:fs";
import { REVIEW_VERSION } from "./model";

/** A baseline that cannot be used; the message names the flag, the file and what to do. */
export class BaselineError extends Error {
  override readonly name = "BaselineError";
}

/**
 * Versions `--baseline` reads: this one, and version 2 (the release before the one model), whose
 * findings carry the same fingerprints, so a pipeline's stored baseline survives the upgrade.
 */
const BASELINE_VERSIONS: readonly number[] = [2, REVIEW_VERSION];

/** The fingerprints a previous report (`--format json`) holds. */
export function readBaseline(path: string, file: string): ReadonlySet<string> {
  const say = (what: string) =>
    new BaselineError(
      `--baseline ${file}: ${what}. Give the JSON report of an earlier review (\`--report review.json\` or \`--format json\`).`,
    );
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw say(`cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  let json: { version?: unknown; findings?: unknown };
  try {
    json = JSON.parse(text) as typeof json;
  } catch (err) {
    throw say(`not JSON (${(err as Error).message})`);
  }
  if (!BASELINE_VERSIONS.includes(json?.version as number) || !Array.isArray(json.findings))
    throw say(
      `not a review report of version ${BASELINE_VERSIONS.join(" or ")} (it has version ${JSON.stringify(json?.version)})`,
    );
  return new Set(
    (json.findings as { fingerprint?: unknown }[]).flatMap((f) =>
      typeof f?.fingerprint === "string" ? [f.fingerprint] : [],
    ),
  );
}
