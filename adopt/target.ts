/**
 * The target of an adoption: a stack's program, in the language of its Pulumi.yaml runtime and,
 * for TypeScript, on the front door it uses, or a Terraform/OpenTofu directory. Each has its writer.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AdoptionTarget } from "../drift";
import { AdoptError } from "./errors";
import { terraformWriter } from "./write/terraform";
import { goWriter } from "./write/pulumi/go";
import { javaWriter } from "./write/pulumi/java";
import { pythonWriter } from "./write/pulumi/python";
import { typescriptDynamicWriter } from "./write/pulumi/typescriptDynamic";
import { typescriptNativeWriter } from "./write/pulumi/typescriptNative";
import { typescriptEntry } from "./write/pulumi/typescriptEntry";
import { yamlWriter } from "./write/pulumi/yaml";
import type { Writer } from "./write/writer";

/** The languages adopt writes, as its messages and docs name them. */
export type TargetLanguage =
  "typescript-dynamic" | "typescript-native" | "python" | "go" | "java" | "yaml" | "terraform";

const PULUMI_WRITERS: Readonly<Record<Exclude<TargetLanguage, "terraform">, Writer>> = {
  "typescript-dynamic": typescriptDynamicWriter,
  "typescript-native": typescriptNativeWriter,
  python: pythonWriter,
  go: goWriter,
  java: javaWriter,
  yaml: yamlWriter,
};

/** The runtimes of Pulumi.yaml adopt can write for, by language. */
const RUNTIMES: Readonly<Record<string, Exclude<TargetLanguage, "terraform" | `typescript-${string}`>>> = {
  python: "python",
  go: "go",
  java: "java",
  yaml: "yaml",
};

/**
 * Whether a TypeScript program with no subscriptions yet uses the native SDK: its entry (found as
 * the writers find it) imports `pulumi-webhook-subscriptions/native`. (A stack that holds
 * subscriptions says its front door.)
 */
function programUsesNativeSdk(workDir: string): boolean {
  const existing = (path: string) => {
    const file = join(workDir, path);
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  };
  return /["']pulumi-webhook-subscriptions\/native["']/.test(existing(typescriptEntry({ existing })) ?? "");
}

/** The language of a stack target reaching its instance as `into` says. */
export function stackLanguage(
  into: Extract<AdoptionTarget, { kind: "pulumi-stack" }>,
  workDir: string,
  holdsSubscriptions: boolean,
): TargetLanguage {
  const runtime = into.runtime ?? "nodejs";
  if (runtime === "nodejs")
    return into.frontDoor === "native" || (!holdsSubscriptions && programUsesNativeSdk(workDir))
      ? "typescript-native"
      : "typescript-dynamic";
  const language = RUNTIMES[runtime];
  if (!language)
    throw new AdoptError(
      `--into-stack: the program in ${workDir} runs on ${JSON.stringify(runtime)}, which adopt does not write ` +
        `(it writes TypeScript, Python, Go, Java and YAML). Use the review's per-subscription \`pulumi import\` commands instead.`,
    );
  return language;
}

/** The writer of `language`; `layout` is a Terraform target's. */
export function writerOf(language: TargetLanguage, layout: "each" | "for-each"): Writer {
  return language === "terraform" ? terraformWriter(layout) : PULUMI_WRITERS[language];
}
