/**
 * The review from code (`reviewDrift`) (`pulumi-webhook-subscriptions/drift`), as `webhook-subscriptions drift`
 * runs it: name the sources, get the one model back (model.ts), render it in any format
 * (drift/render/). Also the readers the command line builds its review from.
 */
import { resolve } from "node:path";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import type { Engine } from "../../engine/provision";
import { reviewEngine } from "../sources/pulumi/openStack";
import { readStack, stackRef } from "../sources/pulumi/readStack";
import { findTerraformCli, type TerraformCli } from "../sources/terraform/cli";
import { checkTerraformDirectory } from "../sources/terraform/workingDirectory";
import { readTerraformDirectory } from "../sources/terraform/directory";
import { readTerraformStateFile } from "../sources/terraform/stateFile";
import type { SourceResult } from "../sources/source";
import type { IgnoreEntry, Review, SourceRef } from "./model";
import type { PolicyInput } from "./policy";
import { reviewSources, type ReviewSourcesOptions, type SourceReader } from "./reviewSources";

/** A Pulumi stack to review. */
export interface StackToReview {
  /** The stack, e.g. `dev` or `org/project/dev`. */
  readonly name: string;
  /** The flag that named it, as its messages say. @default "--stack" */
  readonly flag?: string;
  /** The program directory (holding Pulumi.yaml). @default the review's `cwd` */
  readonly workDir?: string;
  /**
   * The stack's program when it is an Automation API inline program (it has none on disk): run in
   * this process, as the code that deploys the stack runs it. @default the program in `workDir`
   */
  readonly program?: PulumiFn;
  /** The state backend. @default `PULUMI_BACKEND_URL`, else Pulumi.yaml's `backend.url`, else the CLI's login */
  readonly backendUrl?: string;
}

/** What `review` reads, and how. */
export interface ReviewOptions {
  readonly stacks?: readonly StackToReview[];
  /** Initialised Terraform/OpenTofu working directories, relative to `cwd`. */
  readonly terraform?: readonly string[];
  /**
   * Terraform/OpenTofu state files (or `show -json` output), relative to `cwd`; or one already read
   * with `readTerraformStateFile` (the command line reads each first, to refuse a bad one), which
   * is not read again.
   */
  readonly terraformStates?: readonly (string | SourceResult)[];
  /** Compare with the state alone: no program runs, a Terraform plan is `-refresh-only`. @default false */
  readonly stateOnly?: boolean;
  /** Where the review runs: paths are relative to it, and so are the findings' locations. @default process.cwd() */
  readonly cwd?: string;
  /** `pulumi`, `tofu`'s and the provider's environment (`PULUMI_*`, `WEBHOOKS_*`, …). @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** The Pulumi CLI. @default the first `pulumi` on PATH */
  readonly engine?: Engine;
  /** The Terraform CLI. @default `tofu` on PATH, else `terraform` */
  readonly terraformCli?: TerraformCli;
  readonly ignore?: readonly string[];
  readonly ignoreEntries?: readonly IgnoreEntry[];
  readonly policy?: PolicyInput;
  readonly baseline?: { readonly file: string; readonly fingerprints: ReadonlySet<string> };
  readonly onProgress?: (line: string) => void;
  /** Receives the sources and the live lists, header values included: see ReviewSourcesOptions. */
  readonly onRead?: ReviewSourcesOptions["onRead"];
  readonly callerSaysFailures?: ReviewSourcesOptions["callerSaysFailures"];
}

/** The readers of stacks: one `pulumi` found once for all of them. */
function stackReaders(
  stacks: readonly StackToReview[],
  options: Pick<ReviewOptions, "cwd" | "env" | "engine" | "stateOnly" | "onProgress">,
): SourceReader[] {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  let engine: Promise<Engine> | undefined;
  const say = options.onProgress ?? (() => {});
  return stacks.map((stack) => {
    const workDir = resolve(cwd, stack.workDir ?? ".");
    return {
      ref: stackRef(stack.name, workDir, cwd),
      read: async () =>
        readStack({
          stackName: stack.name,
          workDir,
          cwd,
          engine: options.engine ?? (await (engine ??= reviewEngine(env))),
          env,
          stateOnly: options.stateOnly ?? false,
          ...(stack.program ? { program: stack.program } : {}),
          ...(stack.backendUrl ? { backendUrl: stack.backendUrl } : {}),
          ...(stack.flag ? { flag: stack.flag } : {}),
          onProgress: stacks.length > 1 ? (line) => say(`${stack.name}: ${line}`) : say,
        }),
    };
  });
}

/**
 * A directory as findings name it, its first `.tf` file the one they point at; one that is no
 * working directory (its read fails, saying why) still names itself.
 */
function directoryRef(dir: string, absDir: string, env: NodeJS.ProcessEnv, cwd: string): SourceRef {
  try {
    return checkTerraformDirectory({ dir, absDir, env, cwd });
  } catch {
    return { kind: "terraform-directory", name: dir, file: dir };
  }
}

/** The readers of Terraform working directories, each planned once with `cli`. */
function terraformReaders(
  dirs: readonly string[],
  options: Pick<ReviewOptions, "cwd" | "env" | "stateOnly"> & { readonly cli: TerraformCli },
): SourceReader[] {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  return dirs.map((dir) => ({
    ref: directoryRef(dir, resolve(cwd, dir), env, cwd),
    read: () =>
      readTerraformDirectory({
        dir,
        absDir: resolve(cwd, dir),
        cli: options.cli,
        stateOnly: options.stateOnly ?? false,
        env: options.env ?? process.env,
        cwd,
      }),
  }));
}

/** A state file already read (the command line reads them before anything else, to refuse a bad one). */
export function readSourceReader(result: SourceResult): SourceReader {
  return { ref: result.report.source, read: () => Promise.resolve(result) };
}

/**
 * Reviews the sources named in `options` against the live instances, writing nothing. Resolves
 * with the review, whatever became of each source (a source that failed is reported with its
 * error, `exitCode` 1); rejects only on bad options (a state file that cannot be read).
 */
export async function reviewDrift(options: ReviewOptions): Promise<Review> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const dirs = options.terraform ?? [];
  const cli = options.terraformCli ?? (dirs.length > 0 ? findTerraformCli(env) : undefined);
  return reviewSources({
    sources: [
      ...stackReaders(options.stacks ?? [], options),
      ...(cli ? terraformReaders(dirs, { ...options, cli }) : []),
      ...(options.terraformStates ?? []).map((file) =>
        readSourceReader(
          typeof file === "string" ? readTerraformStateFile({ file, absFile: resolve(cwd, file), cwd, env }) : file,
        ),
      ),
    ],
    env,
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.ignoreEntries ? { ignoreEntries: options.ignoreEntries } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.baseline ? { baseline: options.baseline } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.onRead ? { onRead: options.onRead } : {}),
    ...(options.callerSaysFailures ? { callerSaysFailures: true } : {}),
  });
}
