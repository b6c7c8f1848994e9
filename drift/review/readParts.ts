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
 * Reads every part, then refuses one from another instance: its instances share no base URL with
 * the first part's that has any (a part whose every source failed has none, and is merged).
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
  const first = parts.find((p) => p.review.instances.length > 0);
  const other = parts.find(
    (p) =>
      p.review.instances.length > 0 &&
      !p.review.instances.some((i) => first!.review.instances.some((f) => f.baseUrl === i.baseUrl)),
  );
  if (first && other)
    throw new MergeError(
      `--merge ${other.file}: a review of another instance (${other.review.instances.map((i) => i.baseUrl).join(", ")}), ` +
        `not ${first.file}'s (${first.review.instances.map((i) => i.baseUrl).join(", ")}). ` +
        "Merge only the parts of one fleet review, each a review of some of its sources on the same instance.",
    );
  return parts;
}
