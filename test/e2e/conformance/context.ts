/**
 * What a scenario runs in, once per front door: the door's project, one emulator (its state in
 * a file, so the instance can move to a new address and keep its subscriptions), and a fresh
 * stack per scenario, so a scenario that fails leaves nothing to the next one.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StatsSnapshot } from "../../../emulator";
import { EmulatorHarness } from "../../support/emulatorHarness";
import { requireLanguageHosts } from "../../support/engine";
import { backendDir, pulumiEnv } from "../../support/pulumiProject";
import type { SharedBuilds } from "./builds";
import type { Declared, FrontDoor } from "./frontDoor";
import { ProjectStack } from "./stack";

/** The Builder token of the emulator: a secret of the stack's config. */
export const TOKEN = "dev-builder";

export interface Conformance {
  readonly door: FrontDoor;
  /** The instance, at its current address. */
  readonly service: EmulatorHarness;
  /** Where the door's project (and every stack's program) is. */
  readonly project: string;
  /**
   * A new stack on the service with the secret `webhooks:token` and `config`; the service's
   * address in `webhooks:baseUrl`, or in `WEBHOOKS_BASE_URL` (read at run time, recorded nowhere).
   */
  stack(name: string, config?: Record<string, string>, baseUrlIn?: "config" | "environment"): Promise<ProjectStack>;
  /** Writes the program: these subscriptions. */
  declare(subscriptions: Readonly<Record<string, Declared>>): void;
  /** The service's counters since the last reset or move. */
  stats(): Promise<StatsSnapshot>;
  /** Moves the instance to a new address: stopped, then started on another port with the same state. */
  move(): Promise<void>;
  /** The backend's files, as they are at rest. */
  readonly backend: string;
  close(): Promise<void>;
}

/** Provisions everything a front door's scenarios need; what doors share comes from `builds`. */
export async function openConformance(door: FrontDoor, builds: SharedBuilds): Promise<Conformance> {
  const engine = requireLanguageHosts(door.languageHosts);
  const root = mkdtempSync(join(tmpdir(), "conformance-"));
  const project = await door.prepare(root, builds);
  const backend = backendDir(root);
  const statePath = join(root, "emulator", "state.json");
  const service = await EmulatorHarness.start({ statePath });
  const env: NodeJS.ProcessEnv = {
    ...pulumiEnv(engine, root, "conformance-passphrase"),
    // Offers `--event-log`, the engine's structured events.
    PULUMI_DEBUG_COMMANDS: "true",
  };
  return {
    door,
    service,
    project,
    backend,
    async stack(name, config = {}, baseUrlIn = "config") {
      const stack = new ProjectStack(project, name, { ...env }, door.type);
      if (baseUrlIn === "config") config = { "webhooks:baseUrl": service.url, ...config };
      else stack.setEnv("WEBHOOKS_BASE_URL", service.url);
      await stack.init(config, { "webhooks:token": TOKEN });
      return stack;
    },
    declare: (subscriptions) => door.declare(project, subscriptions),
    stats: async () => (await service.admin("GET", "/stats")).json as StatsSnapshot,
    async move() {
      const old = new URL(service.url);
      await service.close();
      // The old port stays taken while the instance starts again, so its address does change.
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(Number(old.port), old.hostname, resolve));
      try {
        await service.open({ statePath });
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
    },
    async close() {
      await service.close();
      rmSync(root, { recursive: true, force: true });
      if (!project.startsWith(root)) rmSync(project, { recursive: true, force: true });
    },
  };
}
