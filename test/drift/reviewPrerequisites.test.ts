/**
 * What the drift review needs before it can compare with a program, and what it says when that is
 * missing, without an engine: the team's own `pulumi` on PATH (never one built for them), a program
 * on disk (a stack an Automation API inline program deployed has none), and a program that can run
 * (its language host, its runtime, its dependencies). The engine's own words for these never reach
 * the reader: the serialization failure of two copies of `@pulumi/pulumi` least of all.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import type { Stack, UpdateSummary, Workspace } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DriftError } from "../../drift/errors";
import {
  expectRunnableProgram,
  previewProgram,
  programCannotRun,
  programFailureReason,
} from "../../drift/sources/pulumi/previewProgram";
import { readStack } from "../../drift/sources/pulumi/readStack";
import { pulumiOnPath } from "../../engine/pulumiOnPath";

const SERIALIZATION_FAILURE =
  "13 INTERNAL: Request message serialization failure: Expected argument of type pulumirpc.RegisterResourceRequest";

const dirs: string[] = [];
const savedCache = process.env.WEBHOOKS_ENGINE_CACHE;

function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
}

beforeAll(() => {
  // versionOf remembers the versions it asked for in the engine cache: a cache of the test's own.
  process.env.WEBHOOKS_ENGINE_CACHE = tempDir("engine-cache");
});

afterAll(() => {
  if (savedCache === undefined) delete process.env.WEBHOOKS_ENGINE_CACHE;
  else process.env.WEBHOOKS_ENGINE_CACHE = savedCache;
  dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

/** A directory holding an executable `pulumi` that runs `script` (sh). */
function fakeCli(script: string, hosts: string[] = []): string {
  const dir = tempDir("bin");
  for (const name of ["pulumi", ...hosts]) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

describe("the team's own pulumi, from PATH", () => {
  it("is the first `pulumi` on PATH that answers `pulumi version`; a broken one is passed over", async () => {
    const broken = fakeCli("exit 3");
    const working = fakeCli('echo "v3.251.0"', ["pulumi-language-nodejs"]);
    const later = fakeCli('echo "v3.999.0"');
    const engine = await pulumiOnPath([tempDir("empty"), broken, working, later].join(delimiter));
    expect(engine).toEqual({
      root: dirname(working),
      binDir: working,
      version: "3.251.0",
      source: "path",
      hasLanguageHost: true,
    });
  });

  it("is none when no directory of PATH holds one", async () => {
    expect(await pulumiOnPath([tempDir("empty"), dirname(process.execPath)].join(delimiter))).toBeUndefined();
    expect(await pulumiOnPath(undefined)).toBeUndefined();
  });

  describe("a review without one", () => {
    let server: Server;
    let requests = 0;

    beforeAll(async () => {
      server = createServer((_, res) => {
        requests++;
        res.writeHead(500).end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    });

    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("fails at once, saying what to install, and reads nothing from the instance", async () => {
      const project = tempDir("project");
      writeFileSync(join(project, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
      const { port } = server.address() as AddressInfo;
      const err = await readStack({
        stackName: "dev",
        workDir: project,
        cwd: project,
        env: {
          // Node.js is there, Pulumi is not.
          PATH: dirname(process.execPath),
          WEBHOOKS_BASE_URL: `http://127.0.0.1:${port}`,
          WEBHOOKS_TOKEN: "dev-builder",
        },
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DriftError);
      expect(err).toMatchObject({ code: "PULUMI_NOT_FOUND" });
      expect((err as Error).message).toMatchInlineSnapshot(
        `"The drift review of a Pulumi stack runs the Pulumi CLI, and there is no \`pulumi\` on PATH. Install it (https://www.pulumi.com/docs/install/; it comes with the language hosts that run programs) or put the directory that holds it on PATH, then run the review again."`,
      );
      expect(requests).toBe(0);
    });
  });
});

/** A stack of a Node.js project in `workDir` whose last update is `last`; it must not be previewed. */
function stackWithout(workDir: string, last?: Partial<UpdateSummary>): { stack: Stack; previews: number } {
  const probe = { previews: 0, stack: undefined as unknown as Stack };
  probe.stack = {
    workspace: { workDir, projectSettings: async () => ({ name: "deployer", runtime: "nodejs" }) },
    history: async () => (last ? [{ kind: "update", version: 4, ...last }] : []),
    preview: async () => {
      probe.previews++;
      throw new Error("previewed a program that is not there");
    },
  } as unknown as Stack;
  return probe;
}

describe("a Node.js project with no program on disk", () => {
  /** What the Automation API writes for an inline program: a Pulumi.yaml, and no program. */
  const projectOnly = () => {
    const dir = tempDir("inline");
    writeFileSync(join(dir, "Pulumi.yaml"), "name: deployer\nruntime: nodejs\n");
    return dir;
  };

  it("deployed by an Automation API inline program: says so, and points to --state-only and to reviewDrift in code", async () => {
    const dir = projectOnly();
    const probe = stackWithout(dir, { environment: { "exec.kind": "auto.inline" } });
    const err = await previewProgram(probe.stack, "dev", 0, () => {}).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "INLINE_PROGRAM" });
    expect((err as Error).message.replaceAll(dir, "<dir>")).toMatchInlineSnapshot(
      `"Stack "dev" was deployed by an Automation API inline program (its last update ran one), so it has no program on disk to compare the live subscriptions with: <dir> holds no index.ts or index.js, and no \`main\` in Pulumi.yaml or package.json names a file. Pass --state-only to compare the live subscriptions with the state alone, or review it in the code that deploys it, where its program is: \`reviewDrift({ stacks: [{ name, workDir, program }] })\` from "pulumi-webhook-subscriptions/drift"."`,
    );
    expect((err as Error).message).not.toContain("expected index.ts or index.js");
    expect(probe.previews).toBe(0);
  });

  it("deployed otherwise (or never): the directory is the wrong one", async () => {
    for (const last of [{ environment: { "exec.kind": "cli" } }, undefined]) {
      const dir = projectOnly();
      const probe = stackWithout(dir, last);
      const err = await previewProgram(probe.stack, "dev", 0, () => {}).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "NO_PROGRAM" });
      expect((err as Error).message).toContain(`No program in ${dir} to compare stack "dev" with`);
      expect((err as Error).message).toContain("Point --cwd at the stack's program directory. Pass --state-only");
      expect(probe.previews).toBe(0);
    }
  });
});

describe("a program that cannot run", () => {
  const stack = (workDir: string) => ({ workspace: { workDir } }) as unknown as Stack;
  /** An Automation API CommandError carrying the CLI's stderr. */
  const commandError = (stderr: string) =>
    Object.assign(new Error(`code: 255\n stderr: ${stderr}`), { commandResult: { stderr } });

  it("its dependencies not installed: run the project's own install there", () => {
    const npm = tempDir("npm-project");
    const sdkMissing =
      "error: It looks like the Pulumi SDK has not been installed. Have you run pulumi install?\nerror: preview failed";
    expect(programFailureReason(sdkMissing, npm)).toBe(
      `its dependencies are not installed: no @pulumi/pulumi can be found from ${npm}. Run \`npm install\` in ${npm}, as for \`pulumi preview\`.`,
    );
    const yarn = tempDir("yarn-project");
    writeFileSync(join(yarn, "yarn.lock"), "");
    expect(programFailureReason(sdkMissing, yarn)).toContain(`Run \`yarn install\` in ${yarn}`);
  });

  it("its language host, or its runtime, missing: what to install", () => {
    const dir = tempDir("project");
    expect(
      programFailureReason(
        "error: failed to load language plugin nodejs: no language plugin 'pulumi-language-nodejs' found in the workspace or on your $PATH",
        dir,
      ),
    ).toBe(
      "the language host `pulumi-language-nodejs` that runs it is not installed. It comes with the Pulumi CLI " +
        "(https://www.pulumi.com/docs/install/), in the directory that holds `pulumi`: install the CLI that way, or put pulumi-language-nodejs on PATH.",
    );
    expect(
      programFailureReason('could not find node on the $PATH: exec: "node": executable file not found in $PATH', dir),
    ).toContain("Node.js is not on PATH");
  });

  it("two copies of @pulumi/pulumi: says so and how to find them, never the engine's words", () => {
    const dir = tempDir("project");
    const err = programCannotRun(stack(dir), "dev", commandError(`error: ${SERIALIZATION_FAILURE}`), [
      `Error: ${SERIALIZATION_FAILURE}`,
    ]);
    expect(err).toMatchObject({ code: "PROGRAM_CANNOT_RUN" });
    expect(err!.message).toContain(`The program of stack "dev" (${dir}) cannot run`);
    expect(err!.message).toContain(`\`npm ls @pulumi/pulumi\` in ${dir} lists them`);
    expect(err!.message).not.toMatch(/serialization|pulumirpc|INTERNAL/);
  });

  it("a failure of another kind is left to the preview's own message", () => {
    const err = commandError("error: preview failed: resource protected");
    expect(programCannotRun(stack(tempDir("project")), "dev", err, ["the resource is protected"])).toBeUndefined();
  });
});

describe("a Node.js program on disk, before anything is read from the instance", () => {
  /** A TypeScript project in a directory of its own; `installed`: a node_modules with @pulumi/pulumi. */
  const project = (installed: boolean) => {
    const dir = tempDir("ts-project");
    writeFileSync(join(dir, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    writeFileSync(join(dir, "index.ts"), "export {};\n");
    if (installed) {
      mkdirSync(join(dir, "node_modules", "@pulumi", "pulumi"), { recursive: true });
      writeFileSync(join(dir, "node_modules", "@pulumi", "pulumi", "package.json"), '{"main":"index.js"}');
      writeFileSync(join(dir, "node_modules", "@pulumi", "pulumi", "index.js"), "");
    }
    return dir;
  };
  const workspace = (workDir: string, path: string, runtime = "nodejs") =>
    ({
      workDir,
      envVars: { PATH: path },
      projectSettings: async () => ({ name: "p", runtime }),
    }) as unknown as Workspace;
  const withNode = dirname(process.execPath);

  it("runs with node on the engine's PATH and its dependencies installed", async () => {
    await expect(expectRunnableProgram(workspace(project(true), withNode), "dev")).resolves.toBeUndefined();
  });

  it("without its dependencies: run the install in its directory", async () => {
    const dir = project(false);
    const err = await expectRunnableProgram(workspace(dir, withNode), "dev").catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "PROGRAM_CANNOT_RUN" });
    expect((err as Error).message).toBe(
      `The program of stack "dev" (${dir}) cannot run, so the live subscriptions cannot be compared with it: ` +
        `its dependencies are not installed: no @pulumi/pulumi can be found from ${dir}. ` +
        `Run \`npm install\` in ${dir}, as for \`pulumi preview\`. Nothing was read from the instance.`,
    );
  });

  it("without node on the engine's PATH: install Node.js", async () => {
    const err = await expectRunnableProgram(workspace(project(true), tempDir("no-node")), "dev").catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: "PROGRAM_CANNOT_RUN" });
    expect((err as Error).message).toContain("Node.js is not on PATH");
    expect((err as Error).message).toContain("Install Node.js (https://nodejs.org/)");
  });

  it("is no concern of other runtimes, nor of a project without a program on disk (previewProgram says why)", async () => {
    const yaml = project(false);
    await expect(expectRunnableProgram(workspace(yaml, "", "yaml"), "dev")).resolves.toBeUndefined();
    const inline = tempDir("inline");
    writeFileSync(join(inline, "Pulumi.yaml"), "name: p\nruntime: nodejs\n");
    await expect(expectRunnableProgram(workspace(inline, ""), "dev")).resolves.toBeUndefined();
  });
});
