/**
 * Smoke test of the real engine, offline: a trivial dynamic resource goes through up, refresh
 * and destroy, and a program directory runs with its own Pulumi.yaml and stack config.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { describe, expect, it } from "vitest";
import { openStack } from "../../engine/automation";
import { requireEngine, workDir } from "../support/engine";

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
});
