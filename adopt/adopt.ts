/**
 * `adopt`: every subscription no source claims, on the instance the target reaches, written as
 * code in the target's language, so that the team's own `pulumi up` or `tofu apply` takes it over
 * and changes nothing. It reviews the named sources and the target (state only: what they claim),
 * selects (`--match`), names the duplicates, names each subscription, stores header values as
 * stack secrets, writes the code, and with `--verify` previews or plans it. Everything is checked
 * before anything is written: bad input changes nothing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import {
  adoptionNames,
  describeLive,
  guidKey,
  headerValueConfigKey,
  plural,
  reviewDrift,
  reviewEngine,
  takenNames,
  type ReachedInstance,
  type SourceResult,
  type SourcesRead,
  type TerraformCli,
} from "../drift";
import type { Engine } from "../engine/provision";
import { pulumiRun } from "../engine/pulumiRun";
import { hasHeaderValue, webhookName, type Subscription } from "../provider/wire";
import { duplicateGroups, type DuplicateGroup } from "./duplicates";
import { AdoptError } from "./errors";
import { selectByRules } from "./match";
import { setSecretConfig } from "./secretConfig";
import { stackLanguage, writerOf, type TargetLanguage } from "./target";
import { verifyPreview, type Verification } from "./verify/pulumiPreview";
import { verifyPlan } from "./verify/terraformPlan";
import { WriteError, type Adopted, type FileWrite } from "./write/writer";

/** Where the code goes. */
export type AdoptInto =
  { readonly kind: "stack"; readonly stack: string } | { readonly kind: "terraform"; readonly dir: string };

export interface AdoptOptions {
  /** Sources whose subscriptions are not adopted (drift's `--stack`, `--terraform`, `--terraform-state`). */
  readonly stacks: readonly string[];
  readonly terraform: readonly string[];
  readonly terraformStates: readonly (string | SourceResult)[];
  readonly into: AdoptInto;
  /** The program directory of the stacks (`--cwd`), absolute. */
  readonly workDir: string;
  /** Where the command was typed: relative paths are taken from it. */
  readonly cwd: string;
  /** `--match` rules, already checked. */
  readonly match: readonly string[];
  /** `--names`: a name's words by GUID key, already checked. */
  readonly names: ReadonlyMap<string, readonly string[]>;
  readonly layout: "each" | "for-each";
  readonly includeDuplicates: boolean;
  readonly verify: boolean;
  readonly force: boolean;
  readonly env: NodeJS.ProcessEnv;
  readonly terraformCli?: TerraformCli;
  readonly engine?: Engine;
  readonly onProgress?: (line: string) => void;
}

export interface AdoptResult {
  readonly language?: TargetLanguage;
  /** The target directory, absolute. */
  readonly dir: string;
  readonly baseUrl?: string;
  readonly adopted: readonly Adopted[];
  readonly duplicates: readonly DuplicateGroup[];
  /** Files written, relative to `dir` (an edited entry or Pulumi.yaml included). */
  readonly files: readonly string[];
  /** The file the adopted code is in. */
  readonly output?: string;
  /** Header values stored in the stack's secret config. */
  readonly secrets: number;
  /** The line the team must add to its program's entry, when adopt could not. */
  readonly include?: string;
  readonly verification?: Verification;
  readonly notes: readonly string[];
}

/** Folders a program's files are never in. */
const NOT_PROGRAM = new Set([
  "node_modules",
  ".git",
  ".terraform",
  "target",
  "venv",
  ".venv",
  "__pycache__",
  "dist",
  "bin",
  "obj",
]);

/** The program's files, relative, `/`-separated. */
function filesIn(dir: string, under = ""): string[] {
  return readdirSync(join(dir, under), { withFileTypes: true }).flatMap((e) => {
    const path = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) return NOT_PROGRAM.has(e.name) ? [] : filesIn(dir, path);
    return e.isFile() ? [path] : [];
  });
}

/** A writer's refusal as adopt's own error: nothing was written. */
function asAdoptError<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (err instanceof WriteError) throw new AdoptError(`${err.message}. Nothing was written.`);
    throw err;
  }
}

const unique = (list: readonly string[]) => [...new Set(list)];

/** The source the target is, among those read. */
function targetSource(read: SourcesRead, into: AdoptInto): SourceResult {
  const wanted =
    into.kind === "stack"
      ? { kind: "pulumi-stack", name: into.stack }
      : { kind: "terraform-directory", name: into.dir };
  const found = read.sources.find((s) => s.report.source.kind === wanted.kind && s.report.source.name === wanted.name);
  if (!found) throw new AdoptError(`the target ${wanted.name} was not read`);
  return found;
}

/** The instance adopt writes onto: the stack's default provider's, or the directory's. */
function targetInstance(target: SourceResult, into: AdoptInto): ReachedInstance {
  const instance = target.instances.find(
    (i) => i.adoptInto && (i.adoptInto.kind === "terraform-directory" || i.adoptInto.provider === null),
  );
  if (instance) return instance;
  throw new AdoptError(
    into.kind === "stack"
      ? `--into-stack ${into.stack}: the stack reaches its instances only through explicit providers; adopt writes ` +
          "onto the default provider's instance (webhooks:baseUrl). Use the review's per-subscription snippets for the others."
      : `--into-terraform ${into.dir}: no instance found (set base_url in the provider block, or WEBHOOKS_BASE_URL).`,
  );
}

/** Runs an adoption; see the module comment. Rejects with an AdoptError for what the team must fix. */
export async function adopt(options: AdoptOptions): Promise<AdoptResult> {
  const say = options.onProgress ?? (() => {});
  const { into, env } = options;
  const stacks = unique(into.kind === "stack" ? [...options.stacks, into.stack] : options.stacks);
  const dirs = unique(into.kind === "terraform" ? [...options.terraform, into.dir] : options.terraform);
  const dir = into.kind === "stack" ? options.workDir : resolve(options.cwd, into.dir);
  const engine = stacks.length > 0 ? (options.engine ?? (await reviewEngine(env))) : undefined;

  // 1. What every source and the target claim (their states), and what the instances hold.
  let read: SourcesRead | undefined;
  const review = await reviewDrift({
    stacks: stacks.map((name) => ({
      name,
      workDir: options.workDir,
      ...(into.kind === "stack" && name === into.stack ? { flag: "--into-stack" } : {}),
    })),
    terraform: dirs,
    terraformStates: options.terraformStates,
    cwd: options.cwd,
    env,
    stateOnly: true,
    ...(engine ? { engine } : {}),
    ...(options.terraformCli ? { terraformCli: options.terraformCli } : {}),
    onProgress: say,
    onRead: (r) => (read = r),
    callerSaysFailures: true,
  });
  const failed = review.sources.filter((s) => s.status === "error");
  if (failed.length > 0 || !read)
    throw new AdoptError(
      failed.map((s) => `${s.source.name}: ${s.error?.message ?? "could not be read"}`).join("\n") +
        "\nadopt writes nothing until every source can be read: what it claims must not be adopted again.",
    );
  const target = targetSource(read, into);
  const instance = targetInstance(target, into);
  // An instance that could not be listed is not an empty one.
  if (!read.live.has(instance.baseUrl))
    throw new AdoptError(
      `Could not list ${instance.baseUrl}: ${(read.unlisted.get(instance.baseUrl) ?? "no list").replace(/\.?$/, ".")} ` +
        "Check the target's base URL and token (WEBHOOKS_BASE_URL, WEBHOOKS_TOKEN, or its provider's settings), then run adopt again. Nothing was written.",
    );
  const adoptInto = instance.adoptInto!;
  const language: TargetLanguage =
    adoptInto.kind === "pulumi-stack" ? stackLanguage(adoptInto, dir, target.claims.length > 0) : "terraform";

  // 2. The unmanaged subscriptions on that instance, narrowed by --match.
  const live = read.live.get(instance.baseUrl) ?? [];
  const unmanaged = new Set(
    review.findings.filter((f) => f.class === "unmanaged" && f.guid !== null).map((f) => guidKey(f.guid!)),
  );
  const elsewhere = review.findings.filter((f) => f.class === "unmanaged" && f.baseUrl !== instance.baseUrl).length;
  const notes =
    elsewhere > 0
      ? [
          `${elsewhere} unmanaged subscription(s) on other instances are not adopted: adopt writes onto ${instance.baseUrl} only.`,
        ]
      : [];
  // An event newer than this package: no front door accepts it yet (the plugin's check refuses it).
  const unknownEvents = live.filter((s) => unmanaged.has(guidKey(s.guid)) && webhookName(s.webhook) === undefined);
  if (unknownEvents.length > 0)
    notes.push(
      `${unknownEvents.length} unmanaged subscription(s) have an event this release does not know ` +
        `(${unknownEvents
          .map((s) => `${s.guid}: ${s.webhook}`)
          .slice(0, 3)
          .join(", ")}): not adopted; upgrade, then adopt again.`,
    );
  const candidates = live.filter((s) => unmanaged.has(guidKey(s.guid)) && webhookName(s.webhook) !== undefined);
  const result = { language, dir, baseUrl: instance.baseUrl, notes };
  // Nothing unmanaged at all: said, not an error, whatever --match asks (a run after the apply).
  if (candidates.length === 0) return { ...result, adopted: [], duplicates: [], files: [], secrets: 0 };
  const { chosen, unmatched } = selectByRules(candidates, options.match);
  if (unmatched.length > 0)
    throw new AdoptError(
      unmatched
        .map(
          (rule) =>
            `--match ${JSON.stringify(rule)} matched none of the ${candidates.length} unmanaged subscriptions on ${instance.baseUrl}.`,
        )
        .join("\n") + " Check it against the drift review's unmanaged findings; nothing was written.",
    );
  if (chosen.length === 0) return { ...result, adopted: [], duplicates: [], files: [], secrets: 0 };

  // 3. Duplicates: the extras are named, and adopted only when asked.
  const claimed = new Set(read.sources.flatMap((s) => s.claims.map((c) => guidKey(c.guid))));
  const duplicates = duplicateGroups(instance, live, new Set(chosen.map((s) => guidKey(s.guid))), claimed);
  const extras = new Set(duplicates.flatMap((g) => g.extras.map((s) => guidKey(s.guid))));
  const adopting = options.includeDuplicates ? chosen : chosen.filter((s) => !extras.has(guidKey(s.guid)));

  if (adopting.length === 0) return { ...result, adopted: [], duplicates, files: [], secrets: 0 };

  // 4. Names, stable across runs, never one the target already uses.
  const taken = takenNames(target.claims);
  const given = new Map(
    adopting.flatMap((s) => {
      const w = options.names.get(guidKey(s.guid));
      return w ? [[s.guid, w] as const] : [];
    }),
  );
  const named = adoptionNames(adopting, given, taken);
  const secretValues = new Map<string, string>();
  const adopted: Adopted[] = adopting.map((s) => {
    const name = named.get(s.guid)!;
    if (language === "terraform" || !hasHeaderValue(s))
      return { subscription: describeLive(s, instance.baseUrl), name };
    const secretKey = headerValueConfigKey(name);
    secretValues.set(secretKey, s.customHeaderValue!);
    return { subscription: describeLive(s, instance.baseUrl), name, secretKey };
  });
  const ignoredNames = [...options.names.keys()].filter((g) => !adopting.some((s) => guidKey(s.guid) === g));
  if (ignoredNames.length > 0)
    notes.push(
      `--names: ${ignoredNames.length} GUID(s) are not among the subscriptions adopted: ${ignoredNames.slice(0, 3).join(", ")}`,
    );

  // 5. The code, checked before anything is written.
  const write = writerOf(language, options.layout);
  const written = asAdoptError(() =>
    write({
      adopted,
      existing: (path) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : undefined),
      listFiles: () => filesIn(dir),
      force: options.force,
    }),
  );
  const clash = written.files.find((f: FileWrite) => !f.edit && existsSync(join(dir, f.path)));
  const shown = clash && relative(options.cwd, join(dir, clash.path)).split(sep).join("/");
  if (clash && !options.force)
    throw new AdoptError(
      `${shown} already exists: adopt does not overwrite it. Once applied, it is your code: give it its own name ` +
        `(mv ${shown} <name>), then run adopt again. Not applied yet: run again with --force to replace it. Nothing was written.`,
    );
  // --force replaces a run not applied yet; a file declaring what the target manages was applied.
  const existing = clash ? readFileSync(join(dir, clash.path), "utf8").toLowerCase() : "";
  const applied = target.claims.filter((c) => existing.includes(c.guid.toLowerCase()));
  if (clash && applied.length > 0)
    throw new AdoptError(
      `${shown} declares ${applied.length} subscription(s) ${into.kind === "stack" ? `stack ${into.stack}` : into.dir} already manages ` +
        `(${applied
          .slice(0, 3)
          .map((c) => c.guid)
          .join(", ")}): --force would replace it, and the next apply would delete them. ` +
        `Give it its own name (mv ${shown} <name>), then run adopt again. Nothing was written.`,
    );
  say(
    `adopting ${adopted.length} of ${candidates.length} unmanaged subscriptions on ${instance.baseUrl} (${language})`,
  );

  // 6. Header values into the stack's secret config, then the code.
  // The team's environment as it is: a default passphrase could encrypt their secrets under a public one.
  const pulumiEnv = env as Record<string, string>;
  if (into.kind === "stack" && secretValues.size > 0) {
    await setSecretConfig(pulumiRun(engine!), { stack: into.stack, workDir: dir, env: pulumiEnv }, secretValues);
    say(`stored ${plural(secretValues.size, "header value")} in stack ${into.stack}'s secret config`);
  }
  for (const f of written.files) writeFileSync(join(dir, f.path), f.content);
  // A program Pulumi runs as a built binary (Java's jar, a Go binary) runs the new code once rebuilt.
  const binary =
    into.kind === "stack"
      ? /^\s+binary:\s*(\S+)/m.exec(readFileSync(join(dir, "Pulumi.yaml"), "utf8"))?.[1]
      : undefined;
  if (binary)
    notes.push(
      `Pulumi.yaml runs the built ${binary}: build it again (mvn package, go build) before \`adopt --verify\` and \`pulumi up\`, or they run the old one.`,
    );
  const done = {
    ...result,
    adopted,
    duplicates,
    files: written.files.map((f) => f.path),
    output: written.output,
    secrets: secretValues.size,
    ...(written.include ? { include: written.include } : {}),
  };
  if (!options.verify) return done;

  // 7. --verify: the team's own preview or plan shows the adoptions and nothing else.
  say(
    into.kind === "stack"
      ? `verifying: pulumi preview --stack ${into.stack}`
      : `verifying: ${options.terraformCli?.name ?? "tofu"} plan in ${into.dir}`,
  );
  const raw =
    into.kind === "stack"
      ? await verifyPreview(
          pulumiRun(engine!),
          { stack: into.stack, workDir: dir, env: pulumiEnv },
          new Set(adopted.map((a) => a.name.kebab)),
          language === "typescript-dynamic" ? "create" : "import",
        )
      : await verifyPlan(
          { cli: options.terraformCli!, dir: into.dir, absDir: dir, env },
          new Set(
            adopted.map((a) =>
              options.layout === "for-each"
                ? `webhooks_subscription.adopted["${a.name.snake}"]`
                : `webhooks_subscription.${a.name.snake}`,
            ),
          ),
        );
  // A message quotes what a tool printed: no header value may pass through it.
  const secrets = live.flatMap((s: Subscription) => (hasHeaderValue(s) ? [s.customHeaderValue!] : []));
  const verification = {
    ...raw,
    problems: raw.problems.map((p) => secrets.reduce((text, value) => text.split(value).join("<header value>"), p)),
  };
  return { ...done, verification };
}
