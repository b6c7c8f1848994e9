/**
 * Smoke test of the real engine, offline: a trivial dynamic resource goes through up, refresh
 * and destroy, and a program directory runs with its own Pulumi.yaml and stack config.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { run } from "../support/commands";
import { requireEngine, requireLanguageHosts, workDir } from "../support/engine";
import { backendDir, pulumiEnv } from "../support/pulumiProject";

describe("the real Pulumi engine", () => {
  it("runs up, refresh and destroy of a dynamic resource", async () => {
    const engine = requireEngine();
    const dir = workDir("smoke");
    const program = async () => {
      const provider: pulumi.dynamic.ResourceProvider = {
        async create(inputs) {
          return { id: `smoke-${inputs.size}`, outs: { size: inputs.size, doubled: inputs.size * 2 } };
        },
        async read(id, props) {
          return { id, props };
        },
      };
      const res = new (class Smoke extends pulumi.dynamic.Resource {
        declare readonly doubled: pulumi.Output<number>;
        constructor() {
          super(provider, "smoke", { size: 21, doubled: undefined }, {}, "smoke", "Smoke");
        }
      })();
      return { doubled: res.doubled, id: res.id };
    };
    const stack = await openStack({
      engine,
      backendDir: join(dir, "state"),
      stackName: "smoke",
      workDir: dir,
      program,
      projectName: "smoke",
    });

    const up = await stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(up.outputs.doubled?.value).toBe(42);
    expect(up.outputs.id?.value).toBe("smoke-21");

    const refresh = await stack.refresh();
    expect(refresh.summary.result).toBe("succeeded");

    const state = await stack.exportStack();
    const types = state.deployment.resources.map((r: { type: string }) => r.type);
    expect(types).toContain("pulumi-nodejs:dynamic/smoke:Smoke");

    const destroy = await stack.destroy({ onOutput: (line) => process.stdout.write(line) });
    expect(destroy.summary.result).toBe("succeeded");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 2 });
  });

  it("runs a program directory with its own project and stack config", async () => {
    const engine = requireEngine();
    const dir = workDir("tiny-program");
    cpSync(join(__dirname, "fixtures", "tiny-program"), dir, { recursive: true });
    const stack = await openStack({
      engine,
      backendDir: join(dir, ".state"),
      stackName: "dev",
      workDir: dir,
      config: { "tiny-program:answer": { value: "42" } },
    });
    const up = await stack.up();
    expect(up.summary.result).toBe("succeeded");
    expect(up.outputs.greeting?.value).toBe("hello from tiny-program/dev");
    expect(up.outputs.answer?.value).toBe(42);
    const destroy = await stack.destroy();
    expect(destroy.summary.result).toBe("succeeded");
  });

  // Today's engine, asserted so that the day it changes this fails and docs/engine.md
  // ("`refresh --import-pending-creates` at 3.248.0") and the drift review's recovery are revisited.
  it("engine behaviour at 3.248.0: `refresh --import-pending-creates <urn> <id>` drops the pending create instead of recording the resource", async () => {
    const engine = requireLanguageHosts(["pulumi-language-yaml"]);
    const dir = workDir("import-pending-creates");
    const env = pulumiEnv(engine, dir, "repro");
    writeFileSync(join(dir, "Pulumi.yaml"), "name: repro\nruntime: yaml\n");
    await run("pulumi", ["stack", "init", "dev"], dir, env);
    // What a killed `up` leaves: one pending create, no resource. Written to the checkpoint itself,
    // because `pulumi stack import` removes pending operations.
    const urn = "urn:pulumi:dev::repro::pulumi-webhook-subscriptions:index:WebhookSubscription::sub-0";
    const file = join(backendDir(dir), ".pulumi", "stacks", "repro", "dev.json");
    const checkpoint = JSON.parse(readFileSync(file, "utf8")) as { checkpoint: { latest: Record<string, unknown> } };
    checkpoint.checkpoint.latest.pending_operations = [
      {
        resource: { urn, custom: true, type: "pulumi-webhook-subscriptions:index:WebhookSubscription" },
        type: "creating",
      },
    ];
    writeFileSync(file, JSON.stringify(checkpoint));
    rmSync(`${file}.attrs`); // its checksum is of the old content
    const exported = async () =>
      JSON.parse((await run("pulumi", ["stack", "export", "--stack", "dev"], dir, env)).stdout) as {
        deployment: { resources?: { urn: string }[]; pending_operations?: { type: string }[] };
      };
    expect((await exported()).deployment.pending_operations).toHaveLength(1);

    const args = [
      "refresh",
      "--stack",
      "dev",
      "--yes",
      "--import-pending-creates",
      urn,
      "--import-pending-creates",
      "guid-1",
    ];
    const refresh = await run("pulumi", args, dir, env);
    // It matched the pending create (no "did not correspond" warning) and turned it into an import
    // (the checkpoint before the refresh, kept as .bak) ...
    expect(refresh.stderr).not.toMatch(/did not correspond/);
    const before = JSON.parse(readFileSync(`${file}.bak`, "utf8")) as {
      checkpoint: { latest: { pending_operations?: { type: string; resource: { id?: string } }[] } };
    };
    expect(before.checkpoint.latest.pending_operations).toEqual([
      expect.objectContaining({ type: "importing", resource: expect.objectContaining({ id: "guid-1" }) }),
    ]);
    // ... which the refresh dropped: the resource never reaches the state.
    const after = (await exported()).deployment;
    expect(after.pending_operations ?? []).toEqual([]);
    expect((after.resources ?? []).map((r) => r.urn)).not.toContain(urn);
  });
});
