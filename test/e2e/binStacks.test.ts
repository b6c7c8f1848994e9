/**
 * A mistyped `--stack` as a user types it: `webhook-subscriptions preview|refresh|destroy|drift
 * --stack dve` next to an existing `dev` refuses, naming the stacks that exist, and creates
 * nothing (`pulumi stack ls` still shows only `dev`, still current); only `up` creates a missing
 * stack, and says so in a line. The bin runs from dist/ (the self-dependency), on a file backend.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, expect, it } from "vitest";
import { run } from "../support/commands";
import { requireLanguageHosts, workDir } from "../support/engine";
import { pulumiEnv } from "../support/pulumiProject";

const BIN = require.resolve("pulumi-webhook-subscriptions/package.json").replace(/package\.json$/, "dist/cli/index.js");

let dir: string;
let env: NodeJS.ProcessEnv;

/** `webhook-subscriptions <args>` in the program directory. */
const bin = (args: string[], expected = 0) => run(process.execPath, [BIN, ...args], dir, env, expected);

/** The stacks `pulumi stack ls` shows, the current one marked with `*` as pulumi marks it. */
async function stacks(): Promise<string[]> {
  const listed = JSON.parse((await run("pulumi", ["stack", "ls", "--json"], dir, env)).stdout) as Array<{
    name: string;
    current: boolean;
  }>;
  return listed.map((s) => `${s.name}${s.current ? "*" : ""}`).sort();
}

beforeAll(async () => {
  const engine = requireLanguageHosts(["pulumi-language-nodejs"]);
  dir = workDir("bin-stacks");
  cpSync(join(__dirname, "fixtures", "tiny-program"), dir, { recursive: true });
  env = pulumiEnv(engine, dir, "bin-stacks-passphrase");
  expect(env.PULUMI_BACKEND_URL).toBe(pathToFileURL(join(dir, "state")).href);
  await run("pulumi", ["stack", "init", "dev"], dir, env);
}, 120_000);

it("preview, refresh, destroy and drift refuse a missing stack, listing the ones that exist; nothing is created", async () => {
  for (const command of ["preview", "refresh", "destroy"]) {
    const { stderr } = await bin([command, "--stack", "dve"], 1);
    expect(stderr).toContain(
      `${command}: --stack: no stack named "dve" here, and only \`up\` creates one. The stacks here: dev.`,
    );
  }
  const drift = await bin(["drift", "--stack", "dve"], 1);
  expect(drift.stderr).toMatch(/No stack named "dve" in .* The stacks here: dev\. Correct --stack/);
  expect(await stacks()).toEqual(["dev*"]);
}, 240_000);

it("`up` creates a missing stack and says so", async () => {
  const { stderr } = await bin(["up", "--stack", "new"]);
  expect(stderr).toContain('[webhook-subscriptions] created stack "new": it did not exist');
  expect((await stacks()).map((name) => name.replace("*", ""))).toEqual(["dev", "new"]);
}, 240_000);
