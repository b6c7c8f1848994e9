/**
 * Timed engine operations for the benchmarks: `up` and `refresh` of N WebhookSubscriptions
 * against the emulator — through the dynamic provider or the native plugin — and of N no-op
 * dynamic resources (the engine floor), on one engine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { dump as dumpYaml } from "js-yaml";
import type { Stack } from "@pulumi/pulumi/automation";
import { WebhookSubscription } from "pulumi-webhook-subscriptions";
import * as webhooks from "pulumi-webhook-subscriptions/native";
import { openStack } from "../engine/automation";
import type { Engine } from "../engine/provision";
import { NoopResource } from "./noopResource";

/** What a stack declares: WebhookSubscriptions (dynamic provider), the same through the native plugin, or the floor. */
export type Kind = "subscriptions" | "native" | "noop";

/** The native plugin directory `npm run build:plugin` writes. */
const PLUGIN_DIR = resolve(__dirname, "../dist/plugin/webhooks");

export interface BenchContext {
  engine: Engine;
  dir: string;
  emulatorUrl: string;
  n: number;
}

/** N resources of `kind`, with the same inputs either way. */
function program(kind: Kind, n: number) {
  return async () => {
    for (let i = 0; i < n; i++) {
      const args = {
        // The name: both front doors take it (the native SDK only it).
        webhook: "BusinessObjectCreated" as const,
        filterObjectType: 7,
        subscriberUrl: `https://hooks.example.com/bench/${i}`,
        customHeader: "X-Bench",
        customHeaderValue: `value-${i}`,
      };
      if (kind === "subscriptions") new WebhookSubscription(`sub-${i}`, args);
      else if (kind === "native") new webhooks.WebhookSubscription(`sub-${i}`, args);
      else new NoopResource(`noop-${i}`, args);
    }
    return {};
  };
}

let stackCounter = 0;

/**
 * A fresh stack for `kind`, so every measured `up` creates all N resources (`n` overrides ctx.n;
 * `env` adds to the engine's environment, e.g. PULUMI_SKIP_CHECKPOINTS).
 */
export async function freshStack(
  ctx: BenchContext,
  kind: Kind,
  n = ctx.n,
  env: Record<string, string> = {},
): Promise<Stack> {
  return openStack({
    engine: ctx.engine,
    backendDir: join(ctx.dir, "state"),
    stackName: `${kind}-${process.pid}-${++stackCounter}`,
    workDir: kind === "native" ? nativeProject(ctx) : ctx.dir,
    projectName: "bench",
    program: program(kind, n),
    env: { WEBHOOKS_BASE_URL: ctx.emulatorUrl, WEBHOOKS_TOKEN: "dev-builder", ...env },
  });
}

/**
 * The native stacks' project directory, beside the others': its Pulumi.yaml points at the plugin
 * by path, as a checkout's program would. A project of its own, so the dynamic stacks' project
 * does not name (and the engine never considers) a plugin they do not use.
 */
function nativeProject(ctx: BenchContext): string {
  if (!existsSync(join(PLUGIN_DIR, "PulumiPlugin.yaml")))
    throw new Error(`No native plugin in ${PLUGIN_DIR}: run \`npm run build:plugin\` first (\`npm run bench\` does).`);
  const dir = join(ctx.dir, "native");
  mkdirSync(dir, { recursive: true });
  const project = {
    name: "bench-native",
    runtime: "nodejs",
    backend: { url: pathToFileURL(resolve(ctx.dir, "state")).href },
    plugins: { providers: [{ name: "webhooks", path: PLUGIN_DIR }] },
  };
  writeFileSync(join(dir, "Pulumi.yaml"), dumpYaml(project));
  return dir;
}

/** Seconds an async step takes. */
export async function timed(step: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await step();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Runs `up` and fails loudly unless every resource was created. */
export async function upAll(stack: Stack, n: number): Promise<void> {
  const result = await stack.up();
  const created = result.summary.resourceChanges?.create ?? 0;
  if (result.summary.result !== "succeeded" || created !== n + 1)
    throw new Error(`up ${result.summary.result} with ${created} of ${n + 1} resources created`);
}

/** Runs `destroy` and fails loudly unless every resource was deleted. */
export async function destroyAll(stack: Stack, n: number): Promise<void> {
  const result = await stack.destroy();
  const deleted = result.summary.resourceChanges?.delete ?? 0;
  if (result.summary.result !== "succeeded" || deleted !== n + 1)
    throw new Error(`destroy ${result.summary.result} with ${deleted} of ${n + 1} resources deleted`);
}

/** Runs `preview` and fails loudly unless the stack is unchanged. */
export async function previewUnchanged(stack: Stack, n: number): Promise<void> {
  const result = await stack.preview();
  const same = result.changeSummary.same ?? 0;
  if (same !== n + 1 || Object.keys(result.changeSummary).length !== 1)
    throw new Error(`preview of an unchanged stack planned ${JSON.stringify(result.changeSummary)}`);
}

/** Bytes of the state at rest: the `__provider` of one resource and the whole checkpoint per resource. */
export function stateBytes(ctx: BenchContext, stack: Stack): { provider: number; perResource: number } {
  const file = join(ctx.dir, "state", ".pulumi", "stacks", "bench", `${stack.name}.json`);
  const raw = readFileSync(file, "utf8");
  const resources = (
    JSON.parse(raw) as {
      checkpoint: { latest: { resources: Array<{ type: string; inputs: { __provider?: string } }> } };
    }
  ).checkpoint.latest.resources.filter((r) => r.type === "pulumi-nodejs:dynamic/webhooks:WebhookSubscription");
  if (resources.length === 0) throw new Error("no WebhookSubscription in the state");
  return {
    provider: Buffer.byteLength(resources[0]!.inputs.__provider ?? ""),
    perResource: Buffer.byteLength(raw) / resources.length,
  };
}
