/**
 * The drift review: compares what a stack's state says about its WebhookSubscriptions with
 * what the instance really holds, without writing anything to the state.
 *
 * 1. open the existing stack (never create one) and read its config and state;
 * 2. list the instance's subscriptions with our own client: this fails fast, with the client's
 *    plain errors, on bad credentials or an unreachable instance, and it yields the unmanaged
 *    subscriptions and the plaintext of changed secrets;
 * 3. preview the stack's program with a refresh (previewProgram.ts), or with `stateOnly` run a
 *    refresh *preview* (refreshPreview.ts), through the Automation API, writing nothing: its refresh
 *    steps, the provider's own `read`, decide what changed and what is gone, exactly as `pulumi
 *    refresh` would; its program steps say what differs from the program, which a state comparison
 *    cannot see once a refresh has accepted the live values into the state;
 * 4. classify each managed subscription and list the unmanaged ones.
 */
import {
  mayMeanGone,
  NotFoundError,
  VISIBILITY_NOTE,
  WebhookSubscriptionClient,
  type RequestEvent,
} from "../provider/client";
import { clientSettings, readSettings, type ConfigSource } from "../provider/model";
import { isLegacy, type Subscription } from "../provider/wire";
import type { Engine } from "../engine/provision";
import { displayBackend } from "../engine/backend";
import { classify, engineSawChange } from "./classify";
import { DriftError, DriftErrorCode, toDriftError } from "./errors";
import { openReviewStack, reviewEngine } from "./openReviewStack";
import { StackStates } from "./stackStates";
import { plural } from "./plural";
import { refreshPreview } from "./refreshPreview";
import type { RefreshObserver } from "./refreshObserver";
import {
  driftReport,
  undeterminedReport,
  type DriftReport,
  type ManagedSubscription,
  type ReportContext,
  type ReportInstance,
} from "./report";
import { guidKey, stateSnapshot, type StateSubscription } from "./stateSnapshot";
import { unmanagedSubscriptions } from "./unmanaged";
import { isIgnored } from "./ignore";
import { instancesOf } from "./instances";
import { adoptionFrontDoor } from "./adoptionFrontDoor";
import { coOwnedSubscriptions, type StackSubscriptions } from "./coOwnership";
import { matchPendingCreates, recoveryCommands } from "./pendingCreates";
import { reviewPolicy, withPolicy } from "./policy";
import { previewProgram } from "./previewProgram";
import { terraformScope, type TerraformState } from "./terraformState";
import type { PolicySettings } from "../policy/settings";
import type { PulumiFn } from "@pulumi/pulumi/automation";

export interface ReviewDriftOptions {
  /** The stack to review, e.g. `dev` or `org/project/dev`. */
  readonly stackName: string;
  /** The program directory (holding Pulumi.yaml); also the dynamic provider's working directory. */
  readonly workDir: string;
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
   * Other stacks sharing the instances: their subscriptions count as managed, so "unmanaged"
   * means managed by none of the stacks. @default []
   */
  readonly alsoManagedBy?: readonly string[];
  /**
   * The states already exported by the other reviews of one run (drift/stackStates.ts): pass the
   * same object to the review of each stack of `alsoManagedBy`, and each state is read once.
   * @default a new one: this review exports every state it needs
   */
  readonly stackStates?: StackStates;
  /**
   * Subscriptions deliberately managed elsewhere: GUIDs or subscriber-URL prefixes. Matching
   * live subscriptions are not reported as unmanaged; the report lists them under `ignored`.
   * @default []
   */
  readonly ignore?: readonly string[];
  /**
   * Policy settings (`--policy <file.json>`, docs/policy.md): every live subscription on the
   * instances, managed or not, is held to the rules; the report lists each violation.
   */
  readonly policy?: { readonly file: string; readonly settings: PolicySettings };
  /**
   * Compare the live instance with the state alone (`--state-only`), without running the
   * program: for a machine without the program's toolchain. A `pulumi refresh` copies live
   * values into the state, so this review no longer sees them (docs/drift.md).
   * @default false: the program is previewed too, with a refresh, applying nothing
   */
  readonly stateOnly?: boolean;
  /**
   * Terraform/OpenTofu states (`--terraform-state`, drift/terraformState.ts): their subscriptions
   * count as managed, and one the stack records too is co-owned. @default []
   */
  readonly terraformStates?: readonly TerraformState[];
  /**
   * Called with each instance's live subscriptions as listed, so that a review of several sources
   * (drift/review/) lists each instance once.
   */
  readonly onListed?: (
    instance: { readonly baseUrl: string; readonly apiVersion: string },
    live: readonly Subscription[],
  ) => void;
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
 * Reviews the drift of one stack. Resolves with the report (status `in-sync`, `drift` or, in
 * legacy mode, `undetermined`); rejects with a `DriftError` whose message says what went wrong
 * and holds no credentials.
 */
export async function reviewDrift(options: ReviewDriftOptions): Promise<DriftReport> {
  const startedAt = Date.now();
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  const progress = options.onProgress ?? (() => {});
  const secrets: (string | undefined)[] = [];
  try {
    const engine = options.engine ?? (await reviewEngine(env));
    progress(`opening stack "${options.stackName}" with pulumi ${engine.version} (${engine.binDir})`);
    const { stack, backend } = await openReviewStack({
      engine,
      stackName: options.stackName,
      workDir: options.workDir,
      backendUrl: options.backendUrl,
      env: options.env ?? {},
      ...(options.program ? { program: options.program } : {}),
      runsProgram: !options.stateOnly,
    });
    const shownBackend = displayBackend(backend);

    // The state is exported with plaintext secrets: used to compare, never printed.
    const stackStates = options.stackStates ?? new StackStates();
    const [config, state, project] = await Promise.all([
      stack.getAllConfig(),
      stackStates.of(options.stackName, async () => stateSnapshot((await stack.exportStack()).deployment)),
      stack.workspace.projectSettings(),
    ]);
    for (const entry of Object.values(config)) if (entry.secret) secrets.push(entry.value);
    const source: ConfigSource = { get: (key) => config[key]?.value };
    progress(
      `stack "${options.stackName}" in ${shownBackend}: ${plural(state.managed.length, "managed subscription")} in state`,
    );

    const alsoManagedBy = options.alsoManagedBy ?? [];
    const managedGuids = new Set(state.guids);
    const others: StackSubscriptions[] = [];
    const otherStates = await Promise.all(
      alsoManagedBy.map((other) =>
        stackStates.of(other, async () => {
          progress(`reading the state of stack "${other}" (its subscriptions count as managed)`);
          const { stack: otherStack } = await openReviewStack({
            engine,
            stackName: other,
            workDir: options.workDir,
            backendUrl: options.backendUrl,
            env: options.env ?? {},
          });
          return stateSnapshot((await otherStack.exportStack()).deployment);
        }),
      ),
    );
    alsoManagedBy.forEach((other, n) => {
      for (const guid of otherStates[n]!.guids) managedGuids.add(guid);
      others.push({ stack: other, managed: otherStates[n]!.managed });
    });
    const terraformStates = options.terraformStates ?? [];
    for (const tf of terraformStates) {
      for (const { guid } of tf.subscriptions) managedGuids.add(guidKey(guid));
      others.push({
        stack: tf.file,
        tool: "terraform",
        managed: tf.subscriptions.map((s) => ({ urn: s.address, name: s.address, guid: s.guid })),
      });
    }

    const instances = instancesOf(state, source, env);
    for (const i of instances) secrets.push(i.settings.token, i.settings.oauth?.clientSecret);
    // Providers reaching one instance are reviewed once, with the first one's settings: the
    // credentials of the others must not show either.
    for (const { config } of state.providers.values()) {
      const { token, oauth } = readSettings(config, env).connection;
      secrets.push(token, oauth?.clientSecret);
    }
    const described = instances.map((i): ReportInstance => ({
      baseUrl: i.settings.baseUrl,
      apiVersion: i.settings.apiVersion,
      provider: i.provider,
    }));
    const ignore = options.ignore ?? [];
    const context: ReportContext = {
      stack: options.stackName,
      backend: shownBackend,
      instance: described[0] ?? null,
      instances: described,
      ...(alsoManagedBy.length > 0 ? { alsoManagedBy } : {}),
      ...terraformScope(terraformStates),
      comparison: options.stateOnly ? "state" : "state-and-program",
      startedAt,
    };
    if (instances.some((i) => isLegacy(i.settings.apiVersion)))
      return undeterminedReport(context, state.managed, legacyReason(options.stackName));

    const clients = instances.map(
      (i) => new WebhookSubscriptionClient({ ...clientSettings(i.settings), onRequest: reportRetries(progress) }),
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
      instances.forEach((i, n) => options.onListed?.(i.settings, lists[n]!));
      const listed = plural(
        lists.reduce((n, l) => n + l.length, 0),
        "subscription",
      );
      const where = instances.length === 1 ? "the instance" : `${instances.length} instances`;
      // With the program, its preview refreshes too: one run gives both comparisons, as `pulumi preview --refresh`.
      progress(
        options.stateOnly
          ? `${listed} on ${where}; refresh preview of ${state.managed.length} (nothing is written to the state)`
          : `${listed} on ${where}; preview of the program with a refresh of ${state.managed.length}, ` +
              "to compare the live subscriptions with the state and with the program (nothing is applied or written)",
      );
      const { observer, differences } = options.stateOnly
        ? { ...(await refreshPreview(stack, options.stackName, state.managed.length, progress)), differences: [] }
        : await previewProgram(stack, options.stackName, state.managed.length, progress);

      const managed = (
        await Promise.all(
          instances.map((i, n) => classifyAll(i.managed, observer, lists[n]!, clients[n]!, options.stackName)),
        )
      ).flat();
      const ignoredGuids: string[] = [];
      const runtime = runtimeName(project.runtime);
      const reviewed = lists.map((list) =>
        list.filter((live) => {
          if (!isIgnored(live, ignore)) return true;
          ignoredGuids.push(live.guid);
          return false;
        }),
      );
      const pendingCreates = matchPendingCreates(
        state.pendingCreates,
        reviewed.flat().filter((live) => !managedGuids.has(guidKey(live.guid))),
      );
      const unmanaged = instances.flatMap((i, n) =>
        unmanagedSubscriptions(
          reviewed[n]!,
          managedGuids,
          {
            baseUrl: i.settings.baseUrl,
            adoption: {
              frontDoor: adoptionFrontDoor(state, i.providerUrn, runtime),
              stack: options.stackName,
              ...(runtime === undefined ? {} : { runtime }),
              provider: i.providerUrn === null ? null : { name: i.provider!, urn: i.providerUrn },
            },
          },
          pendingCreates,
        ),
      );
      // A managed entry that cannot be read already failed the refresh preview, naming its field.
      const notes = [VISIBILITY_NOTE, ...results.flatMap((r) => r.problems.map((p) => p.message))];
      const recovery = recoveryCommands(options.stackName, state.pendingCreates.length, [...pendingCreates.values()]);
      const report = driftReport(
        { ...context, ...(ignore.length > 0 ? { ignored: { rules: ignore, guids: ignoredGuids } } : {}) },
        managed,
        unmanaged,
        notes,
        {
          coOwned: coOwnedSubscriptions({ stack: options.stackName, managed: state.managed }, others),
          recovery,
          differsFromProgram: differences,
        },
      );
      progress(`done in ${(report.durationMs / 1000).toFixed(1)}s: ${report.status}`);
      if (!options.policy) return report;
      const policyInstances = instances.map((i, n) => ({
        baseUrl: i.settings.baseUrl,
        apiVersion: i.settings.apiVersion,
        live: lists[n]!,
        managedNames: new Map(i.managed.map((s) => [guidKey(s.guid), s.name])),
      }));
      return withPolicy(report, reviewPolicy(options.policy.file, options.policy.settings, policyInstances));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  } catch (err) {
    throw toDriftError(err, { stack: options.stackName, secrets });
  }
}

/** The runtime's name from Pulumi.yaml (`runtime: yaml` or `runtime: { name: nodejs, options }`). */
function runtimeName(runtime: string | { name: string } | undefined): string | undefined {
  return typeof runtime === "string" ? runtime : runtime?.name;
}

/** Classifies every managed subscription; a changed one missing from the list is read with Get. */
async function classifyAll(
  managed: readonly StateSubscription[],
  observer: RefreshObserver,
  live: readonly Subscription[],
  client: WebhookSubscriptionClient,
  stackName: string,
): Promise<ManagedSubscription[]> {
  const liveByGuid = new Map(live.map((s) => [guidKey(s.guid), s]));
  const unreported = managed.filter((s) => !observer.get(s.urn));
  if (unreported.length > 0)
    throw new DriftError(
      DriftErrorCode.RefreshIncomplete,
      `The refresh preview of stack "${stackName}" reported nothing about ${unreported.map((s) => s.name).join(", ")}, so their drift is unknown. Run the review again; if it persists, run \`pulumi refresh --preview-only\` to see why.`,
    );
  return Promise.all(
    managed.map(async (s) => {
      const observation = observer.get(s.urn)!;
      let current = liveByGuid.get(guidKey(s.guid));
      // Created or paged out since the list: read it, to know which secret changed.
      if (!current && engineSawChange(observation)) current = await client.get(s.guid).catch(ignoreNotFound);
      return classify(s, observation, current);
    }),
  );
}

function ignoreNotFound(err: unknown): undefined {
  // A 400 that may mean gone needs no confirming here: the refresh preview already decided.
  if (err instanceof NotFoundError || mayMeanGone(err)) return undefined;
  throw err;
}

/** A progress line for every retried request, so a slow or flaky instance does not look hung. */
function reportRetries(progress: (line: string) => void): (event: RequestEvent) => void {
  return (event) => {
    if (event.retryInMs === undefined) return;
    const why = event.status !== undefined ? `HTTP ${event.status}` : (event.networkCode ?? "no response");
    progress(
      `${event.operation} attempt ${event.attempt} failed (${why}); retrying in ${Math.round(event.retryInMs)} ms`,
    );
  };
}
