/**
 * The subscriptions a Terraform or OpenTofu state holds (`--terraform-state <file>`): the claims
 * of a state file, which the classification counts as managed, or co-owned when another source
 * claims one too. Two inputs are read:
 * - a state file as Terraform and OpenTofu write it (format version 4): `resources[]` with `mode`
 *   `managed`, `type` `webhooks_subscription` and `instances[].attributes.guid`;
 * - what `tofu show -json` (or `terraform show -json`) prints: `values.root_module.resources[]`
 *   and, for modules, `child_modules[]`, each resource with `address` and `values.guid`.
 * Only GUIDs and addresses are kept; a state's other attributes (secrets among them) are not.
 */
import { readFileSync } from "node:fs";

/**
 * The Terraform door's resource type (provider/terraform/names.ts: RESOURCE_TYPE), stated again:
 * the review imports nothing of a front door.
 */
export const TERRAFORM_SUBSCRIPTION_TYPE = "webhooks_subscription";

/** One subscription a Terraform state holds. */
export interface TerraformSubscription {
  /** The resource's address, e.g. `module.hooks.webhooks_subscription.orders["eu"]`. */
  readonly address: string;
  readonly guid: string;
}

/** A state file that cannot be read; the message names the file and what to do. */
export class TerraformStateError extends Error {
  override readonly name = "TerraformStateError";
}

interface StateV4Resource {
  module?: string;
  mode?: string;
  type?: string;
  name?: string;
  instances?: { index_key?: string | number; attributes?: { guid?: unknown } }[];
}

interface ShowModule {
  resources?: { address?: string; mode?: string; type?: string; values?: { guid?: unknown } }[];
  child_modules?: ShowModule[];
}

const isNonEmptyString = (value: unknown): value is string => typeof value === "string" && value !== "";

/** The address of one instance of a state v4 resource, as Terraform prints it. */
function instanceAddress(resource: StateV4Resource, key: string | number | undefined): string {
  const base = `${resource.module ? `${resource.module}.` : ""}${resource.type}.${resource.name}`;
  if (key === undefined) return base;
  return `${base}[${typeof key === "number" ? key : JSON.stringify(key)}]`;
}

function fromStateV4(resources: readonly StateV4Resource[]): TerraformSubscription[] {
  return resources
    .filter((r) => r.mode === "managed" && r.type === TERRAFORM_SUBSCRIPTION_TYPE)
    .flatMap((r) =>
      (r.instances ?? []).flatMap((i) =>
        isNonEmptyString(i.attributes?.guid)
          ? [{ address: instanceAddress(r, i.index_key), guid: i.attributes.guid }]
          : [],
      ),
    );
}

function fromShow(module: ShowModule): TerraformSubscription[] {
  const own = (module.resources ?? [])
    .filter((r) => r.mode === "managed" && r.type === TERRAFORM_SUBSCRIPTION_TYPE)
    .flatMap((r) => (isNonEmptyString(r.values?.guid) ? [{ address: r.address ?? "?", guid: r.values.guid }] : []));
  return [...own, ...(module.child_modules ?? []).flatMap(fromShow)];
}

/**
 * The subscriptions of a state given as JSON text: a state file (format version 4) or the output
 * of `tofu show -json`. `file` names it in errors.
 */
export function parseTerraformState(text: string, file: string): TerraformSubscription[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TerraformStateError(
      `--terraform-state ${file}: not JSON (${(err as Error).message}). Give a state file (terraform.tfstate, or \`tofu state pull > state.json\`) or the output of \`tofu show -json > state.json\`.`,
    );
  }
  const state = (json ?? {}) as { version?: unknown; resources?: unknown; values?: { root_module?: unknown } };
  if (state.values !== undefined && typeof state.values === "object" && state.values !== null)
    return fromShow((state.values.root_module ?? {}) as ShowModule);
  if (state.version === 4 && Array.isArray(state.resources)) return fromStateV4(state.resources as StateV4Resource[]);
  if (Array.isArray(state.resources))
    throw new TerraformStateError(
      `--terraform-state ${file}: state format version ${JSON.stringify(state.version)} is not supported, only 4 (Terraform ≥ 0.12, every OpenTofu). Run \`tofu show -json > state.json\` (or \`terraform show -json\`) and give that file instead.`,
    );
  throw new TerraformStateError(
    `--terraform-state ${file}: neither a state file (no "version": 4 with "resources") nor the output of \`tofu show -json\` (no "values"). Give terraform.tfstate, or run \`tofu show -json > state.json\` in the configuration's directory and give that file.`,
  );
}

/** Reads and parses `path`; `file` is the name as given on the command line. */
export function readTerraformState(path: string, file: string): TerraformSubscription[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new TerraformStateError(
      `--terraform-state ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Name a state file that exists, e.g. terraform.tfstate in the configuration's directory.`,
    );
  }
  return parseTerraformState(text, file);
}
