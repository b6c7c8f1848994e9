/**
 * The review of any mix of sources, in one report: every source read side by side, a few at a
 * time (twenty directories cost little more wall time than the slowest few); each instance listed
 * once; one classification (classify.ts); the policy, the `--ignore` rules, the `--ignore-file`
 * entries and the `--baseline` applied last, in that order, so every format shows the same findings.
 */
import { VISIBILITY_NOTE, WebhookSubscriptionClient, type SubscriptionList } from "../../provider/client";
import { clientSettings, readSettings } from "../../provider/model";
import { isLegacy, type ApiVersion, type Subscription } from "../../provider/wire";
import type { SourceResult } from "../sources/source";
import { byClassThenWhere, classify, countsInWords } from "./classify";
import { concludeReview, type ConcludeOptions } from "./conclude";
import { guidKey } from "./guid";
import type { Review, SourceRef } from "./model";
import { plural } from "./plural";
import { policyFindings, policyOwners, type PolicyInput } from "./policy";

/** One source to read: its name on the command line, and how to read it. */
export interface SourceReader {
  readonly ref: SourceRef;
  /** Rejects when the source cannot be reviewed: the report shows its error, the other sources go on. */
  read(): Promise<SourceResult>;
}

/** The sources and the live lists a review read. */
export interface SourcesRead {
  readonly sources: readonly SourceResult[];
  readonly live: ReadonlyMap<string, readonly Subscription[]>;
  /** The instances that could not be listed, by base URL: why. */
  readonly unlisted: ReadonlyMap<string, string>;
}

export interface ReviewSourcesOptions extends ConcludeOptions {
  /** In command-line order. */
  readonly sources: readonly SourceReader[];
  /** `--policy`: the rules every live subscription is held to. */
  readonly policy?: PolicyInput;
  /** Where the Terraform sources' provider reads its settings: `WEBHOOKS_*`. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** How many sources are read at once. @default 4 */
  readonly concurrency?: number;
  readonly onProgress?: (line: string) => void;
  /** The caller refuses with the sources' failures itself (`adopt`): progress does not say them too. */
  readonly callerSaysFailures?: boolean;
  /** @default the current time */
  readonly now?: () => Date;
  /**
   * Receives what was read before it is classified: every source as its reader gave it, and every
   * instance's live list by base URL. `adopt` writes code from them (the review keeps no header value).
   */
  readonly onRead?: (read: SourcesRead) => void;
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

/** A source that could not be reviewed: its error, nothing compared, nothing claimed. */
function failedSource(ref: SourceRef, err: unknown): SourceResult {
  const { code, message } = err as { code?: unknown; message?: unknown };
  return {
    report: {
      source: ref,
      status: "error",
      compared: [],
      instances: [],
      error: { code: typeof code === "string" ? code : "UNEXPECTED", message: String(message ?? err) },
    },
    claims: [],
    observations: [],
    instances: [],
  };
}

/**
 * Lists an instance no source listed itself (a Terraform source's) with the provider's own
 * `WEBHOOKS_*` settings. The list's problems become notes.
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

/** Reviews every source; see the module comment. Never throws for a source's failure: it is reported. */
export async function reviewSources(options: ReviewSourcesOptions): Promise<Review> {
  const startedAt = Date.now();
  const now = options.now ?? (() => new Date());
  const progress = options.onProgress ?? (() => {});
  const env = options.env ?? process.env;

  const sources = await bounded(options.sources, options.concurrency ?? 4, (reader) =>
    reader.read().catch((err: unknown) => failedSource(reader.ref, err)),
  );
  for (const s of options.callerSaysFailures ? [] : sources) {
    const said = s.report.error?.message ?? s.report.reason;
    if (said !== undefined)
      progress(
        options.sources.length > 1
          ? `${s.report.source.name}: ${s.report.error ? "error: " : ""}${said}`
          : `${s.report.error ? "error: " : ""}${said}`,
      );
  }

  // Each instance once: the sources' own lists first, then the rest with WEBHOOKS_*.
  const live = new Map<string, readonly Subscription[]>();
  for (const s of sources)
    for (const [baseUrl, list] of s.listed ?? []) if (!live.has(baseUrl)) live.set(baseUrl, list);
  const notes = new Set<string>(sources.flatMap((s) => s.notes ?? []));
  const unlisted = new Map(
    sources
      .filter((s) => s.report.status === "reviewed")
      .flatMap((s) => s.instances)
      .filter((i) => !live.has(i.baseUrl) && !isLegacy(i.apiVersion as ApiVersion))
      .map((i) => [i.baseUrl, i]),
  );
  const failedLists = new Map<string, string>();
  await Promise.all(
    [...unlisted.keys()].map(async (baseUrl) => {
      progress(`listing the subscriptions the configured account can see on ${baseUrl}`);
      try {
        const list = await listWithEnv(env, baseUrl);
        live.set(baseUrl, list.subscriptions);
        notes.add(VISIBILITY_NOTE);
        for (const p of list.problems) notes.add(p.message);
      } catch (err) {
        failedLists.set(baseUrl, (err as Error).message);
      }
    }),
  );
  const instances = [
    ...new Map(
      sources.flatMap((s) => s.instances).map((i) => [i.baseUrl, { baseUrl: i.baseUrl, apiVersion: i.apiVersion }]),
    ).values(),
  ];

  options.onRead?.({ sources, live, unlisted: failedLists });
  const classified = classify({ sources, live });
  const policy = options.policy
    ? policyFindings(
        options.policy,
        instances.flatMap((i) => (live.has(i.baseUrl) ? [{ ...i, live: live.get(i.baseUrl)! }] : [])),
        policyOwners(sources.map((s) => ({ source: s.report.source, claims: s.claims, instances: s.instances }))),
      )
    : undefined;
  const liveByGuid = new Map([...live.values()].flat().map((s) => [guidKey(s.guid), s]));
  const review = concludeReview(
    {
      sources: sources.map((s) => {
        const recovery = classified.recovery.get(s.report.source);
        return { report: { ...s.report, ...(recovery ? { recovery } : {}) }, claims: s.claims };
      }),
      findings: [...classified.findings, ...(policy?.findings ?? [])].sort(byClassThenWhere),
      subscriberUrl: (guid) => liveByGuid.get(guidKey(guid))?.subscriberUrl,
      failed: failedLists.size > 0,
      instances,
      notes: [...notes, ...[...failedLists].map(([baseUrl, why]) => `Could not list ${baseUrl}: ${why}`)],
      ...(policy ? { policy: policy.scope } : {}),
      generatedAt: now(),
      durationMs: Date.now() - startedAt,
    },
    options,
  );
  const failedSources = review.sources.filter((s) => s.status !== "reviewed").length;
  if (!(options.callerSaysFailures && failedSources > 0))
    progress(
      failedSources > 0
        ? `the review failed for ${plural(failedSources, "source")} of ${sources.length}: see the report`
        : `reviewed ${plural(sources.length, "source")} in ${(review.durationMs / 1000).toFixed(1)}s: ${countsInWords(review.summary)}` +
            (review.baseline ? ` (${review.baseline.new} new)` : ""),
    );
  return review;
}
