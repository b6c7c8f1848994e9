/**
 * A Terraform/OpenTofu working directory as a source of the review (`--terraform <dir>`): live,
 * state and configuration compared by ONE plan that is never applied and writes no state,
 *
 *   <cli> plan -input=false -no-color -lock=false -out=<tmp> [-refresh-only]   (in the directory)
 *   <cli> show -json <tmp>                                                      (then the file is deleted)
 *
 * read as Terraform's "JSON Output Format" documents a plan:
 * - `prior_state` is the state as the plan's refresh left it (live values, not yet written): every
 *   `webhooks_subscription` in it, in every module, is claimed, with its full address;
 * - `resource_drift` is what the refresh found changed since the state was written: an update is
 *   `differs-from-state` (recorded = before, live = after), a delete is `deleted` (and claimed: the
 *   state records it, though the refreshed `prior_state` no longer holds it);
 * - `resource_changes` (absent with `-refresh-only`, i.e. `--state-only`) is live-after-refresh
 *   against the configuration: an update, a replace, a delete of one no longer declared, or the
 *   create of one never created is `differs-from-configuration`. A value `apply -refresh-only`
 *   accepted into the state is found here, since the state then agrees with the live one.
 * A secret (sensitive in the plan, or one of the model's secret fields, the write-only header
 * value included) is reported by name alone, and no value of the plan reaches a message.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve, sep } from "node:path";
import { promisify } from "node:util";
import { redact, redactAndCut } from "../../provider/client/redact";
import { readSettings, type ConfigSource } from "../../provider/model";
// The Terraform door's one translation of the model's names: a plan speaks them.
import { camelCase, inHclTerms, snakeCase } from "../../provider/terraform/names";
import type { FieldValue } from "../report";
import { DriftError, DriftErrorCode } from "../errors";
import { SECRET_FIELDS } from "../fields";
import { shellWord } from "../shellWord";
import { TERRAFORM_SUBSCRIPTION_TYPE } from "../terraformState";
import type { FieldFinding, FindingLocation, SourceRef, SourceSummary } from "../review/model";
import { relativeFile } from "./relativeFile";
import type { Claim, Observation, SourceInstance, SourceResult } from "./source";

const execFileAsync = promisify(execFile);

/** The CLI a directory is planned with. */
export interface TerraformCli {
  readonly path: string;
  readonly name: "tofu" | "terraform";
}

export interface TerraformDirectoryOptions {
  /** The directory as given on the command line: findings and messages name it so. */
  readonly dir: string;
  readonly absDir: string;
  readonly cli: TerraformCli;
  /** `--state-only`: live against the state alone (`plan -refresh-only`), no configuration. */
  readonly stateOnly: boolean;
  /** The CLI's environment: the provider's `WEBHOOKS_*` variables, TF_CLI_CONFIG_FILE, TF_VAR_*, … */
  readonly env: NodeJS.ProcessEnv;
  /** Where the review runs: locations are relative to it. */
  readonly cwd: string;
}

/** Where OpenTofu and Terraform are installed from, for the message when neither is on PATH. */
export const TERRAFORM_INSTALL_PAGES = {
  tofu: "https://opentofu.org/docs/intro/install/",
  terraform: "https://developer.hashicorp.com/terraform/install",
} as const;

/** The executable `name` in a PATH of `env`, or undefined. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const names = process.platform === "win32" ? [`${name}.exe`, name] : [name];
  for (const dir of (env.PATH ?? env.Path ?? "").split(delimiter))
    for (const file of names) {
      const path = dir ? join(dir, file) : "";
      if (path && isExecutable(path)) return path;
    }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The team's own CLI: `--terraform-cli <path>` when given, else `tofu` on PATH, else `terraform`
 * on PATH. It never builds or downloads one (engine/tofu.ts does, for the tests).
 */
export function findTerraformCli(env: NodeJS.ProcessEnv, explicit?: string): TerraformCli {
  if (explicit !== undefined) {
    const path = explicit.includes("/") || explicit.includes(sep) ? resolve(explicit) : onPath(explicit, env);
    if (!path || !isExecutable(path))
      throw new DriftError(
        DriftErrorCode.TerraformCliMissing,
        `--terraform-cli ${explicit}: no executable there. Name the tofu or terraform executable (a path, or a name on PATH), or leave the flag out to use tofu, else terraform, from PATH.`,
      );
    return { path, name: /terraform[^/\\]*$/.test(path) ? "terraform" : "tofu" };
  }
  for (const name of ["tofu", "terraform"] as const) {
    const path = onPath(name, env);
    if (path) return { path, name };
  }
  throw new DriftError(
    DriftErrorCode.TerraformCliMissing,
    "--terraform needs OpenTofu (`tofu`) or Terraform (`terraform`) on PATH, and neither is there. " +
      `Install OpenTofu (${TERRAFORM_INSTALL_PAGES.tofu}) or Terraform (${TERRAFORM_INSTALL_PAGES.terraform}), ` +
      "or name the executable with --terraform-cli <path>.",
  );
}

/** A configuration file of the root module: Terraform's `.tf` and `.tf.json`, OpenTofu's `.tofu` too. */
const CONFIG_FILE = /\.(tf|tofu)(\.json)?$/;

/** The directory's configuration files, sorted (throws when it is no directory). */
function configFiles(absDir: string): string[] {
  return readdirSync(absDir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && CONFIG_FILE.test(entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** `<cli> -chdir=<dir> <args>`: a command to paste from anywhere. */
function command(cli: string, dir: string, args: string): string {
  return `\`${cli} -chdir=${shellWord(dir)} ${args}\``;
}

/**
 * Bad input, before anything runs against the instance: `dir` must be an initialised working
 * directory. Returns the source as findings name it (its first configuration file).
 */
export function checkTerraformDirectory(
  options: Pick<TerraformDirectoryOptions, "dir" | "absDir" | "env" | "cwd"> & { readonly cli?: string },
): SourceRef {
  const { dir, absDir } = options;
  const cli = options.cli ?? "tofu";
  const fail = (what: string) => new DriftError(DriftErrorCode.TerraformDirectory, `--terraform ${dir}: ${what}`);
  if (!existsSync(absDir))
    throw fail("no such directory. Name a Terraform/OpenTofu working directory: the one you run `tofu plan` in.");
  if (!statSync(absDir).isDirectory())
    throw fail(
      "not a directory. Name the working directory that holds the configuration's .tf files; for a state file, use --terraform-state.",
    );
  const files = configFiles(absDir);
  if (files.length === 0)
    throw fail(
      "holds no .tf file, so it is no Terraform/OpenTofu configuration. Name the directory that holds the root module's .tf files.",
    );
  // TF_DATA_DIR moves `.terraform` (both CLIs), relative to the working directory.
  const dataDir = resolve(absDir, options.env.TF_DATA_DIR || ".terraform");
  if (!existsSync(dataDir))
    throw fail(
      `not initialised (no ${options.env.TF_DATA_DIR || ".terraform/"} in it). Run ${command(cli, dir, "init")} first, then review again.`,
    );
  return { kind: "terraform-directory", name: dir, file: relativeFile(join(absDir, files[0]!), options.cwd) };
}

/** The values that must never appear in a message: the provider's credentials in the environment. */
function secretsOf(env: NodeJS.ProcessEnv): string[] {
  return [env.WEBHOOKS_TOKEN, env.WEBHOOKS_CLIENT_SECRET].filter((s): s is string => !!s);
}

/** How many of a failed run's errors a message quotes. */
const ERRORS_QUOTED = 3;

/**
 * The errors a failed CLI printed, each on one line, the same one once: without the boxes drawn
 * around them, nor the configuration's source lines and the values of its expressions, which a
 * diagnostic quotes (a literal secret may stand there).
 */
function errorLines(output: string): string {
  const lines = output
    .split("\n")
    // │ ╷ ╵ and ├ └, escaped to keep the executable's bundle ASCII (scripts/release/executables.ts).
    .map((line) => line.replace(/^[\u2502\u2577\u2575]\s?/, ""))
    .filter((line) => !/^\s*(\d+:\s|[\u2502\u251c\u2514])/.test(line))
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const errors: string[] = [];
  for (const line of lines)
    if (line.startsWith("Error:") || errors.length === 0) errors.push(line);
    else errors[errors.length - 1] += ` ${line}`;
  const distinct = [...new Set(errors)];
  const more = distinct.length - ERRORS_QUOTED;
  return distinct.slice(0, ERRORS_QUOTED).join(" ") + (more > 0 ? ` (and ${more} more errors)` : "");
}

/** Runs the CLI in the directory; a failure becomes the error that says why and what to do. */
async function runCli(options: TerraformDirectoryOptions, args: string[]): Promise<string> {
  const { cli, dir, absDir } = options;
  const env = { CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", ...options.env };
  try {
    const { stdout } = await execFileAsync(cli.path, args, {
      cwd: absDir,
      env,
      maxBuffer: 1 << 30,
      windowsHide: true,
    });
    return stdout;
  } catch (err) {
    const failed = err as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    const said =
      failed.code === "ENOENT" || failed.code === "EACCES"
        ? `${cli.path} cannot be run (${failed.code})`
        : errorLines(failed.stderr || failed.stdout || failed.message) || `exit code ${String(failed.code)}`;
    const init =
      /\binit\b|not installed|dependency lock file|Backend initialization required|Module not installed/i.test(said);
    const advice = init
      ? `Run ${command(cli.name, dir, "init")}, then review again.`
      : `Fix what it says (${command(cli.name, dir, "plan")} shows it whole), then review again.`;
    throw new DriftError(
      DriftErrorCode.TerraformPlanFailed,
      redactAndCut(`--terraform ${dir}: \`${cli.name} ${args[0]}\` failed: ${said} ${advice}`, 4000, secretsOf(env)),
      { cause: err },
    );
  }
}

/**
 * Reviews the directory: checks it (bad input throws before anything runs), plans it once with the
 * team's CLI, and reads the plan back. The plan file (it holds the state's values) lives in a
 * private temporary directory, removed whatever happens.
 */
export async function reviewTerraformDirectory(options: TerraformDirectoryOptions): Promise<SourceResult> {
  const ref = checkTerraformDirectory({ ...options, cli: options.cli.name });
  const tmp = mkdtempSync(join(tmpdir(), "webhooks-drift-plan-"));
  try {
    const planFile = join(tmp, "review.tfplan");
    // -lock=false: a plan writes no state, so it needs no lock. Taking it would make an apply
    // started during the review fail ("Error acquiring the state lock") and a review during an
    // apply fail or wait; a scheduled review must never break a deploy. It also needs only read
    // access to the backend (no lock table). What a review sees during an apply is the state as
    // far as that apply wrote it: a subscription created but not yet recorded shows as unmanaged.
    await runCli(options, [
      "plan",
      "-input=false",
      "-no-color",
      "-lock=false",
      `-out=${planFile}`,
      ...(options.stateOnly ? ["-refresh-only"] : []),
    ]);
    const text = await runCli(options, ["show", "-json", "-no-color", planFile]);
    let plan: PlanJson;
    try {
      plan = JSON.parse(text.slice(Math.max(0, text.search(/^\{/m)))) as PlanJson;
    } catch (err) {
      throw new DriftError(
        DriftErrorCode.TerraformPlanFailed,
        `--terraform ${options.dir}: \`${options.cli.name} show -json\` printed no JSON (${(err as Error).message}). Run ${command(options.cli.name, options.dir, "version")} to check the CLI.`,
        { cause: err },
      );
    }
    return planSource(plan, { ...options, ref });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A JSON value of the plan (attributes of this resource are primitives). */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

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

interface StateModule {
  readonly resources?: readonly {
    readonly address: string;
    readonly mode?: string;
    readonly type?: string;
    readonly name?: string;
    readonly values?: Record<string, Json>;
  }[];
  readonly child_modules?: readonly StateModule[];
}

interface ConfigModule {
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
  readonly resource_changes?: readonly PlanChange[];
  readonly configuration?: {
    readonly provider_config?: Readonly<
      Record<string, { readonly expressions?: Readonly<Record<string, { readonly constant_value?: Json }>> }>
    >;
    readonly root_module?: ConfigModule;
  };
}

/** What `planSource` needs besides the plan. */
export interface PlanContext {
  readonly ref: SourceRef;
  readonly dir: string;
  readonly absDir: string;
  readonly cwd: string;
  readonly cli: Pick<TerraformCli, "name">;
  readonly stateOnly: boolean;
  readonly env: NodeJS.ProcessEnv;
}

/** Attributes that name the subscription rather than describe it. */
const IDENTITY = new Set(["id", "guid"]);
/** Attributes only the provider sets: unknown after a replace, which is no difference of theirs. */
const COMPUTED = new Set(["id", "guid", "signature", "base_url"]);
/** The write-only header value and its version (`custom_header_value_wo…`): the model's customHeaderValue, a secret. */
const WRITE_ONLY_PREFIX = `${snakeCase("customHeaderValue")}_wo`;

const isSubscription = (r: { mode?: string; type?: string }) =>
  (r.mode ?? "managed") === "managed" && r.type === TERRAFORM_SUBSCRIPTION_TYPE;
const guidOf = (values: Record<string, Json> | null | undefined): string | undefined =>
  typeof values?.guid === "string" && values.guid !== "" ? values.guid : undefined;
const has = (actions: readonly string[], action: string) => actions.includes(action);

/** The model's name of an attribute: `subscriber_url` → `subscriberUrl`; both write-only ones → `customHeaderValue`. */
function fieldOf(attribute: string): string {
  return attribute.startsWith(WRITE_ONLY_PREFIX) ? "customHeaderValue" : camelCase(attribute);
}

/** Whether the plan marks `attribute` sensitive on one side (`true` marks the whole object). */
function marked(marks: Json | undefined, attribute: string): boolean {
  if (marks === true) return true;
  if (marks === null || typeof marks !== "object" || Array.isArray(marks)) return false;
  const mark = marks[attribute];
  return mark !== undefined && mark !== false && mark !== null;
}

const shown = (value: Json | undefined): FieldValue =>
  value === undefined || value === null || typeof value !== "object" ? (value ?? null) : JSON.stringify(value);

/**
 * The fields whose values differ between `before` and `after`, each as a `FieldFinding`:
 * `beforeAs`/`afterAs` say which side is recorded, live or declared.
 */
function differingFields(
  change: PlanChange["change"],
  beforeAs: "recorded" | "live",
  afterAs: "live" | "declared",
): FieldFinding[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const unknown = change.after_unknown;
  const fields = new Map<string, FieldFinding>();
  for (const attribute of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (IDENTITY.has(attribute)) continue;
    const isUnknown = marked(unknown, attribute);
    if (isUnknown && COMPUTED.has(attribute)) continue;
    if (!isUnknown && JSON.stringify(before[attribute] ?? null) === JSON.stringify(after[attribute] ?? null)) continue;
    const field = fieldOf(attribute);
    const secret =
      SECRET_FIELDS.has(field) ||
      attribute.startsWith(WRITE_ONLY_PREFIX) ||
      marked(change.before_sensitive, attribute) ||
      marked(change.after_sensitive, attribute);
    if (secret) {
      fields.set(field, { field, secret: true });
      continue;
    }
    if (fields.has(field)) continue;
    fields.set(field, {
      field,
      secret: false,
      [beforeAs]: shown(before[attribute]),
      [afterAs]: isUnknown ? "(known after apply)" : shown(after[attribute]),
    });
  }
  return [...fields.values()];
}

const names = (fields: readonly FieldFinding[]) => fields.map((f) => f.field).join(", ");

/** The module path of an address (`module.team["a"].module.inner.x.y` → `["team", "inner"]`). */
function modulePath(address: string): string[] {
  const path: string[] = [];
  const step = /^module\.([A-Za-z0-9_-]+)(?:\[(?:"(?:[^"\\]|\\.)*"|\d+)\])?\./;
  let rest = address;
  for (let m = step.exec(rest); m; m = step.exec(rest)) {
    path.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return path;
}

/** The resource name of an address, when the entry does not say it: `…webhooks_subscription.packets["eu"]` → `packets`. */
function resourceName(address: string): string | undefined {
  return /webhooks_subscription\.([A-Za-z0-9_-]+)(?:\[.*\])?$/.exec(address)?.[1];
}

/** Where each `resource "webhooks_subscription" "<name>"` of a module's .tf files is, by name. */
function declarationsIn(dir: string, cwd: string): Map<string, FindingLocation> {
  const found = new Map<string, FindingLocation>();
  let files: string[];
  try {
    files = configFiles(dir).filter((f) => !f.endsWith(".json"));
  } catch {
    return found;
  }
  const header = /^\s*resource\s+"webhooks_subscription"\s+"([A-Za-z0-9_-]+)"/;
  for (const file of files)
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        const name = header.exec(line)?.[1];
        if (name && !found.has(name)) found.set(name, { file: relativeFile(join(dir, file), cwd), line: i + 1 });
      });
  return found;
}

/**
 * Where each resource is declared: its module's directory (the configuration's local `source`s,
 * else `.terraform/modules/modules.json`, where `init` put remote ones), and the line of
 * `resource "webhooks_subscription" "<name>"` in its .tf files; else the directory's first file.
 */
function locator(plan: PlanJson, context: PlanContext): (address: string, name?: string) => FindingLocation {
  let installed: Map<string, string> | undefined;
  const installedDir = (key: string): string | undefined => {
    if (!installed) {
      installed = new Map();
      try {
        const manifest = JSON.parse(
          readFileSync(
            join(context.absDir, context.env.TF_DATA_DIR || ".terraform", "modules", "modules.json"),
            "utf8",
          ),
        ) as { Modules?: { Key?: string; Dir?: string }[] };
        for (const m of manifest.Modules ?? []) if (m.Key && m.Dir) installed.set(m.Key, m.Dir);
      } catch {
        // No module installed: the local sources say it all.
      }
    }
    const dir = installed.get(key);
    return dir === undefined ? undefined : resolve(context.absDir, dir);
  };
  const moduleDir = (path: readonly string[]): string | undefined => {
    let dir = context.absDir;
    let config = plan.configuration?.root_module;
    for (const [i, name] of path.entries()) {
      const call = config?.module_calls?.[name];
      const source = call?.source ?? "";
      const local = /^\.\.?[/\\]/.test(source) ? resolve(dir, source) : installedDir(path.slice(0, i + 1).join("."));
      if (!local) return undefined;
      dir = local;
      config = call?.module;
    }
    return dir;
  };
  const declarations = new Map<string, Map<string, FindingLocation>>();
  const declared = (dir: string): Map<string, FindingLocation> => {
    let found = declarations.get(dir);
    if (!found) declarations.set(dir, (found = declarationsIn(dir, context.cwd)));
    return found;
  };
  return (address, name = resourceName(address)) => {
    const dir = moduleDir(modulePath(address));
    const at = dir && name ? declared(dir).get(name) : undefined;
    return at ?? { file: context.ref.file };
  };
}

/** Every `webhooks_subscription` of a state's module tree. */
function stateSubscriptions(module: StateModule | undefined): NonNullable<StateModule["resources"]>[number][] {
  if (!module) return [];
  return [
    ...(module.resources ?? []).filter(isSubscription),
    ...(module.child_modules ?? []).flatMap(stateSubscriptions),
  ];
}

/** The provider configurations the configuration's subscriptions use, with their constant arguments. */
function providerConstants(plan: PlanJson): Record<string, Json>[] {
  const keys = new Set<string>();
  const walk = (module: ConfigModule | undefined) => {
    for (const r of module?.resources ?? [])
      if (isSubscription(r) && r.provider_config_key) keys.add(r.provider_config_key);
    for (const call of Object.values(module?.module_calls ?? {})) walk(call.module);
  };
  walk(plan.configuration?.root_module);
  const configs = plan.configuration?.provider_config ?? {};
  const found = [...keys].map((key) =>
    Object.fromEntries(
      Object.entries(configs[key]?.expressions ?? {}).flatMap(([name, e]) =>
        e.constant_value === undefined ? [] : [[name, e.constant_value]],
      ),
    ),
  );
  return found.length > 0 ? found : [{}];
}

/** A provider block's constant arguments as the one settings reader takes them (`webhooks:baseUrl` → `base_url`). */
function blockSource(constants: Record<string, Json>): ConfigSource {
  return {
    get(key) {
      const [prefix, name] = key.split(":");
      if (prefix !== "webhooks" || !name) return undefined;
      const value = constants[snakeCase(name)];
      return value === null || value === undefined ? undefined : String(value);
    },
  };
}

/**
 * The instances the directory's subscriptions live on: each provider block's (its constant
 * `base_url`, else `WEBHOOKS_BASE_URL`, read by the provider's own settings reader), and any
 * other `base_url` the state records for a subscription. What cannot be read becomes a note
 * naming the source (`name`: the directory or state file as given).
 */
export function terraformInstances(
  constants: readonly Record<string, Json>[],
  recorded: readonly string[],
  env: NodeJS.ProcessEnv,
  name: string,
): { instances: SourceInstance[]; notes: string[] } {
  const instances = new Map<string, SourceInstance>();
  const notes: string[] = [];
  const read = (source: ConfigSource): void => {
    const { connection } = readSettings(source, env);
    if (!instances.has(connection.baseUrl))
      instances.set(connection.baseUrl, { baseUrl: connection.baseUrl, apiVersion: connection.apiVersion });
  };
  for (const block of constants)
    try {
      read(blockSource(block));
    } catch (err) {
      notes.push(
        redact(
          `${name}: the review cannot tell which instance its subscriptions live on (${inHclTerms((err as Error).message, [])}). ` +
            "Set WEBHOOKS_BASE_URL and WEBHOOKS_TOKEN for the review, as for `tofu plan`: without them it lists no unmanaged subscription of that instance.",
          secretsOf(env),
        ),
      );
    }
  for (const baseUrl of new Set(recorded))
    try {
      if (!instances.has(baseUrl)) read(blockSource({ base_url: baseUrl }));
    } catch {
      // The note above already says what is missing.
    }
  return { instances: [...instances.values()], notes };
}

/** What `tofu apply` would do, in words. */
function applyWould(change: PlanChange["change"]): string {
  if (has(change.actions, "delete") && has(change.actions, "create")) {
    const forced = (change.replace_paths ?? []).map((p) => fieldOf(String(p[0])));
    return `replace it (a new GUID and Signature${forced.length > 0 ? `; ${[...new Set(forced)].join(", ")} cannot change in place` : ""})`;
  }
  return "update it in place";
}

/** The directory's plan as a source: its claims, what the plan found, its instances. */
export function planSource(plan: PlanJson, context: PlanContext): SourceResult {
  const major = (plan.format_version ?? "1.0").split(".")[0];
  if (major !== "1")
    throw new DriftError(
      DriftErrorCode.TerraformPlanFailed,
      `--terraform ${context.dir}: \`${context.cli.name} show -json\` printed format_version ${plan.format_version}; this review reads 1.x. Use a CLI that prints 1.x, or update webhook-subscriptions.`,
    );
  const cli = context.cli.name;
  const apply = command(cli, context.dir, "apply");
  const locate = locator(plan, context);
  const claims = new Map<string, Claim>();
  const recordedUrls: string[] = [];
  const claim = (address: string, name: string | undefined, values: Record<string, Json> | null | undefined) => {
    const guid = guidOf(values);
    if (!guid || claims.has(address)) return;
    claims.set(address, { guid, address, location: locate(address, name) });
    if (typeof values?.base_url === "string" && values.base_url) recordedUrls.push(values.base_url);
  };
  for (const r of stateSubscriptions(plan.prior_state?.values?.root_module)) claim(r.address, r.name, r.values);

  const observations: Observation[] = [];
  const deleted = new Set<string>();
  for (const d of (plan.resource_drift ?? []).filter(isSubscription)) {
    const { change } = d;
    const guid = guidOf(change.before);
    if (!guid) continue;
    const location = locate(d.address, d.name);
    if (has(change.actions, "delete") || change.after === null || change.after === undefined) {
      // The refreshed prior_state no longer holds it; the state it was planned from does.
      claim(d.address, d.name, change.before);
      deleted.add(d.address);
      observations.push({
        class: "deleted",
        address: d.address,
        guid,
        fields: [],
        message: `${d.address} (${guid}) is recorded in the state of ${context.dir} but no longer exists on the instance.`,
        advice: `Run ${apply} to create it again (a new GUID and Signature: tell its receiver), or remove it from the configuration and run ${apply} to drop it from the state.`,
        location,
      });
    } else if (has(change.actions, "update")) {
      const fields = differingFields(change, "recorded", "live");
      observations.push({
        class: "differs-from-state",
        address: d.address,
        guid,
        fields,
        message: `${d.address} (${guid}) differs from the state of ${context.dir} in ${names(fields) || "its attributes"}.`,
        advice: `Run ${apply} to set the configuration's values again, or ${command(cli, context.dir, "apply -refresh-only")} to accept the live ones into the state (then change the configuration to match, or the next apply reverts them).`,
        location,
      });
    }
  }

  for (const c of (plan.resource_changes ?? []).filter(isSubscription)) {
    const { change } = c;
    const actions = change.actions;
    const location = locate(c.address, c.name);
    const importing = change.importing?.id ?? (change.importing ? guidOf(change.before) : undefined);
    if (c.deposed) {
      const guid = guidOf(change.before);
      if (!guid) continue;
      const address = `${c.address} (deposed ${c.deposed})`;
      claim(address, c.name, change.before);
      observations.push({
        class: "differs-from-configuration",
        address,
        guid,
        fields: [],
        message: `${c.address} has a deposed object ${guid}: the old subscription of a replacement that did not finish, which the configuration no longer declares.`,
        advice: `Run ${apply} to delete it (its replacement is the current ${c.address}).`,
        location,
      });
      continue;
    }
    if (importing !== undefined) {
      observations.push({
        class: "differs-from-configuration",
        address: c.address,
        guid: importing,
        fields: [],
        message: `${c.address} is to be imported from ${importing} by an import block: the state does not record it yet.`,
        advice: `Run ${apply} to import it.`,
        location,
      });
      continue;
    }
    if (has(actions, "create") && !has(actions, "delete")) {
      if (deleted.has(c.address)) continue; // Deleted out of band: reported once, as deleted.
      observations.push({
        class: "differs-from-configuration",
        address: c.address,
        guid: null,
        fields: [],
        message: `${c.address} is declared by the configuration of ${context.dir} but was never created (no state records it).`,
        advice: `Run ${apply} to create it, or remove it from the configuration.`,
        location,
      });
    } else if (has(actions, "delete") && !has(actions, "create")) {
      const guid = guidOf(change.before);
      observations.push({
        class: "differs-from-configuration",
        address: c.address,
        guid: guid ?? null,
        fields: [],
        message: `${c.address}${guid ? ` (${guid})` : ""} exists and is recorded in the state, but the configuration of ${context.dir} no longer declares it.`,
        advice: `Run ${apply} to delete it, or declare it again; to keep the subscription but stop managing it, add a \`removed\` block (or run ${command(cli, context.dir, `state rm ${shellWord(c.address)}`)}).`,
        location,
      });
    } else if (has(actions, "update") || (has(actions, "delete") && has(actions, "create"))) {
      const fields = differingFields(change, "live", "declared");
      const guid = guidOf(change.before) ?? null;
      observations.push({
        class: "differs-from-configuration",
        address: c.address,
        guid,
        fields,
        message: `${c.address}${guid ? ` (${guid})` : ""} differs from the configuration of ${context.dir} in ${names(fields) || "its attributes"}: \`${cli} apply\` would ${applyWould(change)}.`,
        advice: `Run ${apply} to apply the configuration, or change the configuration to the live values.`,
        location,
      });
    }
  }

  const { instances, notes } = terraformInstances(providerConstants(plan), recordedUrls, context.env, context.dir);
  const summary: SourceSummary = {
    source: context.ref,
    comparison: context.stateOnly ? "state" : "state-and-program",
    status: "reviewed",
    claimed: claims.size,
  };
  return {
    summary,
    claims: [...claims.values()],
    observations,
    instances,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/**
 * What to do about an unmanaged subscription on an instance a Terraform directory reaches: after
 * a killed `tofu apply`, its creates that were never recorded are unmanaged, and
 * `adopt_identical = true` in the provider block makes the next apply's create take each over
 * (an identical one: same event, scope, URL and header name) instead of creating a second.
 */
export function terraformAdoptionAdvice(dir: string, guid?: string, cli: TerraformCli["name"] = "tofu"): string {
  const id = guid ?? "<guid>";
  return (
    `If a killed \`${cli} apply\` in ${dir} created it, set \`adopt_identical = true\` in the \`provider "webhooks"\` block ` +
    `and run ${command(cli, dir, "apply")}: the create takes over this identical subscription instead of making a second ` +
    `(then remove the setting again: an identical subscription may be another configuration's). ` +
    `To manage it from ${dir} otherwise, declare it and import it: an \`import\` block with \`to = webhooks_subscription.<name>\` ` +
    `and \`id = "${id}"\`, or ${command(cli, dir, `import webhooks_subscription.<name> ${id}`)}.`
  );
}
