/**
 * What the review reads of `<cli> show -json <plan>`, as Terraform's "JSON Output Format"
 * documents a plan (OpenTofu prints the same), and the few questions every reader of it asks.
 */
import { TERRAFORM_SUBSCRIPTION_TYPE } from "./stateParsing";

/** A JSON value of the plan (attributes of this resource are primitives). */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A resource's change in the plan: `resource_changes[]` and `resource_drift[]`. */
export interface PlanChange {
  readonly address: string;
  readonly module_address?: string;
  readonly mode?: string;
  readonly type?: string;
  readonly name?: string;
  readonly deposed?: string;
  readonly action_reason?: string;
  readonly change: {
    readonly actions: readonly string[];
    readonly before?: Record<string, Json> | null;
    readonly after?: Record<string, Json> | null;
    readonly after_unknown?: Json;
    readonly before_sensitive?: Json;
    readonly after_sensitive?: Json;
    readonly replace_paths?: readonly (readonly (string | number)[])[];
    readonly importing?: { readonly id?: string } | null;
  };
}

/** A module of a state as `show -json` prints it: `prior_state.values.root_module` and its children. */
export interface StateModule {
  readonly resources?: readonly {
    readonly address: string;
    readonly mode?: string;
    readonly type?: string;
    readonly name?: string;
    readonly values?: Record<string, Json>;
  }[];
  readonly child_modules?: readonly StateModule[];
}

/** A module of the configuration: its resources and the modules it calls. */
export interface ConfigModule {
  readonly resources?: readonly {
    readonly type?: string;
    readonly mode?: string;
    readonly provider_config_key?: string;
  }[];
  readonly module_calls?: Readonly<Record<string, { readonly source?: string; readonly module?: ConfigModule }>>;
}

/** What the review reads of `<cli> show -json <plan>`. */
export interface PlanJson {
  readonly format_version?: string;
  readonly prior_state?: { readonly values?: { readonly root_module?: StateModule } };
  readonly resource_drift?: readonly PlanChange[];
  /** Absent in a `-refresh-only` plan, which compares nothing with the configuration. */
  readonly resource_changes?: readonly PlanChange[];
  readonly configuration?: {
    readonly provider_config?: Readonly<
      Record<string, { readonly expressions?: Readonly<Record<string, { readonly constant_value?: Json }>> }>
    >;
    readonly root_module?: ConfigModule;
  };
}

/** Whether a plan entry is a managed `webhooks_subscription` (a data source is no claim). */
export const isSubscription = (r: { readonly mode?: string; readonly type?: string }): boolean =>
  (r.mode ?? "managed") === "managed" && r.type === TERRAFORM_SUBSCRIPTION_TYPE;

/** The GUID of a subscription's values, when they hold one. */
export const guidOf = (values: Record<string, Json> | null | undefined): string | undefined =>
  typeof values?.guid === "string" && values.guid !== "" ? values.guid : undefined;
