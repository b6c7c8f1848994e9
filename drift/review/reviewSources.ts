/**
 * The review of any mix of sources, in one report: every Terraform/OpenTofu source first (a
 * working directory's plan, a state file), then every Pulumi stack, whose own report counts the
 * others' claims as managed; each instance listed once; one classification (classify.ts); the
 * `--ignore` rules, the `--ignore-file` entries and the `--baseline` applied last. Sources of one
 * kind run side by side, a few at a time, so that twenty directories cost little more wall time
 * than the slowest few.
 */
import { VISIBILITY_NOTE, WebhookSubscriptionClient, type SubscriptionList } from "../../provider/client";
import { clientSettings, readSettings } from "../../provider/model";
import { isLegacy, type ApiVersion, type Subscription } from "../../provider/wire";
import { isIgnored } from "../ignore";
import { plural } from "../plural";
import type { TerraformState } from "../terraformState";
import type { SourceInstance, SourceResult } from "../sources/source";
import { terraformAdoptionAdvice } from "../sources/terraformDirectory";
import { guidKey } from "../stateSnapshot";
import { classify, countsInWords } from "./classify";
import { isExpired } from "./ignoreFile";
import {
  FINDING_CLASSES,
  REVIEW_VERSION,
  type Finding,
  type FindingClass,
  type IgnoreEntry,
  type Review,
  type SourceRef,
} from "./model";

/** A Terraform/OpenTofu source, read before the stacks. */
export interface TerraformReader {
  readonly ref: SourceRef;
  read(): Promise<SourceResult>;
}

/** A Pulumi stack, read after the Terraform sources, with their claims (which its own report counts as managed). */
export interface StackReader {
  readonly ref: SourceRef;
  read(context: {
    /** The Terraform sources' claims, as its report takes them. */
    readonly otherTools: readonly TerraformState[];
    /** Hands over each instance it listed, so that none is listed twice. */
    readonly onListed: (instance: SourceInstance, live: readonly Subscription[]) => void;
  }): Promise<SourceResult>;
}

export interface ReviewSourcesOptions {
  readonly terraform: readonly TerraformReader[];
  readonly stacks: readonly StackReader[];
  /** `--ignore` rules: GUIDs or subscriber-URL prefixes. */
  readonly ignore?: readonly string[];
  /** `--ignore-file` entries. */
  readonly ignoreEntries?: readonly IgnoreEntry[];
  /** `--baseline`: the file as given and the fingerprints it holds. */
  readonly baseline?: { readonly file: string; readonly fingerprints: ReadonlySet<string> };
  /** Where the Terraform sources' provider reads its settings: `WEBHOOKS_*`. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** How many sources of one kind run at once. @default 4 */
  readonly concurrency?: number;
  readonly onProgress?: (line: string) => void;
  /** @default the current time */
  readonly now?: () => Date;
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order. */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** A source that failed: an error summary and nothing claimed. */
function failedSource(ref: SourceRef, err: unknown): SourceResult {
  const { code, message } = err as { code?: unknown; message?: unknown };
  return {
    summary: {
      source: ref,
      comparison: "state",
      status: "error",
      claimed: 0,
      error: { code: typeof code === "string" ? code : "UNEXPECTED", message: String(message ?? err) },
    },
    claims: [],
    observations: [],
    instances: [],
  };
}

/** The Terraform sources' claims, as a stack's report takes other tools' claims. */
function asTerraformStates(results: readonly SourceResult[]): TerraformState[] {
  return results.map((r) => ({
    file: r.summary.source.name,
    subscriptions: r.claims.map((c) => ({ address: c.address, guid: c.guid })),
    ...(r.summary.source.kind === "terraform-directory" ? { directory: true } : {}),
  }));
}

/**
 * Lists the instance the Terraform sources' provider reaches through `WEBHOOKS_*` (the stacks list
 * their own, with their own credentials). The list's problems become notes.
 */
async function listWithEnv(env: NodeJS.ProcessEnv, baseUrl: string): Promise<SubscriptionList> {
  const connection = readSettings(undefined, { ...env, WEBHOOKS_BASE_URL: baseUrl }).connection;
  const client = new WebhookSubscriptionClient(clientSettings(connection));
  try {
    return await client.listWithProblems();
  } finally {
    await client.close();
  }
}

/** Whether a finding is about a subscription `rule` matches: its GUID, or its live subscriber URL's prefix. */
function matches(f: Finding, rule: string, liveByGuid: ReadonlyMap<string, Subscription>): boolean {
  if (f.guid === null) return false;
  const live = liveByGuid.get(guidKey(f.guid));
  return isIgnored({ guid: f.guid, subscriberUrl: live?.subscriberUrl ?? "" }, [rule]);
}

/** Reviews every source; see the module comment. Never throws for a source's failure: it is reported. */
export async function reviewSources(options: ReviewSourcesOptions): Promise<Review> {
  const startedAt = Date.now();
  const now = options.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const env = options.env ?? process.env;
  const limit = options.concurrency ?? 4;

  const terraform = await bounded(options.terraform, limit, async (reader) => {
    progress(
      `reading ${reader.ref.kind === "terraform-directory" ? "Terraform directory" : "state"} ${reader.ref.name}`,
    );
    return reader.read().catch((err: unknown) => failedSource(reader.ref, err));
  });
  const otherTools = asTerraformStates(terraform);
  const live = new Map<string, readonly Subscription[]>();
  const onListed = (instance: SourceInstance, list: readonly Subscription[]) => live.set(instance.baseUrl, list);
  const stacks = await bounded(options.stacks, limit, (reader) =>
    reader.read({ otherTools, onListed }).catch((err: unknown) => failedSource(reader.ref, err)),
  );
  const sources = [...stacks, ...terraform];

  // The instances only Terraform sources reach: listed with the provider's own WEBHOOKS_* settings.
  const notes = new Set<string>(sources.flatMap((s) => s.notes ?? []));
  const unlisted = new Map<string, SourceInstance>();
  for (const s of terraform)
    for (const i of s.instances)
      if (!live.has(i.baseUrl) && !isLegacy(i.apiVersion as ApiVersion)) unlisted.set(i.baseUrl, i);
  const failedLists: string[] = [];
  await Promise.all(
    [...unlisted.values()].map(async (instance) => {
      progress(`listing the subscriptions the configured account can see on ${instance.baseUrl}`);
      try {
        const list = await listWithEnv(env, instance.baseUrl);
        live.set(instance.baseUrl, list.subscriptions);
        notes.add(VISIBILITY_NOTE);
        for (const p of list.problems) notes.add(p.message);
      } catch (err) {
        failedLists.push(`${instance.baseUrl}: ${(err as Error).message}`);
      }
    }),
  );

  const { findings: all, reviewed } = classify({
    sources,
    live,
    adoption: (s, baseUrl) => adoptionAdvice(sources, s, baseUrl),
  });

  // Ignore rules and entries, then the baseline.
  const liveByGuid = new Map([...live.values()].flat().map((s) => [guidKey(s.guid), s]));
  const today = now().toISOString().slice(0, 10);
  const entries = options.ignoreEntries ?? [];
  const active = [...(options.ignore ?? []), ...entries.filter((e) => !isExpired(e, today)).map((e) => e.match)];
  const suppressed = new Map<string, string[]>();
  const findings = all
    .filter((f) => {
      const rule = active.find((r) => matches(f, r, liveByGuid));
      if (rule === undefined) return true;
      suppressed.set(rule, [...(suppressed.get(rule) ?? []), f.fingerprint]);
      return false;
    })
    .map((f): Finding =>
      options.baseline ? { ...f, baseline: options.baseline.fingerprints.has(f.fingerprint) ? "known" : "new" } : f,
    );
  const expired = entries.filter((e) => isExpired(e, today));
  const stale = entries.filter((e) => !isExpired(e, today) && !suppressed.has(e.match));

  const summary = Object.fromEntries(FINDING_CLASSES.map((c) => [c, 0])) as Record<FindingClass, number>;
  for (const f of findings) summary[f.class]++;
  const failed = sources.some((s) => s.summary.status !== "reviewed") || failedLists.length > 0;
  const counted = findings.filter((f) => !f.advisory);
  const fresh = options.baseline ? counted.filter((f) => f.baseline === "new").length : counted.length;
  const status = failed ? "error" : findings.length > 0 ? "drift" : "in-sync";
  const exitCode = failed ? 1 : fresh > 0 ? 2 : 0;
  const review: Review = {
    version: REVIEW_VERSION,
    status,
    exitCode,
    generatedAt: now().toISOString(),
    durationMs: Date.now() - startedAt,
    sources: sources.map((s) => s.summary),
    instances: [
      ...new Map(
        sources.flatMap((s) => s.instances).map((i) => [i.baseUrl, { baseUrl: i.baseUrl, apiVersion: i.apiVersion }]),
      ).values(),
    ],
    findings,
    reviewed,
    summary,
    ignored: {
      suppressed: [...suppressed].map(([match, fingerprints]) => ({ match, fingerprints })),
      expired,
      stale,
    },
    ...(options.baseline
      ? { baseline: { file: options.baseline.file, new: fresh, known: counted.length - fresh } }
      : {}),
    notes: [...notes, ...failedLists.map((l) => `Could not list ${l}`)],
    stacks: stacks.flatMap((s) => (s.stackReport ? [s.stackReport] : [])),
  };
  const failedSources = review.sources.filter((s) => s.status !== "reviewed").length;
  progress(
    failedSources > 0
      ? `the review failed for ${plural(failedSources, "source")} of ${sources.length}: see the report`
      : `reviewed ${plural(sources.length, "source")} in ${(review.durationMs / 1000).toFixed(1)}s: ${countsInWords(summary)}` +
          (options.baseline ? ` (${fresh} new)` : ""),
  );
  return review;
}

/**
 * How to take over an unmanaged subscription: a stack's own adoption snippet when a stack reaches
 * its instance, else an import into the first Terraform directory that does.
 */
function adoptionAdvice(sources: readonly SourceResult[], live: Subscription, baseUrl: string): string | undefined {
  for (const s of sources) {
    const u = s.stackReport?.unmanaged.find((x) => guidKey(x.guid) === guidKey(live.guid));
    if (u)
      return u.snippetKind === "pulumi-import"
        ? `Adopt it into stack ${s.summary.source.name}: \`${u.snippet}\``
        : `Adopt it into stack ${s.summary.source.name}'s program: ${u.snippet}`;
  }
  const dir = sources.find(
    (s) => s.summary.source.kind === "terraform-directory" && s.instances.some((i) => i.baseUrl === baseUrl),
  );
  return dir ? terraformAdoptionAdvice(dir.summary.source.name, live.guid) : undefined;
}
