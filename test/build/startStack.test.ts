/**
 * scripts/startStack.ts with a recording CLI in place of `pulumi`: the secret `npm start`
 * generates goes to `config set --secret` on stdin, never on a command line (which every process
 * of the machine can read); a stack config that has it already is left alone.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import type { PulumiRun } from "../../engine/pulumiRun";
import { ensureSecret, type StartStack } from "../../scripts/startStack";

const workDir = mkdtempSync(join(tmpdir(), "start-stack-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** The stack, and the CLI runs it made: their arguments and stdin. */
function recorded(): { stack: StartStack; runs: { args: readonly string[]; input?: string }[] } {
  const runs: { args: readonly string[]; input?: string }[] = [];
  const run: PulumiRun = async (args, _cwd, _env, _out, _err, input) => {
    runs.push({ args, input });
    return { stdout: "", stderr: "", code: 0 };
  };
  return { stack: { run, workDir, backendDir: workDir, stackName: "dev", env: {} }, runs };
}

it("sets a generated secret through stdin, with no value on the command line", async () => {
  const { stack, runs } = recorded();
  expect(await ensureSecret(stack, "app:signingSecret")).toBe(true);
  expect(runs).toHaveLength(1);
  const { args, input } = runs[0]!;
  expect(args.slice(0, 4)).toEqual(["config", "set", "app:signingSecret", "--secret"]);
  expect(input).toMatch(/^[0-9a-f]{32}$/);
  expect(args.join(" ")).not.toContain(input!);
  expect(args).not.toContain("--");
});

it("leaves a secret the stack config has already", async () => {
  writeFileSync(join(workDir, "Pulumi.dev.yaml"), "config:\n  app:signingSecret:\n    secure: v1:abc\n");
  const { stack, runs } = recorded();
  expect(await ensureSecret(stack, "app:signingSecret")).toBe(false);
  expect(runs).toEqual([]);
});
