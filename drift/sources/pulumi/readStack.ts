/**
 * A Pulumi stack as a source of the review: what its state claims, and what its own engine finds
 * about those subscriptions, without writing anything to the state.
 *
 * 1. open the existing stack (never create one) and read its config and state;
 * 2. list each instance's subscriptions with our own client and the stack's credentials: this
 *    fails fast, with the client's plain errors, on bad credentials or an unreachable instance, and
 *    it yields the plaintext of changed secrets (and the lists the classification finds unmanaged
 *    subscriptions in);
 * 3. preview the stack's program with a refresh (previewProgram.ts), or with `stateOnly` run a
 *    refresh *preview* (refreshPreview.ts), through the Automation API, writing nothing: its refresh
 *    steps, the provider's own `read`, decide what changed and what is gone, exactly as `pulumi
 *    refresh` would; its program steps say what differs from the program, which a state comparison
 *    cannot see once a refresh has accepted the live values into the state;
 * 4. classify each managed subscription (classifyManaged.ts) and say what was found (observations.ts).
 * What is unmanaged, co-owned, a pending create's orphan or against policy takes every source: the
 * review's classification decides it (drift/review/).
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { VISIBILITY_NOTE, WebhookSubscriptionClient } from "../../../provider/client";
import { clientSettings, readSettings, type ConfigSource } from "../../../provider/model";
import { isLegacy } from "../../../provider/wire";
import type { Engine } from "../../../engine/provision";
import { displayBackend } from "../../../engine/backend";
import { toDriftError } from "../../errors";
import { guidKey } from "../../review/guid";
import { plural } from "../../review/plural";
import type { Claim, SourceResult } from "../source";
import { classifyManaged } from "./classifyManaged";
import { describeInstance, instancesOf, reachedInstances } from "./instances";
import { declaringLocations, stackRef } from "./locations";
import { stackObservations } from "./observations";
import { openReviewStack, reviewEngine } from "./openStack";
import { previewProgram, runtimeName } from "./previewProgram";
import { retryReporter } from "./progress";
import { refreshPreview } from "./refreshPreview";
import { stateSnapshot } from "./stateSnapshot";

export { stackRef };

export interface ReadStackOptions {
  /** The stack to review, e.g. `dev` or `org/project/dev`. */
  readonly stackName: string;
  /** The flag that named it, as messages say. @default "--stack" */
  readonly flag?: string;
  /** The program directory (holding Pulumi.yaml); also the dynamic provider's working directory. */
  readonly workDir: string;
  /** The directory the review runs in: findings' files are relative to it. */
  readonly cwd: string;
  /**
   * The state backend. @default `PULUMI_BACKEND_URL`, else the project's `backend.url`, else
   * the backend the Pulumi CLI is logged in to
   */
  readonly backendUrl?: string;
  /**
   * Environment overrides for the engine, the provider and the connection settings
   * (`WEBHOOKS_*`, `PULUMI_CONFIG_PASSPHRASE`, …), applied over `process.env`.
   * @default {}
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * The Pulumi CLI that reads the state and runs the program (through its language host, as
   * `pulumi preview` does). @default the first `pulumi` on PATH; none is an error, never a build
   */
  readonly engine?: Engine;
  /**
   * The stack's program when it is an Automation API inline program (it has none on disk): run in
   * this process, as the code that deploys the stack runs it. That code's `@pulumi/pulumi` must be
   * the one this package resolves (`npm ls @pulumi/pulumi` shows one copy).
   * @default the program in `workDir`, run through its language host
   */
  readonly program?: PulumiFn;
  /** Progress lines for people waiting: a refresh of hundreds of subscriptions takes time. */
  readonly onProgress?: (line: string) => void;
  /**
   * Compare the live instance with the state alone (`--state-only`), without running the
   * program: for a machine without the program's toolchain. A `pulumi refresh` copies live
   * values into the state, so this review no longer sees them (docs/drift.md).
   * @default false: the program is previewed too, with a refresh, applying nothing
   */
  readonly stateOnly?: boolean;
}

/** Explains the legacy outcome; `webhook-subscriptions drift` exits 1 on it (docs/drift.md). */
export function legacyReason(stack: string): string {
  return (
    `Drift cannot be determined for stack "${stack}": it uses the legacy API 2024.1 (webhooks:apiVersion / WEBHOOKS_API_VERSION), ` +
    "which has no Get and no GetAll, so the live subscriptions cannot be read and compared with the state " +
    "(the provider's refresh leaves the state unchanged in this mode). If the instance also offers the configuration API, " +
    "set webhooks:apiVersion to 3 to review drift."
  );
}

/**
 * Reads one stack as a source (see the module comment). Resolves with its claims and observations
 * (`report.status` `reviewed`, or on the legacy API `undetermined` with its claims alone); rejects
 * with a `DriftError` whose message says what went wrong and holds no credentials.
 */
export async function readStack(options: ReadStackOptions): Promise<SourceResult> {
  const startedAt = Date.now();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  const progress = options.onProgress ?? (() => {});
  const name = options.stackName;
  const secrets: (string | undefined)[] = [];
  try {
    const engine = options.engine ?? (await reviewEngine(env));
    progress(`opening stack "${name}" with pulumi ${engine.version} (${engine.binDir})`);
    const { stack, backend } = await openReviewStack({
      engine,
      stackName: name,
      workDir: options.workDir,
      backendUrl: options.backendUrl,
      env: options.env ?? {},
      ...(options.program ? { program: options.program } : {}),
      ...(options.flag ? { flag: options.flag } : {}),
      runsProgram: !options.stateOnly,
    });
    const shownBackend = displayBackend(backend);

    // The state is exported with plaintext secrets: used to compare, never printed.
    const [config, state, project] = await Promise.all([
      stack.getAllConfig(),
      stack.exportStack().then((exported) => stateSnapshot(exported.deployment)),
      stack.workspace.projectSettings(),
    ]);
    for (const entry of Object.values(config)) if (entry.secret) secrets.push(entry.value);
    const source: ConfigSource = { get: (key) => config[key]?.value };
    progress(`stack "${name}" in ${shownBackend}: ${plural(state.managed.length, "managed subscription")} in state`);

    const instances = instancesOf(state, source, env);
    for (const i of instances) secrets.push(i.settings.token, i.settings.oauth?.clientSecret);
    // Providers reaching one instance are reviewed once, with the first one's settings: the
    // credentials of the others must not show either.
    for (const { config } of state.providers.values()) {
      const { token, oauth } = readSettings(config, env).connection;
      secrets.push(token, oauth?.clientSecret);
    }

    const ref = stackRef(name, options.workDir, options.cwd);
    const locate = declaringLocations(ref, options.workDir);
    const claims = state.managed.map((s): Claim => ({
      guid: s.guid,
      address: s.urn,
      name: s.name,
      location: locate(s.name, s.declaredAt),
    }));
    const read = {
      claims,
      instances: reachedInstances(instances, state, name, runtimeName(project)),
      pendingCreates: state.pendingCreates,
    };
    const claimed = new Set(claims.map((c) => guidKey(c.guid)));
    const recorded = [...state.guids].filter((guid) => !claimed.has(guid)).sort();
    const report = {
      source: ref,
      backend: shownBackend,
      instances: instances.map(describeInstance),
      ...(recorded.length > 0 ? { recorded } : {}),
    };
    if (instances.some((i) => isLegacy(i.settings.apiVersion)))
      return {
        ...read,
        report: { ...report, status: "undetermined", compared: [], reason: legacyReason(name) },
        observations: [],
      };

    const clients = instances.map(
      (i) => new WebhookSubscriptionClient({ ...clientSettings(i.settings), onRequest: retryReporter(progress) }),
    );
    try {
      // One GetAll per instance, all at once.
      const results = await Promise.all(
        instances.map((i, n) => {
          progress(
            `listing the subscriptions the configured account can see on ${i.settings.baseUrl} (api-version ${i.settings.apiVersion})`,
          );
          return clients[n]!.listWithProblems();
        }),
      );
      const lists = results.map((r) => r.subscriptions);
      const listed = plural(
        lists.reduce((n, l) => n + l.length, 0),
        "subscription",
      );
      const where = instances.length === 1 ? "the instance" : `${instances.length} instances`;
      const managed = state.managed.length;
      // With the program, its preview refreshes too: one run gives both comparisons, as `pulumi preview --refresh`.
      progress(
        options.stateOnly
          ? `${listed} on ${where}; refresh preview of ${managed} (nothing is written to the state)`
          : `${listed} on ${where}; preview of the program with a refresh of ${managed}, ` +
              "to compare the live subscriptions with the state and with the program (nothing is applied or written)",
      );
      const { observer, differences } = options.stateOnly
        ? { ...(await refreshPreview(stack, name, managed, progress)), differences: [] }
        : await previewProgram(stack, name, managed, progress);

      const verdicts = (
        await Promise.all(instances.map((i, n) => classifyManaged(i.managed, observer, lists[n]!, clients[n]!, name)))
      ).flat();
      const observations = stackObservations({ verdicts, differences }, name, claims, locate);
      progress(`read stack "${name}" in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
      return {
        ...read,
        report: { ...report, status: "reviewed", compared: options.stateOnly ? ["state"] : ["state", "program"] },
        observations,
        listed: new Map(instances.map((i, n) => [i.settings.baseUrl, lists[n]!])),
        // A managed entry that cannot be read already failed the refresh preview, naming its field.
        notes: [VISIBILITY_NOTE, ...results.flatMap((r) => r.problems.map((p) => p.message))],
      };
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  } catch (err) {
    throw toDriftError(err, { stack: name, secrets });
  }
}
