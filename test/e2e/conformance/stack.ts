/**
 * A stack of a front door's project, driven with plain `pulumi` commands as its users run them.
 * The engine operations also write the engine's structured event log (`--event-log`, which the
 * CLI offers under PULUMI_DEBUG_COMMANDS, as the Automation API uses it): what was shown, what
 * failed and which steps ran are read from events, not from the text output.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { run, type Result } from "../../support/commands";

/** The exit code of `pulumi` when an engine operation failed. */
export const FAILED = 1;

/** A finished engine operation: its output and its events. */
export interface Operation extends Result {
  readonly events: readonly EngineEvent[];
}

/** A subscription as the state holds it (secrets decrypted). */
export interface Recorded {
  readonly name: string;
  readonly guid: string;
  readonly signature: string;
  readonly baseUrl: string;
  readonly outputs: Record<string, unknown>;
}

/** The diagnostics a user sees (not the engine's debug ones), with their severity. */
export function shown(operation: Operation): string[] {
  return operation.events
    .map((event) => event.diagnosticEvent)
    .filter((d) => d !== undefined && (d.severity as string) !== "debug")
    .map((d) => `${d!.severity}: ${d!.message}`);
}

/** The error diagnostics of an operation. */
export function errors(operation: Operation): string[] {
  return operation.events.filter((e) => e.diagnosticEvent?.severity === "error").map((e) => e.diagnosticEvent!.message);
}

/** The resource steps an operation finished, as `<op> <name>` in order (e.g. `create-replacement orders`). */
export function steps(operation: Operation): string[] {
  return operation.events
    .map((event) => event.resOutputsEvent?.metadata)
    .filter((meta) => meta !== undefined)
    .map((meta) => `${meta!.op} ${meta!.urn.split("::").pop()}`);
}

/** A value of a `--show-secrets` export: a secret is `{ <signature key>, plaintext: "<JSON>" }`. */
function revealed(value: unknown): unknown {
  return typeof value === "object" && value !== null && "plaintext" in value
    ? JSON.parse(String(value.plaintext))
    : value;
}

export class ProjectStack {
  /** Every engine operation run on this stack, for searches over all it printed. */
  readonly operations: Operation[] = [];
  private count = 0;

  constructor(
    readonly project: string,
    readonly name: string,
    private readonly env: NodeJS.ProcessEnv,
    private readonly type: string,
  ) {}

  /** Sets a variable of the environment the commands run in (e.g. a `WEBHOOKS_*` setting). */
  setEnv(name: string, value: string): void {
    this.env[name] = value;
  }

  /** `pulumi stack init`, then the `webhooks:*` settings: plain ones and secret ones. */
  async init(plain: Record<string, string>, secret: Record<string, string>): Promise<void> {
    await this.pulumi(["stack", "init"]);
    const pairs = (flag: string, values: Record<string, string>) =>
      Object.entries(values).flatMap(([key, value]) => [flag, `${key}=${value}`]);
    await this.pulumi(["config", "set-all", ...pairs("--plaintext", plain), ...pairs("--secret", secret)]);
  }

  /** `pulumi <args> --stack <name>` in the project, expecting exit `expected`. */
  pulumi(args: string[], expected = 0): Promise<Result> {
    return run("pulumi", [...args, "--stack", this.name], this.project, this.env, expected);
  }

  /** One engine operation (`up`, `preview`, `refresh`, `destroy`) with its event log. */
  async operation(command: string, args: string[] = [], expected = 0): Promise<Operation> {
    const log = join(this.project, `.events-${this.name}-${++this.count}.jsonl`);
    // `up`, `refresh` and `destroy` without their own preview first: half the program runs.
    const yes = command === "preview" ? [] : ["--yes", "--skip-preview"];
    try {
      const result = await this.pulumi([command, ...yes, ...args, "--event-log", log], expected);
      const events = readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as EngineEvent);
      const operation = { ...result, events };
      this.operations.push(operation);
      return operation;
    } finally {
      rmSync(log, { force: true });
    }
  }

  up(expected = 0): Promise<Operation> {
    return this.operation("up", [], expected);
  }
  refresh(expected = 0): Promise<Operation> {
    return this.operation("refresh", [], expected);
  }
  destroy(expected = 0): Promise<Operation> {
    return this.operation("destroy", [], expected);
  }

  /** `pulumi config set` (plain). */
  async config(key: string, value: string): Promise<void> {
    await this.pulumi(["config", "set", key, value]);
  }

  /** `pulumi stack export`: the state as a user exports it, secrets as ciphertext. */
  async exported(): Promise<string> {
    return (await this.pulumi(["stack", "export"])).stdout;
  }

  /** The stack's subscriptions in the state, by name, secrets decrypted (`--show-secrets`). */
  async recorded(): Promise<Recorded[]> {
    const { stdout } = await this.pulumi(["stack", "export", "--show-secrets"]);
    const resources = (
      JSON.parse(stdout) as {
        deployment: { resources?: { urn: string; type: string; outputs?: Record<string, unknown> }[] };
      }
    ).deployment.resources;
    return (resources ?? [])
      .filter((r) => r.type === this.type)
      .map((r) => {
        const outputs = Object.fromEntries(
          Object.entries(r.outputs ?? {}).map(([key, value]) => [key, revealed(value)]),
        );
        return {
          name: r.urn.split("::").pop()!,
          guid: String(outputs.guid),
          signature: String(outputs.signature),
          baseUrl: String(outputs.baseUrl),
          outputs,
        };
      });
  }

  /** The one subscription named `name` in the state (fails when there is none). */
  async one(name: string): Promise<Recorded> {
    const found = (await this.recorded()).find((r) => r.name === name);
    if (!found) throw new Error(`the state of stack ${this.name} holds no subscription named ${name}`);
    return found;
  }
}
