/**
 * An estate made by scripts, for the `adopt` end-to-end tests: varied subscriptions created
 * directly over HTTP on the emulator (events, type- and object-scoped filters, custom headers with
 * values, hosts shared between several), each target's under its own URL prefix so that one
 * emulator serves every target (`--match <prefix>`). Then the checks every target shares: the
 * instance unchanged field by field (Signatures included), and no header value anywhere.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { run } from "./commands";
import type { EmulatorHarness } from "./emulatorHarness";

type Live = Record<string, unknown> & { GUID: string };

/** One target's scripted estate. */
export interface Estate {
  /** The `--match` rule that selects it: `https://<label>-`. */
  readonly match: string;
  readonly guids: readonly string[];
  /** The custom header values set on it: none may leak. */
  readonly secrets: readonly string[];
}

const HOSTS = ["orders", "billing", "shipping"];
const PATHS = ["hooks", "v2/events", "partner/inbound"];

/** Creates `count` subscriptions under `https://<label>-<host>.example.com/…`. */
export async function scriptedEstate(service: EmulatorHarness, label: string, count: number): Promise<Estate> {
  const guids: string[] = [];
  const secrets: string[] = [];
  for (let i = 0; i < count; i++) {
    const webhook = i % 6;
    // Object-scoped events (0, 1, 2, 4) name an object; the others a type.
    const objectScoped = [0, 1, 2, 4].includes(webhook);
    const headerValue = i % 3 === 0 ? `hv-${label}-${i}-${randomUUID()}` : undefined;
    const created = await service.subscribe({
      Webhook: webhook,
      FilterObjectType: objectScoped ? 7 : 2 + (i % 3),
      ...(objectScoped ? { FilterObjectGUID: randomUUID() } : {}),
      SubscriberURL: `https://${label}-${HOSTS[i % HOSTS.length]}.example.com/${PATHS[Math.floor(i / 3) % PATHS.length]}/${i}`,
      ...(headerValue
        ? { CustomHeader: "X-Api-Key", CustomHeaderValue: headerValue }
        : i % 5 === 1
          ? { CustomHeader: "X-Trace" }
          : {}),
    });
    guids.push(created.GUID);
    if (headerValue) secrets.push(headerValue);
  }
  return { match: `https://${label}-`, guids, secrets };
}

/** The estate's subscriptions as the instance holds them now, every field, by GUID. */
export async function snapshot(service: EmulatorHarness, estate: Estate): Promise<Map<string, Live>> {
  const all = await service.all();
  return new Map(all.filter((s) => estate.guids.includes(s.GUID)).map((s) => [s.GUID, s]));
}

/** Every file under `dir` (skipping folders named in `skip`), with its text. */
function filesUnder(dir: string, skip: readonly string[]): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((p) => !p.split("/").some((part) => skip.includes(part)))
    .map((p) => join(dir, p))
    .filter((p) => {
      try {
        return statSync(p).isFile() && statSync(p).size < 50_000_000;
      } catch {
        return false;
      }
    });
}

/** No header value in `texts` (each step's stdout and stderr) nor in any file under `dirs`. */
export function expectNoHeaderValue(
  estate: Estate,
  texts: Readonly<Record<string, string>>,
  dirs: readonly string[],
  skip: readonly string[] = ["node_modules", "venv", ".git", "plugins"],
): void {
  expect(estate.secrets.length).toBeGreaterThan(0);
  const found: string[] = [];
  for (const [what, text] of Object.entries(texts))
    for (const secret of estate.secrets) if (text.includes(secret)) found.push(what);
  for (const dir of dirs)
    for (const file of filesUnder(dir, skip)) {
      const text = readFileSync(file).toString("latin1");
      if (estate.secrets.some((secret) => text.includes(secret))) found.push(file);
    }
  expect(found, "where a header value was found in plain text").toEqual([]);
}

/** One target's adoption, as a team runs it: what it needs. */
export interface AdoptionRun {
  readonly service: EmulatorHarness;
  /** The release's `webhook-subscriptions`. */
  readonly cli: string;
  readonly label: string;
  readonly count: number;
  /** Where the team types the commands. */
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** The target flags: `--into-stack dev`, or `--into-terraform . --terraform-cli <path>`. */
  readonly target: readonly string[];
  /** What the team runs after `adopt` wrote the code, before its preview: a build (`mvn package`). */
  readonly build?: () => Promise<unknown>;
  /** The team's own `pulumi up` or `apply`: it must import every one. */
  readonly takeOver: () => Promise<{ stdout: string; stderr: string }>;
  /** The team's second preview or plan: it must be empty. */
  readonly expectEmpty: () => Promise<{ stdout: string; stderr: string }>;
  /** The review's source flags. */
  readonly review: readonly string[];
  /** Run `adopt` once more after the take-over: it must find nothing to adopt. */
  readonly again?: boolean;
  /** Folders holding the state, the config and temporary files: grepped for header values. */
  readonly grepped: readonly string[];
}

/**
 * A scripted estate adopted into a target: `adopt` (names stable across two runs), `adopt
 * --verify --force`, the team's take-over, an empty second preview or plan, the instance unchanged
 * field by field, a review with nothing unmanaged, with `again` a third `adopt` with nothing to
 * do, and no header value anywhere. Resolves with the file the code is in.
 */
export async function adoptEstate(r: AdoptionRun): Promise<{ estate: Estate; output: string }> {
  const estate = await scriptedEstate(r.service, r.label, r.count);
  const before = await snapshot(r.service, estate);
  const texts: Record<string, string> = {};
  const step = async (what: string, command: string, args: readonly string[]) => {
    const result = await run(command, [...args], r.dir, r.env);
    texts[`${what} stdout`] = result.stdout;
    texts[`${what} stderr`] = result.stderr;
    return result;
  };
  const adoptArgs = ["adopt", ...r.target, "--match", estate.match];
  const first = await step("adopt", r.cli, adoptArgs);
  expect(first.stdout).toContain(`Adopted ${r.count} subscriptions into `);
  const output = /^Adopted \d+ subscriptions into .*: (.+)$/m.exec(first.stdout)![1]!;
  const code = readFileSync(join(r.dir, r.target[0] === "--into-terraform" ? r.target[1]! : ".", output), "utf8");
  for (const guid of estate.guids) expect(code).toContain(guid);
  await r.build?.();
  const verified = await step("adopt --verify", r.cli, [...adoptArgs, "--verify", "--force"]);
  expect(verified.stdout).toMatch(
    new RegExp(`Verified: the (preview|plan) adopts ${r.count} and changes nothing else`),
  );
  // The same names on the second run: the same code.
  expect(readFileSync(join(r.dir, r.target[0] === "--into-terraform" ? r.target[1]! : ".", output), "utf8")).toBe(code);
  const took = await r.takeOver();
  texts["take-over stdout"] = took.stdout;
  texts["take-over stderr"] = took.stderr;
  const empty = await r.expectEmpty();
  texts["second preview stdout"] = empty.stdout;
  expect(await snapshot(r.service, estate)).toEqual(before);
  const review = await step("drift", r.cli, ["drift", ...r.review, "--format", "json"]);
  const findings = (JSON.parse(review.stdout) as { findings: { class: string; guid: string | null }[] }).findings;
  expect(findings.filter((f) => f.guid !== null && estate.guids.includes(f.guid))).toEqual([]);
  if (r.again) {
    const again = await step("adopt again", r.cli, adoptArgs);
    expect(again.stdout).toMatch(/^Nothing to adopt/m);
  }
  expectNoHeaderValue(estate, texts, [r.dir, ...r.grepped]);
  return { estate, output };
}
