/**
 * The lifecycle of a webhook subscription: Pulumi's provider contract, implemented once for both
 * front doors — the dynamic provider (../dynamic/runtime.ts) and the native plugin
 * (../native/server.ts) are thin adapters over `createProvider()`. The result types are the
 * contract's shapes (type-only: nothing of the dynamic-provider host is loaded).
 *
 * The engine runs one provider process per provider (the default one and each explicit
 * provider), and calls `configure` with that provider's config before anything else.
 *
 * - check validates and normalises inputs, and the settings, before any API call (so at preview);
 * - diff is local, except when the subscription's recorded instance differs from the settings'
 *   (a config change or a `provider` switch): then it asks the new instance whether it holds the GUID;
 * - create is transactional and never leaves a duplicate;
 * - read (refresh) reports the live subscription where it lives (locate.ts), or drops it when gone;
 * - update keeps GUID and Signature; delete unsubscribes where it lives, "already gone" = deleted.
 */
import type * as pulumi from "@pulumi/pulumi";
import { InstanceLimiters, NotFoundError } from "../client";
import { isLegacy } from "../wire";
import { adopt, matches, subscribeOnce, updateChecked } from "./create";
import { diffSubscription } from "./diff";
import { checkInputs, desiredOf, inputsOf, type SubscriptionInputs } from "./inputs";
import { outputsOf, type ResourceOnly, type SubscriptionOutputs } from "./outputs";
import { locate, recordedInstanceFailed } from "./locate";
import { readLive } from "./readLive";
import { Session, type Instance } from "./session";
import { about } from "./progress";
import { apiVersionOf, readSettings, SettingsNotKnownYet, type ConfigSource, type ProviderSettings } from "./settings";
import { PULUMI_WORDING, type FrontDoorWording } from "./settingWording";
import { describeSubscription, warn, warnReplacement } from "./warn";

type Outputs = Partial<SubscriptionOutputs> & { __provider?: string };

/** What a provider process was configured with: its settings, or why they are unusable. */
type Configured = { settings: ProviderSettings; session?: Session } | { error: unknown };

/**
 * A dynamic provider with its own session. The runtime module exports one; tests build their own.
 * @param env where the default provider's `WEBHOOKS_*` and a Provider's `tokenFromEnv` are read.
 * @param limiters injected rate limiters, e.g. on a test clock. @default one set per session
 * @param wording how messages name the front door's settings. @default PULUMI_WORDING
 * @param signal aborting it stops the calls in flight at their next wait, e.g. on Terraform's StopProvider.
 */
export function createProvider(
  options: {
    env?: NodeJS.ProcessEnv;
    limiters?: () => InstanceLimiters;
    wording?: FrontDoorWording;
    signal?: AbortSignal;
  } = {},
) {
  const env = options.env ?? process.env;
  const wording = options.wording ?? PULUMI_WORDING;
  let configured: Configured = { error: new Error("the provider was used before `configure`: this is a bug") };
  /** Settings failures are reported in full once; later checks refer to it. */
  let settingsReported = false;
  /** Subscriptions whose replacement was announced: the engine may diff one more than once per operation. */
  const replacementAnnounced = new Set<string>();

  function session(): Session {
    if ("error" in configured) throw configured.error;
    configured.session ??= new Session(configured.settings, options.limiters?.(), options.signal);
    return configured.session;
  }

  const lifecycle = {
    async configure(req: { config: ConfigSource }): Promise<void> {
      settingsReported = false;
      try {
        configured = { settings: readSettings(req.config, env, wording) };
      } catch (err) {
        configured = { error: err };
      }
    },

    async check(_olds: Record<string, unknown>, news: Record<string, unknown>): Promise<pulumi.dynamic.CheckResult> {
      const { inputs, failures } = checkInputs(news);
      // Sent without `property`: for a failure on a property the engine prints "property X value {…}"
      // with the raw value, even the plaintext of a secret (a customHeaderValue with a stray newline)
      // or a password in a URL. Every reason starts with the field's name, so nothing is lost.
      const reasons = failures.map((f) => ({ property: "", reason: f.reason }));
      // The settings are checked here too, so that preview fails on them rather than `up`.
      if ("error" in configured && !(configured.error instanceof SettingsNotKnownYet)) {
        const message = configured.error instanceof Error ? configured.error.message : String(configured.error);
        reasons.push({
          property: "",
          reason: settingsReported ? `the provider's settings are invalid (see the first error): ${message}` : message,
        });
        settingsReported = true;
      }
      return { inputs, failures: reasons };
    },

    /** Also says which properties change (`changed`), for a front door that shows a detailed diff. */
    async diff(
      id: string,
      olds: Outputs,
      news: SubscriptionInputs,
    ): Promise<pulumi.dynamic.DiffResult & { changed: string[] }> {
      const settings = "settings" in configured ? configured.settings : undefined;
      const result = diffSubscription(olds, news, isLegacy(apiVersionOf(settings)));
      const replaces = [...result.replaces];
      const changed = [...result.changed];
      let changes = result.changes;
      if (settings && olds.baseUrl && olds.baseUrl !== session().home.baseUrl) {
        // The subscription's instance changed. Held by the new instance too (the same instance
        // under a new URL): only the record changes. Otherwise it moves: created there, then
        // unsubscribed from where it lives.
        changes = true;
        changed.push("baseUrl");
        if (!(await about(subjectOf(id, news), () => holds(session().home, id)))) replaces.push("baseUrl");
      }
      if (replaces.length > 0) {
        // Said at preview (and again at up), once per subscription: a replacement is the moment receivers must be ready.
        if (!replacementAnnounced.has(id))
          warnReplacement(news, replaces, {
            replacedForLegacy: result.replacedForLegacy,
            receiverAdvice: wording.receiverAdvice,
          });
        replacementAnnounced.add(id);
        // The replacement's create must make a new subscription, not adopt this identical one
        // (a rotation changes nothing the service stores).
        if (settings) session().claimed.add(id);
      }
      return { changes, replaces, deleteBeforeReplace: false, changed };
    },

    async create(inputs: SubscriptionInputs): Promise<pulumi.dynamic.CreateResult<SubscriptionOutputs>> {
      const s = session();
      const spec = desiredOf(inputs);
      const live = await about(describeSubscription(spec), () =>
        s.home.run("create", () => (inputs.adoptGuid ? adopt(s, inputs.adoptGuid, spec) : subscribeOnce(s, spec))),
      );
      s.home.snapshots.record(live);
      return { id: live.guid, outs: outputsOf(live, ownOf(inputs), s.home.baseUrl) };
    },

    async read(id: string, props: Outputs): Promise<pulumi.dynamic.ReadResult> {
      // Where the subscription lives: the settings' instance when it holds the GUID, else the recorded one.
      const s = session();
      const located = await locate(s, id, props?.baseUrl);
      const at = located.at;
      if (at.legacy) {
        warn(
          `refresh of ${id}: the legacy 2024.1 API has no Get, so drift cannot be seen; the state is left as it was`,
        );
        return { id, props };
      }
      let live = located.live;
      if (!live) {
        try {
          live = await at.run(`refresh of ${id}`, () => readLive(at, id));
        } catch (err) {
          throw at === s.home ? err : recordedInstanceFailed("refresh", id, located, s.home, err);
        }
      }
      if (!live) {
        // A read by GUID alone, without outputs (`WebhookSubscription.get`, the get function,
        // `pulumi import`): say what is missing, in words that hold for every front door.
        if (props?.guid === undefined)
          throw new Error(
            `No subscription ${id} on ${at.baseUrl}: check the GUID and the provider (instance) it is looked up on.`,
          );
        return {};
      }
      const own = ownOf(props);
      return { id: live.guid, props: outputsOf(live, own, at.baseUrl), inputs: inputsOf(live, own) };
    },

    async update(
      id: string,
      olds: Outputs,
      news: SubscriptionInputs,
    ): Promise<pulumi.dynamic.UpdateResult<SubscriptionOutputs>> {
      const s = session();
      const home = s.home;
      if (home.legacy)
        throw new Error(
          `UpdateWebhookSubscription of ${id}: the legacy 2024.1 API has no Update; changes replace the subscription instead. This is a bug in diff: please report it.`,
        );
      const spec = desiredOf(news);
      try {
        const live = await home.run(`update of ${id}`, async () => {
          // Only the record of the instance moves (diff saw the GUID there): nothing to send when nothing else changed.
          if (olds.baseUrl && olds.baseUrl !== home.baseUrl) {
            const current = await home.client.get(id);
            if (matches(current, spec)) return current;
          }
          return updateChecked(home, { guid: id, signature: olds.signature ?? "" }, spec);
        });
        home.snapshots.record(live);
        return {
          outs: outputsOf(live, { ...ownOf(news), adoptGuid: news.adoptGuid ?? olds.adoptGuid ?? null }, home.baseUrl),
        };
      } catch (err) {
        if (err instanceof NotFoundError)
          throw new Error(
            `${err.message} It was deleted outside Pulumi: run \`pulumi refresh\` to drop it from state, then \`pulumi up\` to create it again.`,
            { cause: err },
          );
        throw err;
      }
    },

    async delete(id: string, props?: Outputs): Promise<void> {
      // Unsubscribed where it lives, which after a config change is not the settings' instance.
      const s = session();
      if (s.adoptedThisRun.has(id)) {
        // A replacement whose create adopted this very subscription (e.g. `pulumi up --replace`,
        // which skips diff): the new resource holds it now, so unsubscribing would leave state
        // recording a subscription that no longer exists.
        warn(
          `${id}: not unsubscribed: the replacement adopted this identical subscription and keeps it (same GUID and Signature). ` +
            "To get a new subscription and Signature, change its `rotation` argument instead.",
        );
        return;
      }
      const located = await locate(s, id, props?.baseUrl);
      const at = located.at;
      try {
        await at.run(`delete of ${id}`, async () => {
          try {
            await at.client.unsubscribe(id);
          } catch (err) {
            if (!(err instanceof NotFoundError)) throw err;
            // Already gone: that is what delete wants.
          }
        });
      } catch (err) {
        if (at === s.home) throw err;
        // After a change of the default provider's baseUrl, the old instance is reached with the current credentials.
        throw recordedInstanceFailed("delete", id, located, s.home, err);
      }
      at.snapshots.forget(id);
    },
  };

  // A rate-limited call's progress lines name the subscription it is about (progress.ts).
  return {
    ...lifecycle,
    read: (id: string, props: Outputs) => about(subjectOf(id, props), () => lifecycle.read(id, props)),
    update: (id: string, olds: Outputs, news: SubscriptionInputs) =>
      about(subjectOf(id, news), () => lifecycle.update(id, olds, news)),
    delete: (id: string, props?: Outputs) => about(subjectOf(id, props), () => lifecycle.delete(id, props)),
  };
}

/** What a call's progress lines name: the subscription as declared when known, else its GUID. */
function subjectOf(id: string, props: Partial<SubscriptionInputs> | Outputs | undefined): string {
  return props?.webhook !== undefined && props.subscriberUrl !== undefined
    ? describeSubscription({ ...props, webhook: props.webhook, subscriberUrl: props.subscriberUrl })
    : `subscription ${id}`;
}

/** What this resource keeps of its own arguments (the service does not store them), from inputs or state. */
function ownOf(source: { adoptGuid?: string | null; rotation?: string | null } | undefined): ResourceOnly {
  return { adoptGuid: source?.adoptGuid ?? null, rotation: source?.rotation ?? null };
}

/** Whether `at` holds the subscription `guid` (read as refresh reads it). */
async function holds(at: Instance, guid: string): Promise<boolean> {
  if (at.legacy) return false;
  return at.run(`diff of ${guid}`, async () => (await readLive(at, guid)) !== undefined);
}
