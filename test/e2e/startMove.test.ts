/**
 * `npm start`'s own hints, followed as printed, in a fresh copy of the repository, by a user who
 * exported their own PULUMI_CONFIG_PASSPHRASE: the printed blocks ask for it in a fresh shell
 * (never print it); docs/emulator.md's way to change the subscriptions out of band works as
 * written; a typo in WEBHOOKS_STACK makes `--drift` refuse, creating nothing; and the "deploy
 * elsewhere" block moves the stack's subscriptions to the named instance, after which the embedded
 * emulator is not started. (A restart on a moved port: frontDoor.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { backendStacks } from "../../scripts/startStack";
import { EmulatorHarness } from "../support/emulatorHarness";
import { freshShell, type ShellResult } from "../support/freshShell";
import { copyRepository } from "../support/repoCopy";
import { block, printedBlocks } from "../support/startOutput";
import { REPO_ROOT, requireEngine } from "../support/engine";
import { shellBlocks } from "../support/shellBlocks";

const SLOW = 900_000;
const PASSPHRASE = "the passphrase of this test's stacks";
/** The other instance's token: not one of the emulator's dev tokens, as a real instance's is not. */
const INSTANCE_TOKEN = "token-of-the-other-instance-0123";

/** The last lines of a run, for a failure message. */
const tail = (r: ShellResult) => `exit ${r.code}\n${(r.stdout + r.stderr).split("\n").slice(-40).join("\n")}`;

describe("npm start's hints, followed as printed, with the passphrase from the environment", () => {
  let copy: string;
  let blocks: Map<string, string>;
  let elsewhere: RunningEmulator;
  /** `npm start [args]` in a fresh terminal where the user exported their passphrase. */
  const npmStart = (command = "npm start") =>
    freshShell(command, copy, SLOW, { env: { PULUMI_CONFIG_PASSPHRASE: PASSPHRASE } });
  const embeddedSubscriptions = () =>
    (JSON.parse(readFileSync(join(copy, ".emulator", "state.json"), "utf8")) as { subscriptions: unknown[] })
      .subscriptions;

  beforeAll(async () => {
    requireEngine(); // provisioned by the global setup; npm start finds it in the cache
    copy = join(mkdtempSync(join(tmpdir(), "start-move-")), "repo");
    await copyRepository(copy);
    elsewhere = await startEmulator({ port: 0, adminToken: INSTANCE_TOKEN });
  }, SLOW);
  afterAll(async () => {
    await elsewhere?.close();
    if (copy) rmSync(dirname(copy), { recursive: true, force: true });
  });

  it(
    "npm start: creates the subscriptions, and prints no passphrase",
    async () => {
      const first = await npmStart();
      expect(first.code, tail(first)).toBe(0);
      expect(first.stdout).toMatch(/^\[start\] succeeded: 5 created$/m);
      expect(first.stdout + first.stderr).not.toContain(PASSPHRASE);
      expect(first.stdout).not.toContain("$PULUMI_CONFIG_PASSPHRASE");
      blocks = printedBlocks(first.stdout);
    },
    SLOW,
  );

  it("the inspect block, pasted into a fresh shell, asks for the passphrase and shows the outputs", async () => {
    const inspect = await freshShell(block(blocks, "inspect the stack"), "/", SLOW, { typed: `${PASSPHRASE}\n` });
    expect(inspect.code, tail(inspect)).toBe(0);
    expect(inspect.stdout).toContain("ordersSignature");
  });

  it(
    "docs/emulator.md's out-of-band block, run as written: --drift reports the change, npm start puts it back",
    async () => {
      const section = shellBlocks(readFileSync(join(REPO_ROOT, "docs", "emulator.md"), "utf8")).find((b) =>
        b.heading.startsWith("Changing the subscriptions of `npm start`"),
      );
      expect(section, "the section of docs/emulator.md").toBeDefined();
      const outOfBand = await freshShell(section!.script, copy, SLOW);
      expect(outOfBand.code, tail(outOfBand)).toBe(0);
      expect(embeddedSubscriptions()).toHaveLength(3);
      // It stopped, and let go of the state file.
      expect(existsSync(join(copy, ".emulator", "state.json.lock"))).toBe(false);

      const drift = await npmStart("npm start -- --drift");
      expect(drift.code, tail(drift)).toBe(2);
      // The report's closing command, run as printed once that run has ended (its emulator with it).
      const again = /· `([^`]+)`<\/sub>\s*$/.exec(drift.stdout)?.[1];
      expect(again, tail(drift)).toBe("npm start -- --drift");
      const rerun = await npmStart(again);
      expect(rerun.code, tail(rerun)).toBe(2);
      const repaired = await npmStart();
      expect(repaired.code, tail(repaired)).toBe(0);
      expect(repaired.stdout).toMatch(/^\[start\] out of band: 1 gone; the update put them back$/m);
      expect(repaired.stdout).toMatch(/^\[start\] succeeded: 1 created$/m);
      expect(embeddedSubscriptions()).toHaveLength(4);
    },
    SLOW,
  );

  it(
    "WEBHOOKS_STACK=typo npm start -- --drift refuses as the CLI does, and creates no stack",
    async () => {
      const typo = await npmStart("WEBHOOKS_STACK=typo npm start -- --drift");
      expect(typo.code, tail(typo)).toBe(1);
      // The CLI on the same backend, with the engine on PATH, as the printed inspect block sets them:
      // the review runs the team's own pulumi from PATH.
      const backend = `PULUMI_BACKEND_URL=${pathToFileURL(join(copy, ".pulumi-state")).href}`;
      const path = `PATH=${requireEngine().binDir}:"$PATH"`;
      const cli = await npmStart(`${path} ${backend} npx webhook-subscriptions drift --stack typo`);
      expect(cli.code, tail(cli)).toBe(1);
      const refusal = `No stack named "typo"`;
      expect(cli.stdout + cli.stderr).toContain(refusal);
      expect(typo.stdout + typo.stderr).toContain(refusal);
      expect(backendStacks({ workDir: copy, backendDir: join(copy, ".pulumi-state") })).toEqual(["dev"]);
      expect(existsSync(join(copy, "Pulumi.typo.yaml"))).toBe(false);
    },
    SLOW,
  );

  it(
    "the deploy-elsewhere block, pasted with <url> filled in: the subscriptions move to that instance",
    async () => {
      const printed = block(blocks, "deploy elsewhere");
      expect(printed).toContain("pulumi config set webhooks:baseUrl '<url>' --stack dev");
      // What the user types: the passphrase, then the instance's token at the prompt.
      const move = await freshShell(printed.replace("<url>", elsewhere.url), "/", SLOW, {
        typed: `${PASSPHRASE}\n${INSTANCE_TOKEN}\n`,
      });
      expect(move.code, tail(move)).toBe(0);
      expect(move.stdout + move.stderr).not.toContain(INSTANCE_TOKEN);
      expect(move.stdout).toMatch(/^\[start\] succeeded: (.*, )?4 replaced/m);
      const moved = await EmulatorHarness.attach(elsewhere.url).all();
      expect(moved.map((s) => s.SubscriberURL).sort()).toEqual([
        "https://hooks.example.com/catalogue/created",
        "https://hooks.example.com/helpdesk",
        "https://hooks.example.com/orders/created",
        "https://hooks.example.com/orders/updated",
      ]);
      // Unsubscribed from the embedded emulator, not left there as pending deletes.
      expect(embeddedSubscriptions()).toEqual([]);

      const again = await npmStart();
      expect(again.code, tail(again)).toBe(0);
      expect(again.stdout).toContain("the embedded emulator is not started");
      expect(again.stdout).toMatch(/^\[start\] no changes: the instance matches the program$/m);
      expect((await EmulatorHarness.attach(elsewhere.url).all()).map((s) => s.GUID).sort()).toEqual(
        moved.map((s) => s.GUID).sort(),
      );
    },
    SLOW,
  );
});
