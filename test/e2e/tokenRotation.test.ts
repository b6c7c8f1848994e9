/**
 * A token rotation as a user does it, on both front doors at once (fixtures/both-front-doors: a
 * dynamic WebhookSubscription, a native one on the default provider, one on an explicit native
 * provider), with plain `pulumi` and `webhook-subscriptions drift`. The old token is revoked on
 * the emulator and only the new one is configured, in each documented way:
 *
 * - **stack config** (`pulumi config set --secret webhooks:token`): the engine records it in the
 *   state as the providers' inputs, and a plain `refresh` or `destroy` configures the providers
 *   from there (Pulumi 3.248 and 3.259 alike). So those two fail, saying to run them with
 *   `--run-program`, which works; `up`, `pulumi import` and the drift review use the new token.
 * - **environment** (`WEBHOOKS_TOKEN`): read by the providers at run time, recorded nowhere, so
 *   every operation uses the new token as it is.
 */
import { appendFileSync, cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../support/commands";
import { runDriftCli } from "../support/driftCli";
import { typeScopedBody } from "../support/emulatorHarness";
import { REPO_ROOT, workDir } from "../support/engine";
import { shellBlocks } from "../support/shellBlocks";
import { startPluginCheckout, type PluginCheckout } from "../support/pluginCheckout";
import { issueToken } from "../support/tokenProxy";

const PASSPHRASE = "token-rotation-passphrase";
const HEADER_VALUE = "rotation-header-3f1a";
/** What a refused token's message says to run when the token is the state's record. */
const RUN_PROGRAM_HINT = "Run `pulumi up` first, or `pulumi refresh --run-program` / `pulumi destroy --run-program`";

let setting: PluginCheckout;

beforeAll(async () => {
  setting = await startPluginCheckout("token rotation", PASSPHRASE);
}, 900_000);

afterAll(() => setting?.close());

/** A copy of a program directory, using the plugin built for this run. */
function project(name: string, program?: string): string {
  const dir = workDir(name);
  cpSync(join(__dirname, "fixtures", "both-front-doors"), dir, { recursive: true });
  if (program !== undefined) writeFileSync(join(dir, "index.ts"), program);
  // Its own manifest: else the language host takes this repository's (above it) and runs its main.
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: name, private: true, main: "index.ts" }));
  appendFileSync(
    join(dir, "Pulumi.yaml"),
    `plugins:\n  providers:\n    - name: webhooks\n      path: ${setting.pluginDir}\n`,
  );
  return dir;
}

/** Revokes `token` on the emulator: every later request with it gets 401. */
async function revoke(token: string): Promise<void> {
  expect((await setting.service.admin("POST", `/tokens/${token}/expire`)).status).toBe(200);
}

/** The GUIDs live on the instance, sorted. */
async function liveGuids(): Promise<string[]> {
  return (await setting.service.all()).map((s) => s.GUID).sort();
}

/** An unmanaged subscription made out of band, to import. */
async function outOfBand(path: string): Promise<string> {
  const { GUID } = await setting.service.subscribe(
    typeScopedBody({ SubscriberURL: `https://hooks.example.com${path}` }),
  );
  return GUID;
}

describe("rotated in stack config (`pulumi config set --secret webhooks:token`)", () => {
  let dir: string;
  let oldToken: string;
  let newToken: string;
  // The stack before any `--`, which ends the flags.
  const pulumi = (args: string[], expected = 0) =>
    run("pulumi", ["--stack", "config", ...args], dir, setting.env, expected);

  beforeAll(async () => {
    await setting.service.reset();
    dir = project("rotation-config");
    [oldToken, newToken] = [await issueToken(setting.service.url), await issueToken(setting.service.url)];
    await pulumi(["stack", "init"]);
    await pulumi(["config", "set", "webhooks:baseUrl", setting.service.url]);
    // `--`: an issued token may begin with "-" (base64url), which pulumi would read as a flag.
    await pulumi(["config", "set", "--secret", "webhooks:token", "--", oldToken]);
    await pulumi(["config", "set", "--secret", "headerValue", HEADER_VALUE]);
    expect((await pulumi(["up", "--yes"])).stdout).toMatch(/\+ 5 created/);
    await revoke(oldToken);
    await pulumi(["config", "set", "--secret", "webhooks:token", "--", newToken]);
  }, 600_000);

  it("the drift review uses the new token: in sync (its preview refreshes with the program's providers when the state's token is refused)", async () => {
    const { code, stdout, stderr } = await runDriftCli(["--stack", "config", "--cwd", dir], setting.env);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("**No drift** across 1 source. All 3 managed subscriptions are in sync");
    expect(stderr).toContain("preview again, refreshing with the providers the program configures (`--run-program`)");
    expect(stdout + stderr).not.toContain(newToken);
  });

  it("--state-only too: its refresh preview runs again with the program when the state's token is refused", async () => {
    const { code, stdout, stderr } = await runDriftCli(
      ["--stack", "config", "--cwd", dir, "--state-only"],
      setting.env,
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("**No drift** across 1 source. All 3 managed subscriptions are in sync");
    expect(stderr).toContain("refresh preview again, running the program (`--run-program`)");
    expect(stdout + stderr).not.toContain(newToken);
  });

  it("a plain `pulumi refresh`, `pulumi destroy` and `pulumi import` send the state's token: each failure says what to run; nothing changes", async () => {
    const before = await liveGuids();
    const guid = await outOfBand("/imported-config");
    for (const args of [["refresh"], ["destroy"], ["import", "webhooks:index:WebhookSubscription", "imported", guid]]) {
      const { stdout, stderr } = await pulumi([...args, "--yes"], 1);
      const output = stdout + stderr;
      expect(output).toContain("401 Unauthorized");
      // A destroy stops at its first failed delete, which may be either provider's.
      expect(output).toMatch(/If (webhooks:token|Provider "native-prod" token) changed since the last `pulumi up`/);
      if (args[0] === "refresh") {
        expect(output).toContain("If webhooks:token changed since the last `pulumi up`");
        expect(output).toContain('If Provider "native-prod" token changed since the last `pulumi up`');
      }
      expect(output).toContain(RUN_PROGRAM_HINT);
      expect(output).not.toContain(oldToken);
    }
    expect(await liveGuids()).toEqual([...before, guid].sort());
  });

  it("`pulumi refresh --run-program` uses the new token; after `pulumi up`, `pulumi import`, a plain `pulumi refresh` and `pulumi destroy --run-program` do", async () => {
    expect((await pulumi(["refresh", "--yes", "--run-program"])).stdout).not.toMatch(/error:/);
    // docs/security.md's rotation, as written (the stack is the current one; no prompt in a test).
    const [rotation] = shellBlocks(readFileSync(join(REPO_ROOT, "docs", "security.md"), "utf8")).filter((b) =>
      b.heading.startsWith("Rotating a credential"),
    );
    const up = await run("bash", ["-euc", rotation!.script], dir, {
      ...setting.env,
      NEW_TOKEN: newToken,
      PULUMI_SKIP_CONFIRMATIONS: "true",
    });
    expect(up.stdout).not.toMatch(/replaced|created|deleted/);
    const guid = (await setting.service.subscriptionAt("https://hooks.example.com/imported-config")).GUID;
    expect(
      (await pulumi(["import", "webhooks:index:WebhookSubscription", "imported", guid, "--protect=false", "--yes"]))
        .stdout,
    ).toMatch(/= 1 imported/);
    expect((await pulumi(["refresh", "--yes"])).stdout).not.toMatch(/error:/);
    await pulumi(["destroy", "--yes", "--run-program"]);
    expect(await liveGuids()).toEqual([]);
  });
});

describe("rotated in the environment (`WEBHOOKS_TOKEN`)", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const pulumi = (args: string[], expected = 0) => run("pulumi", [...args, "--stack", "env"], dir, env, expected);

  beforeAll(async () => {
    await setting.service.reset();
    // Both default providers, nothing else: the fixture's explicit provider takes a token argument.
    dir = project(
      "rotation-env",
      `import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";
import * as webhooks from "pulumi-webhook-subscriptions/native";

new WebhookSubscription("dynamic", { webhook: Webhook.BusinessObjectCreated, filterObjectType: 2, subscriberUrl: "https://hooks.example.com/dynamic" });
new webhooks.WebhookSubscription("native", { webhook: webhooks.Webhook.BusinessObjectCreated, filterObjectType: 3, subscriberUrl: "https://hooks.example.com/native" });
`,
    );
    const oldToken = await issueToken(setting.service.url);
    env = { ...setting.env, WEBHOOKS_TOKEN: oldToken };
    await pulumi(["stack", "init"]);
    await pulumi(["config", "set", "webhooks:baseUrl", setting.service.url]);
    expect((await pulumi(["up", "--yes"])).stdout).toMatch(/\+ 3 created/);
    await revoke(oldToken);
    env = { ...env, WEBHOOKS_TOKEN: await issueToken(setting.service.url) };
  }, 600_000);

  it("plain `pulumi refresh`, the drift review, `pulumi import`, `pulumi up` and `pulumi destroy` use the new token", async () => {
    expect((await pulumi(["refresh", "--yes"])).stdout).not.toMatch(/error:/);
    const drift = await runDriftCli(["--stack", "env", "--cwd", dir], env);
    expect(drift.code, drift.stderr).toBe(0);
    expect(drift.stderr).not.toContain("--run-program");
    const guid = await outOfBand("/imported-env");
    expect(
      (await pulumi(["import", "webhooks:index:WebhookSubscription", "imported", guid, "--protect=false", "--yes"]))
        .stdout,
    ).toMatch(/= 1 imported/);
    expect((await pulumi(["up", "--yes"])).stdout).toMatch(/- 1 deleted/);
    await pulumi(["destroy", "--yes"]);
    expect(await liveGuids()).toEqual([]);
  });
});
