/**
 * The parts `drift --merge` reads: each the JSON report (version 3) of a review of some sources,
 * all of one instance. A file that is not one is refused before anything else, by its name, with
 * what to give instead; merge.ts merges what passes.
 */
import { readFileSync } from "node:fs";
import { MergeError, type MergePart } from "./merge";
import { REVIEW_VERSION, type Review } from "./model";

/** A part to read: the file as given, and where it is. */
export interface PartFile {
  readonly file: string;
  readonly path: string;
}

const GIVE = `Give the JSON report (version ${REVIEW_VERSION}) of a review of some sources: \`drift … --report part.json\` with this version.`;

/** One part's text, checked: JSON, and a review of version 3 with the arrays the merge reads. */
export function parsePart(text: string, file: string): Review {
  const say = (what: string) => new MergeError(`--merge ${file}: ${what}. ${GIVE}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw say(`not JSON (${(err as Error).message})`);
  }
  const review = json as Partial<Review> | null;
  if (typeof review !== "object" || review === null || review.version !== REVIEW_VERSION)
    throw say(
      `not a review report of version ${REVIEW_VERSION} (it has version ${JSON.stringify((review as { version?: unknown } | null)?.version)})`,
    );
  for (const key of ["sources", "findings", "instances", "notes"] as const)
    if (!Array.isArray(review[key])) throw say(`not a review report: it has no \`${key}\` list`);
  if (typeof review.ignored !== "object" || review.ignored === null)
    throw say("not a review report: it has no `ignored`");
  return review as Review;
}

/**
 * Reads every part, then refuses one from another instance: the parts' instances must link up, a
 * part joining the first one's by a base URL they share, in any order (a fleet may span
 * instances). A part whose every source failed reaches none, and is merged.
 */
export function readParts(files: readonly PartFile[]): MergePart[] {
  const parts = files.map(({ file, path }): MergePart => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new MergeError(
        `--merge ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). ${GIVE}`,
      );
    }
    return { file, review: parsePart(text, file) };
  });
  const reaching = parts.filter((p) => p.review.instances.length > 0);
  const first = reaching[0];
  const linked = new Set(first ? [first] : []);
  const reached = new Set(first?.review.instances.map((i) => i.baseUrl));
  for (let joined = true; joined;) {
    joined = false;
    for (const p of reaching.filter((p) => !linked.has(p) && p.review.instances.some((i) => reached.has(i.baseUrl)))) {
      linked.add(p);
      for (const i of p.review.instances) reached.add(i.baseUrl);
      joined = true;
    }
  }
  const other = reaching.find((p) => !linked.has(p));
  if (first && other)
    throw new MergeError(
      `--merge ${other.file}: a review of another instance (${other.review.instances.map((i) => i.baseUrl).join(", ")}), ` +
        `not one that ${first.file} or the parts sharing its instances reach (${[...reached].join(", ")}). ` +
        "Merge only the parts of one fleet review, each a review of some of its sources.",
    );
  return parts;
}
