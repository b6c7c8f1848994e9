/**
 * How a front door names the provider's settings to the people who set them. The core knows a
 * setting by its name in the one model and by the environment variable every front door falls
 * back to; where else it is set differs per front door (Pulumi stack config `webhooks:<name>`, a
 * Pulumi `Provider` argument, a Terraform provider block's `snake_case` attribute). The core
 * reports which setting a message is about; the front door's wording says it.
 */

/** What the core knows about one setting when a message names it. */
export interface SettingRef {
  /** The setting's name in the one model, e.g. `retryDeadlineMs`. */
  readonly name: string;
  /** The environment variable the default provider falls back to, e.g. `WEBHOOKS_RETRY_DEADLINE_MS`. */
  readonly envVar: string;
  /** The explicit provider whose argument it is; absent for the default provider. */
  readonly provider?: string;
  /** Where this run read it: `config` (or a provider argument), `env`, or `unset`. */
  readonly source: "config" | "env" | "unset";
}

/** One front door's names for settings and for its own knobs. */
export interface FrontDoorWording {
  /** The setting as people change it, e.g. `webhooks:retryDeadlineMs (or WEBHOOKS_RETRY_DEADLINE_MS)`. */
  setting(ref: SettingRef): string;
  /** How to run fewer operations at once, e.g. `` `pulumi up --parallel N` ``. */
  readonly parallelism: string;
  /**
   * What receivers must do while a replaced subscription and its replacement both deliver, in
   * words that fit the languages of the front door (a TypeScript API means nothing to YAML).
   */
  readonly receiverAdvice: string;
}

/**
 * Both Pulumi front doors (the dynamic provider and the native plugin): stack config
 * `webhooks:<name>` or the environment variable for the default provider, the argument of
 * the same name for an explicit `Provider`. The receiver advice holds for every language the
 * native plugin serves; the dynamic provider, TypeScript only, says more (../dynamic/wording.ts).
 */
export const PULUMI_WORDING: FrontDoorWording = {
  setting: ({ name, envVar, provider, source }) => {
    if (provider !== undefined) return `the ${name} argument of Provider "${provider}"`;
    if (source === "env") return envVar;
    if (source === "config") return `webhooks:${name}`;
    return `webhooks:${name} (or ${envVar})`;
  },
  parallelism: "`pulumi up --parallel N`",
  receiverAdvice:
    "receivers must accept both the old and the new Signature during the overlap (the new one is the resource's signature output)",
};
