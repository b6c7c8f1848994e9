/**
 * `--ignore-file <file.json>`: exceptions as data, each with an owner who answers for it, a reason
 * and, optionally, the day it ends: `[{"match": "<guid | url-prefix>", "reason": "…", "owner": "…",
 * "expires": "YYYY-MM-DD"}]`. An entry past its day suppresses nothing and is reported as expired;
 * one that matched nothing is reported as stale, so the list cannot quietly rot. `--ignore <rule>`
 * stays for one-off use: a match with no owner, reason or end.
 */
import { readFileSync } from "node:fs";
import { invalidIgnoreRule } from "./ignore";
import type { IgnoreEntry } from "./model";

/** A file that cannot be used; the message names the flag, the file, the entry and the field. */
export class IgnoreFileError extends Error {
  override readonly name = "IgnoreFileError";
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar day written YYYY-MM-DD. */
function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Every problem of one entry, each naming its field and value. */
function entryProblems(entry: unknown, n: number): string[] {
  const at = `entry ${n + 1}`;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry))
    return [
      `${at} must be an object such as {"match": "<guid>", "reason": "…", "owner": "…"}, got: ${JSON.stringify(entry)}`,
    ];
  const e = entry as Record<string, unknown>;
  const problems: string[] = [];
  const known = new Set(["match", "reason", "owner", "expires"]);
  for (const key of Object.keys(e))
    if (!known.has(key)) problems.push(`${at}: unknown field "${key}" (the fields are match, reason, owner, expires)`);
  if (typeof e.match !== "string")
    problems.push(`${at}: "match" is required: a subscription GUID or a subscriber-URL prefix`);
  else {
    const bad = invalidIgnoreRule([e.match]);
    if (bad) problems.push(`${at}: "match" ${bad.replace(/^--ignore /, "")}`);
  }
  for (const field of ["reason", "owner"] as const)
    if (typeof e[field] !== "string" || (e[field] as string).trim() === "")
      problems.push(
        `${at}: "${field}" is required${e[field] === undefined ? "" : `, got: ${JSON.stringify(e[field])}`} (${
          field === "owner" ? 'who answers for this exception, e.g. "team-payments"' : "why it is not drift"
        })`,
      );
  if (e.expires !== undefined && (typeof e.expires !== "string" || !isDay(e.expires)))
    problems.push(
      `${at}: "expires" must be a day written YYYY-MM-DD, e.g. "2027-03-31", got: ${JSON.stringify(e.expires)}`,
    );
  return problems;
}

/** Parses an ignore file's text; `file` names it in errors. */
export function parseIgnoreFile(text: string, file: string): IgnoreEntry[] {
  const say = (what: string) => new IgnoreFileError(`--ignore-file ${file}: ${what}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw say(
      `not JSON (${(err as Error).message}). Write a JSON array of {"match", "reason", "owner", "expires"} entries.`,
    );
  }
  if (!Array.isArray(json))
    throw say(
      `must be a JSON array of {"match", "reason", "owner", "expires"} entries, got: ${JSON.stringify(json).slice(0, 80)}`,
    );
  const problems = [...new Set(json.flatMap(entryProblems))];
  if (problems.length > 0) throw say(`${problems.join("; ")}. Fix the file; nothing was reviewed.`);
  return (json as Record<string, string>[]).map((e) => ({
    match: e.match!,
    reason: e.reason!,
    owner: e.owner!,
    ...(e.expires ? { expires: e.expires } : {}),
  }));
}

/** Reads and parses `path`; `file` is the name as given on the command line. */
export function readIgnoreFile(path: string, file: string): IgnoreEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new IgnoreFileError(
      `--ignore-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Name a JSON file that exists.`,
    );
  }
  return parseIgnoreFile(text, file);
}

/** Whether `entry` is past its day on `today` (YYYY-MM-DD, UTC): it then suppresses nothing. */
export function isExpired(entry: IgnoreEntry, today: string): boolean {
  return entry.expires !== undefined && entry.expires < today;
}
