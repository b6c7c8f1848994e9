/**
 * The package as a user gets it and runs it: the run's release tarball, packed from a fresh copy
 * of this branch (prepack builds), installed into a fresh user project, and run the way users run it — plain `pulumi up`,
 * `preview`, `refresh`, `destroy`, `cancel` and `stack output` in the project directory, through
 * the real Node.js language host — plus what the package ships: `npx webhook-subscriptions …` and
 * `require(…)`. The checks of what a toolchain changes (the install, a TypeScript and a JavaScript
 * program, the bin's runner) run on each toolchain of support/toolchain.ts; each longer scenario,
 * which tests the package rather than the toolchain, on one of them (`SCENARIO_TOOLCHAIN`). Every
 * command must exit as asserted; any other exit fails the test with its output.
 *
 * The drift review also runs from where a platform team installs it once: the same tarball
 * installed globally (`npm install -g`, into a prefix of the test's), and `npm run drift` in the
 * release's checkout of this repository. Both have a `@pulumi/pulumi` of their own, not the user
 * project's: the review must run the program through its language host, as `pulumi preview`
 * does, never in its own process, where the two copies meet and the engine refuses every resource
 * ("Request message serialization failure").
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, resourcesSummary, run, UNEXPECTED_CHANGES_EXIT } from "../support/commands";
import { reviewOf } from "../support/driftReview";
import { EmulatorHarness } from "../support/emulatorHarness";
import { REPO_ROOT } from "../support/engine";
import { checkpoint, killMidRun, locks, removeTornSidecars } from "../support/interruption";
import { packagesExcludingSupportedNode } from "../support/nodeEngines";
import { phoneHomeSuspects } from "../support/phoneHome";
import { RELEASE_VERSION, sharedRelease } from "../support/sharedRelease";
import { shellBlocks } from "../support/shellBlocks";
import { writeUserPackage } from "../support/pulumiProject";
import { ShellSession, terminalEnv } from "../support/shellSession";
import { TOOLCHAINS, provisionToolchain } from "../support/toolchain";

const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

const PROGRAM = (language: "ts" | "js", path: string) =>
  language === "ts"
    ? `import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

const sub = new WebhookSubscription("types", {
  webhook: Webhook.BusinessObjectTypeUpdated,
  filterObjectType: 4,
  subscriberUrl: "https://hooks.example.com${path}",
});
export const guid = sub.guid;
`
    : `const { Webhook, WebhookSubscription } = require("pulumi-webhook-subscriptions");

const sub = new WebhookSubscription("types", {
  webhook: Webhook.BusinessObjectTypeUpdated,
  filterObjectType: 4,
  subscriberUrl: "https://hooks.example.com${path}",
});
exports.guid = sub.guid;
`;

/**
 * Where each longer scenario runs. The drift review on yesterday's toolchain, whose user project
 * has the oldest SDK, furthest from the one a global install resolves; the others on today's.
 */
const SCENARIO_TOOLCHAIN = {
  twoStacks: TOOLCHAINS.at(-1)!,
  driftReview: TOOLCHAINS[0]!,
  killedUp: TOOLCHAINS.at(-1)!,
} as const;

/** Subscriptions of the program whose `pulumi up` is killed. */
const FLEET = 12;
/** Kill once this many Subscribes have reached the service (and one is recorded, one held). */
const KILL_AFTER_SUBSCRIBES = 6;

const FLEET_PROGRAM = `import { Webhook, WebhookSubscription } from "pulumi-webhook-subscriptions";

for (let i = 0; i < ${FLEET}; i++)
  new WebhookSubscription(\`sub-\${i}\`, {
    webhook: Webhook.BusinessObjectTypeUpdated,
    filterObjectType: 4,
    subscriberUrl: \`https://hooks.example.com/fleet/\${i}\`,
  });
`;

let root: string;
let tarball: string;
/** The release's checkout: a fresh copy of this branch, committed, where `npm pack` ran. */
let clone: string;
/** The bin of the tarball installed globally, by the first toolchain that asks: one install for all. */
let globalBin: Promise<string> | undefined;

/** `npm install -g` of the tarball into a prefix of the test's, with `env`'s npm; resolves with its bin. */
function globalInstall(env: NodeJS.ProcessEnv): Promise<string> {
  const prefix = join(root, "global");
  globalBin ??= run("npm", ["install", "--global", "--prefix", prefix, tarball, ...NPM], root, env).then(() =>
    join(prefix, "bin", "webhook-subscriptions"),
  );
  return globalBin;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "package-e2e-"));
  // The run's one release (support/sharedRelease.ts): its npm tarball is `npm pack` in a fresh,
  // unbuilt copy of this branch (prepack builds), exactly what `npm publish` uploads.
  const release = await sharedRelease();
  clone = release.checkout;
  tarball = join(release.dir, `pulumi-webhook-subscriptions-${RELEASE_VERSION}.tgz`);
}, 1_800_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

it("the tarball ships dist/ (built by prepack) and the engine's Go module files, and no sources or source maps", async () => {
  const listing = await run("tar", ["-tzf", tarball], root);
  const files = listing.stdout.split("\n").filter(Boolean);
  expect(files).toContain("package/dist/cli/index.js");
  expect(files).toContain("package/dist/index.d.ts");
  expect(files).toContain("package/engine/wrapper/v3.248.0/go.mod");
  expect(files).toContain("package/engine/wrapper/v3.248.0/go.sum");
  expect(files).toContain("package/LICENSE");
  // Swagger UI's files and licence, copied at build time instead of depending on swagger-ui-dist.
  for (const file of ["swagger-ui-bundle.js", "swagger-ui.css", "LICENSE", "NOTICE"])
    expect(files).toContain(`package/dist/emulator/swagger-ui/${file}`);
  expect(files.filter((f) => f.endsWith(".map") || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
  // dist/scripts: `npm start`'s, built for the checkout (tsconfig.json), not the package's.
  expect(files.filter((f) => /^package\/(test|scripts|bench|examples|infra|dist\/scripts)\//.test(f))).toEqual([]);
});

describe.each(TOOLCHAINS)("the packed package in a user's project on $name", (toolchain) => {
  let user: string;
  let state: string;
  let env: NodeJS.ProcessEnv;
  let emulator: ChildProcess | undefined;
  let service: EmulatorHarness;
  /** What the user's `npm install` printed on stderr, warnings included. */
  let installWarnings: string;

  /** `pulumi <args> --stack <stack>` in a program directory of the user project. */
  const pulumi = async (program: string, args: string[], expected = 0, stack = "dev") => {
    const result = await run("pulumi", [...args, "--stack", stack], join(user, program), env, expected);
    // The transcript's summary, e.g. "pulumi up (ts-infra): + 2 created", for the run's log.
    const summary = resourcesSummary(result.stdout);
    if (summary) console.log(`[${toolchain.name}] pulumi ${args.join(" ")} (${program}, ${stack}): ${summary}`);
    return result;
  };

  beforeAll(async () => {
    const { engine, nodeBinDir } = await provisionToolchain(toolchain, (line) => console.log(`[toolchain] ${line}`));
    if (!engine.hasLanguageHost)
      throw new Error(
        `pulumi ${engine.version} in ${engine.binDir} has no pulumi-language-nodejs: set WEBHOOKS_LANGUAGE_HOST_SOURCE ` +
          "to a folder laid out like ../shared/engine-src, or put an official Pulumi install on PATH",
      );
    user = join(root, `node-${toolchain.node}`);
    state = join(user, "state");
    mkdirSync(state, { recursive: true });
    env = {
      // The toolchain's node first: npm, npx and the language host run on it; then its CLI and hosts.
      PATH: [nodeBinDir, engine.binDir, process.env.PATH].join(delimiter),
      PULUMI_HOME: join(user, "pulumi-home"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_BACKEND_URL: pathToFileURL(state).href,
      PULUMI_CONFIG_PASSPHRASE: "user-passphrase",
      WEBHOOKS_TOKEN: "dev-builder",
    };
    writeUserPackage(user, { sdk: toolchain.sdk, tarball });
    // Warnings shown, as a user sees them: the other steps keep NPM's --loglevel=error.
    installWarnings = (await run("npm", ["install", ...NPM, "--loglevel=warn"], user, env)).stderr;
    const programs = {
      "ts-infra": PROGRAM("ts", "/ts"),
      "js-infra": PROGRAM("js", "/js"),
      "fleet-infra": FLEET_PROGRAM,
    };
    for (const [name, program] of Object.entries(programs)) {
      mkdirSync(join(user, name));
      writeFileSync(join(user, name, "Pulumi.yaml"), `name: ${name}\nruntime: nodejs\n`);
      writeFileSync(join(user, name, name === "js-infra" ? "index.js" : "index.ts"), program);
      await pulumi(name, ["stack", "init"]);
    }
  }, 1_800_000);

  afterAll(async () => {
    if (emulator?.pid !== undefined && emulator.exitCode === null) {
      const exited = new Promise((resolve) => emulator?.once("exit", resolve));
      // npx runs the bin in a child of its own: stop the whole process group.
      process.kill(-emulator.pid, "SIGTERM");
      await exited;
    }
  });

  it(`runs node ${toolchain.node} and pulumi ${toolchain.cli}, with the user's one copy of SDK ${toolchain.sdk}`, async () => {
    expect((await run("node", ["--version"], user, env)).stdout.trim()).toBe(`v${toolchain.node}`);
    expect((await run("pulumi", ["version"], user, env)).stdout.trim()).toBe(`v${toolchain.cli}`);
    const { stdout } = await run("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], user, env);
    expect(stdout.trim().split("\n")).toEqual([join(user, "node_modules", "@pulumi", "pulumi")]);
    const { stdout: version } = await run(
      "node",
      ["-p", 'require("@pulumi/pulumi/package.json").version'],
      join(user, "node_modules", "pulumi-webhook-subscriptions"),
      env,
    );
    expect(version.trim()).toBe(toolchain.sdk);
  });

  it("installs without a warning about this package: no `prepare` to review, no EBADENGINE", async () => {
    expect(installWarnings).not.toMatch(/pulumi-webhook-subscriptions@[^\n]*prepare/);
    expect(installWarnings).not.toMatch(/EBADENGINE/);
    // Not only this Node: no installed package leaves out any version engines.node names.
    const supported = (JSON.parse(readFileSync(join(clone, "package.json"), "utf8")) as { engines: { node: string } })
      .engines.node;
    const userSdk = JSON.parse(
      readFileSync(join(user, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8"),
    ) as { engines?: { node?: string } };
    // Nothing installed reports home: no telemetry package, no install script that is not known to be local.
    expect(phoneHomeSuspects(join(user, "node_modules", ".package-lock.json"))).toEqual([]);
    expect(
      packagesExcludingSupportedNode(
        join(user, "node_modules", ".package-lock.json"),
        supported,
        userSdk.engines?.node ?? "*",
      ),
    ).toEqual([]);
    // The tarball's manifest has no `prepare`; the repository's keeps it (git installs build with it), untouched by the pack.
    const installed = join(user, "node_modules", "pulumi-webhook-subscriptions", "package.json");
    expect((JSON.parse(readFileSync(installed, "utf8")) as { scripts: Record<string, string> }).scripts.prepare).toBe(
      undefined,
    );
    expect((await run("git", ["status", "--porcelain", "--", "package.json"], clone)).stdout).toBe("");
    expect(readFileSync(join(clone, "package.json"), "utf8")).toContain('"prepare": "tsx scripts/build.ts"');
  });

  it("the receiver entry loads no @pulumi/pulumi: only the package's own files and node built-ins", async () => {
    const script =
      'const r = require("pulumi-webhook-subscriptions/receiver");' +
      "console.log(JSON.stringify({ names: Object.keys(r), loaded: Object.keys(require.cache) }));";
    const { stdout } = await run("node", ["-e", script], user, env);
    const { names, loaded } = JSON.parse(stdout) as { names: string[]; loaded: string[] };
    expect(names).toEqual(expect.arrayContaining(["verifySignature", "assertSignature"]));
    expect(loaded.filter((path) => path.includes("@pulumi"))).toEqual([]);
    const own = join(user, "node_modules", "pulumi-webhook-subscriptions", "dist");
    expect(loaded.filter((path) => !path.startsWith(own))).toEqual([]);
  });

  it("the policy entry without @pulumi/policy (an optional peer: not installed) says which package to install", async () => {
    expect(existsSync(join(user, "node_modules", "@pulumi", "policy"))).toBe(false);
    // Loaded as a program does, uncaught: what reaches the user is what Node prints.
    const failed = await run("node", ["-e", 'require("pulumi-webhook-subscriptions/policy")'], user, env, 1);
    console.log(
      `[${toolchain.name}] require("pulumi-webhook-subscriptions/policy") without @pulumi/policy:\n${failed.stderr.trim()}`,
    );
    expect(failed.stderr).toContain(
      "pulumi-webhook-subscriptions/policy needs @pulumi/policy: run `npm install @pulumi/policy`",
    );
    expect(failed.stderr).not.toContain("Cannot find module");
    // The rest of the package does not need it.
    await run(
      "node",
      ["-e", 'require("pulumi-webhook-subscriptions"); require("pulumi-webhook-subscriptions/drift")'],
      user,
      env,
    );
  });

  it("`npx webhook-subscriptions adpot`: a usage error at once, naming the commands", async () => {
    const typo = await run("npx", ["webhook-subscriptions", "adpot"], user, env, 1, 60_000);
    expect(typo.stderr).toContain('unknown command "adpot"');
    expect(typo.stderr).toContain("usage: webhook-subscriptions <command>");
  });

  it("`npx webhook-subscriptions emulator` serves", async () => {
    const child = spawn("npx", ["webhook-subscriptions", "emulator", "--port", "0"], {
      cwd: user,
      env: { ...cleanEnv(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    emulator = child;
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      let err = "";
      child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString()));
      child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening: ${err}`)));
      child.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /webhook emulator listening on (\S+)/.exec(out);
        if (match?.[1]) resolve(match[1]);
      });
    });
    service = EmulatorHarness.attach(url);
    expect(await service.all()).toEqual([]);
    // The Swagger page's files come from the package itself: swagger-ui-dist is not installed.
    expect(existsSync(join(user, "node_modules", "swagger-ui-dist"))).toBe(false);
    const page = await (await fetch(`${url}/swagger`)).text();
    const assets = [...page.matchAll(/(?:src|href)="(\/swagger\/ui\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(4);
    for (const asset of assets) expect((await fetch(`${url}${asset}`)).status, asset).toBe(200);
    env.WEBHOOKS_BASE_URL = url;
  });

  it.each(["ts", "js"] as const)(
    "a %s program: `pulumi up`, a no-op `pulumi preview --expect-no-changes`, `pulumi stack output --show-secrets`",
    async (language) => {
      const program = `${language}-infra`;
      const up = await pulumi(program, ["up", "--yes"]);
      expect(up.stdout).toMatch(/\+ 2 created/);
      const preview = await pulumi(program, ["preview", "--expect-no-changes"]);
      expect(preview.stdout).toMatch(/2 unchanged/);
      const outputs = JSON.parse((await pulumi(program, ["stack", "output", "--show-secrets", "--json"])).stdout) as {
        guid: string;
      };
      const live = (await service.all()).find((s) => s.SubscriberURL === `https://hooks.example.com/${language}`);
      expect(outputs.guid).toBe(live?.GUID);
    },
  );

  const scenario = (name: keyof typeof SCENARIO_TOOLCHAIN) => toolchain === SCENARIO_TOOLCHAIN[name];

  if (scenario("twoStacks"))
    it("two stacks declaring the same subscription each own theirs: `up` both, `destroy` one, the other's stays live and settled", async () => {
      // staging: a second stack of the TypeScript project, so the very same subscription as dev's.
      const dev = async () => (await service.all()).filter((s) => s.SubscriberURL === "https://hooks.example.com/ts");
      const [devSubscription] = await dev();
      expect(devSubscription).toBeDefined();
      await pulumi("ts-infra", ["stack", "init"], 0, "staging");
      const up = await pulumi("ts-infra", ["up", "--yes"], 0, "staging");
      expect(up.stdout).toMatch(/\+ 2 created/);
      // Not taken over: its own, with one warning naming dev's and how to take it over instead.
      const diagnostics = up.stdout.slice(up.stdout.indexOf("Diagnostics:"), up.stdout.lastIndexOf("Resources:"));
      expect(diagnostics.match(/an identical subscription already exists/g) ?? []).toHaveLength(1);
      expect(up.stdout).toContain(`(${devSubscription!.GUID}; same event, scope, URL and header name)`);
      const staging = JSON.parse((await pulumi("ts-infra", ["stack", "output", "--json"], 0, "staging")).stdout) as {
        guid: string;
      };
      expect(staging.guid).not.toBe(devSubscription!.GUID);
      expect((await dev()).map((s) => s.GUID).sort()).toEqual([devSubscription!.GUID, staging.guid].sort());

      expect((await pulumi("ts-infra", ["destroy", "--yes"], 0, "staging")).stdout).toMatch(/- 2 deleted/);
      await pulumi("ts-infra", ["stack", "rm", "--yes"], 0, "staging");
      // dev's subscription is untouched, and dev sees no change.
      expect(await dev()).toEqual([devSubscription]);
      expect((await pulumi("ts-infra", ["preview", "--expect-no-changes"])).stdout).toMatch(/2 unchanged/);
    });

  it("the bin's runner (for machines without a language host) finds the program and agrees: no changes", async () => {
    const args = ["webhook-subscriptions", "preview", "--cwd", join(user, "ts-infra"), "--stack", "dev"];
    const { stdout } = await run("npx", args, user, env);
    expect(stdout).toMatch(/2 unchanged/);
    expect(stdout).not.toMatch(/to (create|update|delete|replace)/);
  });

  if (scenario("driftReview"))
    it("`pulumi destroy`; the drift review in sync, then drift after an out-of-band edit, which `pulumi refresh` records and `pulumi up` reverts; the same from a global install and from the checkout", async () => {
      // One project per instance: the JavaScript one goes, or the review would list its subscription as unmanaged.
      expect((await pulumi("js-infra", ["destroy", "--yes"])).stdout).toMatch(/- 2 deleted/);
      const program = join(user, "ts-infra");
      const args = ["--stack", "dev", "--cwd", program, "--format", "json"];
      /** Where the review runs from: the project's own install, a global one, this repository's checkout. */
      const reviewers = {
        npx: async () => ({ command: "npx", args: ["webhook-subscriptions", "drift", ...args], cwd: user }),
        global: async () => ({ command: await globalInstall(env), args: ["drift", ...args], cwd: user }),
        checkout: async () => ({ command: "npm", args: ["run", "--silent", "drift", "--", ...args], cwd: clone }),
      };
      const drift = async (expected: number, from: keyof typeof reviewers = "npx") => {
        const { command, args, cwd } = await reviewers[from]();
        const result = await run(command, args, cwd, env, expected);
        // The engine's words for two copies of @pulumi/pulumi never reach the reader, on any exit.
        expect(result.stdout + result.stderr).not.toMatch(/serialization failure|pulumirpc/);
        const report = reviewOf(result.stdout);
        console.log(`[${toolchain.name}] drift (ts-infra) from ${from}: exit ${expected}, ${report.status}`);
        return report;
      };
      const clean = await drift(0);
      expect(clean.status).toBe("in-sync");
      const guid = clean.sources[0]?.subscriptions[0]?.guid;
      expect(guid).toMatch(/^[0-9a-f-]{36}$/);
      // The CLI installed once, with a @pulumi/pulumi of its own: the program ran, through its language host.
      for (const from of ["global", "checkout"] as const)
        expect(await drift(0, from)).toMatchObject({
          status: "in-sync",
          sources: [{ compared: ["state", "program"], subscriptions: [{ guid }] }],
          findings: [],
        });

      // Someone changes the subscription outside Pulumi.
      const edit = await service.config("UpdateWebhookSubscription", {
        body: { GUID: guid, Webhook: 5, FilterObjectType: 4, SubscriberURL: "https://elsewhere.example.com/ts" },
      });
      expect(edit.status).toBe(200);
      expect((await drift(2)).status).toBe("drift");

      expect((await pulumi("ts-infra", ["refresh", "--yes"])).stdout).toMatch(/~ 1 updated/);
      // Only the program still declares the old values: the global install and the checkout see it by running it.
      for (const from of ["global", "checkout"] as const)
        expect((await drift(2, from)).findings).toEqual([
          expect.objectContaining({
            class: "differs-from-program",
            guid,
            fields: [
              {
                field: "subscriberUrl",
                secret: false,
                declared: "https://hooks.example.com/ts",
                live: "https://elsewhere.example.com/ts",
              },
            ],
          }),
        ]);
      // The state now holds the edit, so the program differs from it.
      const changes = await pulumi("ts-infra", ["preview", "--expect-no-changes"], UNEXPECTED_CHANGES_EXIT);
      expect(changes.stdout).toMatch(/~ 1 to update/);
      expect((await pulumi("ts-infra", ["up", "--yes"])).stdout).toMatch(/~ 1 updated/);
      expect((await drift(0)).status).toBe("in-sync");
      expect((await pulumi("ts-infra", ["destroy", "--yes"])).stdout).toMatch(/- 2 deleted/);
      expect(await service.all()).toEqual([]);
    });

  if (scenario("killedUp"))
    it("a killed `pulumi up` recovers with the commands the drift review prints, run as printed in bash — no duplicates, no orphans", async () => {
      // The fleet alone on the instance: the other programs' subscriptions would be unmanaged to its review.
      for (const program of ["ts-infra", "js-infra"]) await pulumi(program, ["destroy", "--yes"]);
      expect(await service.all()).toEqual([]);
      const recorded = () => checkpoint(state, "fleet-infra", "dev").resources.filter((r) => r.startsWith("sub-"));
      // Half the Subscribes answer late: when the kill lands, some are recorded, some in flight.
      await service.admin("PUT", "/faults", {
        seed: 8,
        rules: [{ operation: "SubscribeToWebhook", kind: "delay", delayMs: 3000, probability: 0.5 }],
      });
      const fleet = join(user, "fleet-infra");
      await killMidRun(
        service,
        {
          name: "pulumi up",
          command: "pulumi",
          args: ["up", "--yes", "--stack", "dev"],
          cwd: fleet,
          env: { ...cleanEnv(), ...env },
          workDir: fleet,
          completed: /Duration:/,
        },
        { operation: "SubscribeToWebhook", after: KILL_AFTER_SUBSCRIBES, until: () => recorded().length > 0 },
      );
      // The delayed Subscribes complete on the service after the kill.
      await service.admin("DELETE", "/faults");
      await service.answeredAll();
      // A kill while the backend rewrote the state's metadata sidecar tears it; docs/recovery.md says to delete it.
      const torn = removeTornSidecars(state);
      if (torn.length > 0) console.log(`[${toolchain.name}] the kill tore ${torn.join(", ")}: deleted`);
      expect(locks(state)).toHaveLength(1);
      const pending = checkpoint(state, "fleet-infra", "dev").pending.length;
      expect(pending).toBeGreaterThan(0);
      const liveAfterKill = (await service.all()).length;
      const unrecorded = liveAfterKill - recorded().length;
      expect(unrecorded, "subscriptions the killed run committed but never recorded").toBeGreaterThan(0);
      console.log(
        `[${toolchain.name}] after the kill: ${liveAfterKill} live, ${recorded().length} recorded, ${pending} pending creates`,
      );

      // 1. The lock blocks the next run until `pulumi cancel` removes it (the file backend: the lock file).
      const blocked = await pulumi("fleet-infra", ["up", "--yes"], 1);
      expect(`${blocked.stdout}${blocked.stderr}`).toMatch(/locked/);
      await pulumi("fleet-infra", ["cancel", "--yes"]);
      expect(locks(state)).toEqual([]);

      // 2. The drift review (its markdown, as a user reads it) names the pending creates and prints
      //    the commands that finish the run: clear them, take over the matched orphans, create the rest.
      const review = await run(
        "npx",
        ["webhook-subscriptions", "drift", "--stack", "dev", "--cwd", fleet],
        user,
        env,
        2,
      );
      const printed = shellBlocks(review.stdout).find((b) => b.script.includes("--clear-pending-creates"))?.script;
      if (!printed) throw new Error(`the drift review printed no recovery commands:\n${review.stdout}`);
      console.log(`[${toolchain.name}] the drift review's recovery:\n${printed}`);
      const commands = printed.split("\n");
      expect(commands[0]).toBe("pulumi refresh --stack dev --clear-pending-creates --yes");
      expect(commands[1]).toMatch(/^WEBHOOKS_ADOPT_IDENTICAL=true pulumi up --stack dev (--target \S+ )+--yes$/);
      expect(commands[1]!.match(/--target /g)).toHaveLength(unrecorded);
      expect(commands.at(-1)).toBe("pulumi up --stack dev --yes");

      // 3. Run as printed, pasted into bash in the program's directory, with the user's environment.
      const shellEnv = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
      const session = ShellSession.start(fleet, terminalEnv(shellEnv));
      let transcript: string;
      try {
        transcript = await session.run(printed);
      } finally {
        await session.close();
      }
      console.log(`[${toolchain.name}] the printed recovery, run:\n${transcript}`);
      expect(checkpoint(state, "fleet-infra", "dev").pending).toEqual([]);
      const adopted = new Set(
        [...transcript.matchAll(/adopted the existing identical subscription ([0-9a-f-]{36})/g)].map((m) => m[1]),
      );
      expect(adopted.size).toBe(unrecorded);
      const live = await service.all();
      expect(new Set(live.map((s) => s.SubscriberURL)).size).toBe(FLEET);
      expect(live).toHaveLength(FLEET);
      expect(recorded()).toHaveLength(FLEET);
      console.log(`[${toolchain.name}] after the printed recovery: ${live.length} live, ${recorded().length} recorded`);

      // 4. Settled.
      await pulumi("fleet-infra", ["preview", "--expect-no-changes"]);
      await pulumi("fleet-infra", ["destroy", "--yes"]);
      expect(await service.all()).toEqual([]);
    });
});

/**
 * The README's "Use it in your own Pulumi project", run as written from an empty directory on
 * today's toolchain (a machine with a Pulumi CLI), with the README's own "Declaring subscriptions"
 * program as index.ts. Substituted, each exactly once: the package name in `npm install` (it is not
 * on the registry: the tarball instead), the example instance URL (the emulator), the `…`
 * passphrase, and `--local` (below). `$TOKEN` comes from the environment, as the README expects.
 */
describe("the README's own-project path, as written, from an empty directory", () => {
  const today = TOOLCHAINS.at(-1)!;
  let session: ShellSession | undefined;
  let service: EmulatorHarness;
  let home: string | undefined;

  afterAll(async () => {
    await session?.close();
    await service?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it("npm init, install, login, stack init, config, pulumi up: the README's subscription on the instance", async () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const section = "Use it in your own Pulumi project";
    const script = shellBlocks(readme).find((b) => b.heading === section)?.script;
    const program = shellBlocks(readme, "ts").find((b) => b.heading === "Declaring subscriptions")?.script;
    if (!script || !program) throw new Error(`README.md lost its "${section}" sh block or its program`);
    service = await EmulatorHarness.start();
    const once = (text: string, from: RegExp, to: string) => {
      const matches = text.match(new RegExp(from.source, `${from.flags}g`))?.length ?? 0;
      if (matches !== 1) throw new Error(`README.md: expected ${String(from)} once in "${section}", found ${matches}`);
      return text.replace(from, to);
    };
    let commands = once(script, / pulumi-webhook-subscriptions$/m, ` ${pathToFileURL(tarball).href}`);
    commands = once(commands, /https:\/\/instance\.example\.com\/api/, service.url);
    commands = once(commands, /PULUMI_CONFIG_PASSPHRASE=…/, "PULUMI_CONFIG_PASSPHRASE=readme-passphrase");
    // `--local` is file://~, and the CLI takes ~ from the passwd entry, not $HOME: on this machine
    // that is the real home, which a test must not write. The same backend kind, in the test's home.
    commands = once(commands, /pulumi login --local/, 'pulumi login "file://$HOME"');
    // The program is written where the README says it goes: after the config, before `pulumi up`.
    const [beforeProgram, afterProgram] = commands.split(/^# index\.ts declares.*$/m);
    if (afterProgram === undefined) throw new Error(`README.md: "${section}" no longer says where index.ts comes in`);

    const { engine, nodeBinDir } = await provisionToolchain(today, (line) => console.log(`[toolchain] ${line}`));
    home = mkdtempSync(join(tmpdir(), "readme-user-"));
    session = ShellSession.start(
      home,
      terminalEnv({
        HOME: home,
        // A machine with Node.js and a Pulumi CLI; `pulumi up` answers its prompt by itself.
        PATH: [nodeBinDir, engine.binDir, process.env.PATH].join(delimiter),
        PULUMI_SKIP_CONFIRMATIONS: "true",
        // ~/.pulumi as the CLI would have it, in the test's home (the CLI's own ~ is the passwd entry's).
        PULUMI_HOME: join(home, ".pulumi"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
        TOKEN: "dev-builder",
        npm_config_cache: join(process.env.HOME ?? home, ".npm"),
      }),
    );
    await session.run(beforeProgram!);
    writeFileSync(join(home, "webhooks", "index.ts"), program);
    const up = await session.run(afterProgram);
    expect(up).toMatch(/\+ 2 created/);
    const declared = (await service.all()).map((s) => [s.SubscriberURL, s.CustomHeader]);
    expect(declared).toEqual([["https://hooks.example.com/orders", "X-Api-Key"]]);
    // Still in the README's project and shell: a second run changes nothing, and destroy cleans up.
    expect(await session.run("pulumi preview --expect-no-changes")).toMatch(/2 unchanged/);
    await session.run("pulumi destroy");
    expect(await service.all()).toEqual([]);
  }, 900_000);
});
