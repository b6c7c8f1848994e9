/**
 * `pulumi up` of an in-process program, as the Automation API's `Stack.up` runs it (the CLI with
 * `--client` pointing at the API's language runtime serving the program from this process), but
 * without what `Stack.up` does after every update: `stack output` twice and `stack history` — three
 * more CLI processes (~1 s of wall, ~0.9 s of CPU here) for answers `npm start` reads from the
 * update's own events instead. The runtime is the Automation API's own (`automation/server`, marked
 * internal, so a release of @pulumi/pulumi may move it: test/e2e/frontDoor.test.ts runs it), not a copy.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { EngineEvent, PulumiFn } from "@pulumi/pulumi/automation";
import { LanguageRuntimeService } from "@pulumi/pulumi/proto/language_grpc_pb";
import type { PulumiRun } from "./pulumiRun";

/** The Automation API's language runtime (internal to it, so without typings): the gRPC service and its exit check. */
type LanguageRuntime = grpc.UntypedServiceImplementation & {
  /** After the CLI exits: throws if the program leaked promises (unless it failed). */
  onPulumiExit(hasError: boolean): void;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports -- internal module, no typings to import
const { LanguageServer } = require("@pulumi/pulumi/automation/server") as {
  LanguageServer: new (program: PulumiFn) => LanguageRuntime;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the channel options `Stack.up` serves with
const { grpcChannelOptions } = require("@pulumi/pulumi/runtime/settings") as { grpcChannelOptions: grpc.ServerOptions };

/** What `inlineUp` runs: the program, on which stack, with which CLI and environment. */
export interface InlineUpOptions {
  readonly run: PulumiRun;
  readonly workDir: string;
  readonly stackName: string;
  readonly program: PulumiFn;
  /** The engine's environment (backend, passphrase, PATH, the provider's settings). */
  readonly env: Record<string, string>;
  /** More `pulumi up` flags (`--refresh`, `--color never`). */
  readonly args?: readonly string[];
  readonly onOutput?: (text: string) => void;
  readonly onError?: (text: string) => void;
}

/**
 * Runs `pulumi up --yes --skip-preview` on `program` and returns the engine's events (its summary
 * among them). A failed update throws with the command's result (engine/pulumiRun.ts).
 */
export async function inlineUp(options: InlineUpOptions): Promise<EngineEvent[]> {
  const server = new grpc.Server(grpcChannelOptions);
  const runtime = new LanguageServer(options.program);
  server.addService(LanguageRuntimeService, runtime);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const logDir = mkdtempSync(join(tmpdir(), "webhooks-up-"));
  const eventLog = join(logDir, "events.jsonl");
  const args = ["up", "--yes", "--skip-preview", ...(options.args ?? [])];
  args.push(`--client=127.0.0.1:${port}`, "--exec-kind", "inline", "--event-log", eventLog);
  args.push("--stack", options.stackName, "--non-interactive");
  let failed = false;
  try {
    // PULUMI_DEBUG_COMMANDS: --event-log is one of the CLI's debug flags.
    const env = { PULUMI_DEBUG_COMMANDS: "true", ...options.env };
    await options.run(args, options.workDir, env, options.onOutput, options.onError);
    return readEvents(eventLog);
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    runtime.onPulumiExit(failed);
    server.forceShutdown();
    rmSync(logDir, { recursive: true, force: true });
  }
}

/** The engine's event log: one JSON event a line. */
function readEvents(file: string): EngineEvent[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as EngineEvent);
}
