/**
 * The package as a user gets it: packed from a clean clone of this branch (prepack builds),
 * installed into a fresh "user project" beside a different @pulumi/pulumi 3.x than our pin, and
 * used only through what it ships: `npx webhook-subscriptions …` and `require(…)`.
 * Every command must succeed as asserted; any other exit fails the test with its output.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, requireEngine } from "../support/engine";
import { packagesExcludingSupportedNode } from "../support/nodeEngines";

/** A 3.x SDK other than the lockfile's 3.248.0, still supporting Node 20, inside our range. */
const USER_SDK = "3.247.0";
const NPM = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; rejects (with its output) unless it exits with `expected`. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, expected = 0): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env: { ...cleanEnv(), ...env }, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        if (code === expected) resolve({ code, stdout, stderr });
        else
          reject(
            new Error(
              `${command} ${args.join(" ")} (in ${cwd}) exited ${code}, expected ${expected}:\n${stdout}\n${stderr}`,
            ),
          );
      },
    );
  });
}

/** The test runner's environment without what npm or vitest put there for this repository. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env))
    if (key.startsWith("npm_") || key === "INIT_CWD" || key.startsWith("VITEST") || key === "NODE_OPTIONS")
      delete env[key];
  return env;
}

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

describe("the packed package in a user's project", () => {
  let root: string;
  let user: string;
  let env: NodeJS.ProcessEnv;
  let emulator: ChildProcess | undefined;
  let emulatorUrl: string;
  let clone: string;
  /** What the user's `npm install` printed on stderr, warnings included. */
  let installWarnings: string;

  beforeAll(async () => {
    requireEngine();
    root = mkdtempSync(join(tmpdir(), "package-e2e-"));
    clone = join(root, "clone");
    // The committed branch, as CI or a git install would see it: nothing built, nothing ignored copied.
    await run("git", ["clone", "--quiet", "--no-hardlinks", REPO_ROOT, clone], root);
    expect(existsSync(join(clone, "dist"))).toBe(false);
    await run("npm", ["ci", "--ignore-scripts", ...NPM], clone);
    await run("npm", ["pack", "--pack-destination", root, ...NPM], clone);
    const tarball = readdirSync(root).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error(`npm pack wrote no tarball into ${root}`);

    user = join(root, "user");
    mkdirSync(user);
    writeFileSync(
      join(user, "package.json"),
      JSON.stringify({
        name: "user-infra",
        private: true,
        dependencies: {
          "@pulumi/pulumi": USER_SDK,
          "pulumi-webhook-subscriptions": pathToFileURL(join(root, tarball)).href,
        },
      }),
    );
    // Warnings shown, as a user sees them: the other steps keep NPM's --loglevel=error.
    installWarnings = (await run("npm", ["install", ...NPM, "--loglevel=warn"], user)).stderr;

    for (const language of ["ts", "js"] as const) {
      const dir = join(user, `${language}-infra`);
      mkdirSync(dir);
      writeFileSync(join(dir, "Pulumi.yaml"), `name: ${language}-infra\nruntime: nodejs\n`);
      writeFileSync(join(dir, `index.${language}`), PROGRAM(language, `/${language}`));
    }
    mkdirSync(join(root, "state"));
    env = {
      PULUMI_BACKEND_URL: pathToFileURL(join(root, "state")).href,
      PULUMI_CONFIG_PASSPHRASE: "user-passphrase",
      WEBHOOKS_TOKEN: "dev-builder",
    };
  }, 900_000);

  afterAll(async () => {
    if (emulator?.pid !== undefined && emulator.exitCode === null) {
      const exited = new Promise((resolve) => emulator?.once("exit", resolve));
      // npx runs the bin in a child of its own: stop the whole process group.
      process.kill(-emulator.pid, "SIGTERM");
      await exited;
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("ships dist/ (built by prepack) and the engine's Go module files, and no sources or source maps", async () => {
    const listing = await run("tar", ["-tzf", readdirSync(root).find((n) => n.endsWith(".tgz")) ?? ""], root);
    const files = listing.stdout.split("\n").filter(Boolean);
    expect(files).toContain("package/dist/cli/index.js");
    expect(files).toContain("package/dist/index.d.ts");
    expect(files).toContain("package/engine/wrapper/go.mod");
    expect(files).toContain("package/engine/wrapper/go.sum");
    expect(files).toContain("package/LICENSE");
    expect(files.filter((f) => f.endsWith(".map") || (f.endsWith(".ts") && !f.endsWith(".d.ts")))).toEqual([]);
    expect(files.filter((f) => /^package\/(test|scripts|bench|examples|infra)\//.test(f))).toEqual([]);
  });

  it("installs without a warning about this package: no `prepare` to review, no EBADENGINE", async () => {
    expect(installWarnings).not.toMatch(/pulumi-webhook-subscriptions@[^\n]*prepare/);
    expect(installWarnings).not.toMatch(/EBADENGINE/);
    // Not only this Node: no installed package leaves out any version engines.node names.
    const supported = (JSON.parse(readFileSync(join(clone, "package.json"), "utf8")) as { engines: { node: string } })
      .engines.node;
    expect(packagesExcludingSupportedNode(join(user, "node_modules", ".package-lock.json"), supported)).toEqual([]);
    // The tarball's manifest has no `prepare`; the repository's keeps it (git installs build with it), untouched by the pack.
    const installed = join(user, "node_modules", "pulumi-webhook-subscriptions", "package.json");
    expect((JSON.parse(readFileSync(installed, "utf8")) as { scripts: Record<string, string> }).scripts.prepare).toBe(
      undefined,
    );
    expect((await run("git", ["status", "--porcelain"], clone)).stdout).toBe("");
    expect(readFileSync(join(clone, "package.json"), "utf8")).toContain('"prepare": "npm run build"');
  });

  it("resolves to the user's one copy of the Pulumi SDK", async () => {
    const { stdout } = await run("npm", ["ls", "@pulumi/pulumi", "--all", "--parseable"], user);
    expect(stdout.trim().split("\n")).toEqual([join(user, "node_modules", "@pulumi", "pulumi")]);
    const { stdout: version } = await run(
      "node",
      ["-p", 'require("@pulumi/pulumi/package.json").version'],
      join(user, "node_modules", "pulumi-webhook-subscriptions"),
    );
    expect(version.trim()).toBe(USER_SDK);
  });

  it("the receiver entry loads no @pulumi/pulumi: only the package's own files and node built-ins", async () => {
    const script =
      'const r = require("pulumi-webhook-subscriptions/receiver");' +
      "console.log(JSON.stringify({ names: Object.keys(r), loaded: Object.keys(require.cache) }));";
    const { stdout } = await run("node", ["-e", script], user);
    const { names, loaded } = JSON.parse(stdout) as { names: string[]; loaded: string[] };
    expect(names).toEqual(expect.arrayContaining(["verifySignature", "assertSignature"]));
    expect(loaded.filter((path) => path.includes("@pulumi"))).toEqual([]);
    const own = join(user, "node_modules", "pulumi-webhook-subscriptions", "dist");
    expect(loaded.filter((path) => !path.startsWith(own))).toEqual([]);
  });

  it("`npx webhook-subscriptions emulator` serves", async () => {
    const child = spawn("npx", ["webhook-subscriptions", "emulator", "--port", "0"], {
      cwd: user,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    emulator = child;
    emulatorUrl = await new Promise<string>((resolve, reject) => {
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
    const response = await fetch(
      `${emulatorUrl}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`,
      {
        headers: { authorization: "Bearer dev-builder" },
      },
    );
    expect(response.status).toBe(200);
    env.WEBHOOKS_BASE_URL = emulatorUrl;
  });

  it.each(["ts", "js"] as const)("a %s program goes up, then comes back with no changes", async (language) => {
    const args = ["webhook-subscriptions", "up", "--cwd", join(user, `${language}-infra`), "--stack", "dev"];
    const first = await run("npx", args, user, env);
    expect(first.stdout).toMatch(/\+ 2 created/);
    const second = await run("npx", args, user, env);
    expect(second.stdout).toMatch(/2 unchanged/);
    expect(second.stdout).not.toMatch(/created|updated|deleted|replaced/);
  });

  it("`npx webhook-subscriptions drift` exits 0 in sync, then 2 after an out-of-band edit", async () => {
    // One project per instance: the JavaScript one goes, or the review would list its subscription as unmanaged.
    await run(
      "npx",
      ["webhook-subscriptions", "destroy", "--cwd", join(user, "js-infra"), "--stack", "dev"],
      user,
      env,
    );
    const args = [
      "webhook-subscriptions",
      "drift",
      "--stack",
      "dev",
      "--cwd",
      join(user, "ts-infra"),
      "--format",
      "json",
    ];
    const clean = await run("npx", args, user, env, 0);
    const report = JSON.parse(clean.stdout) as { status: string; managed: { guid: string }[] };
    expect(report.status).toBe("in-sync");
    const guid = report.managed[0]?.guid;
    expect(guid).toMatch(/^[0-9a-f-]{36}$/);

    // Someone changes the subscription outside Pulumi.
    const edit = await fetch(
      `${emulatorUrl}/configuration/WebHookSubscription/UpdateWebhookSubscription?api-version=3`,
      {
        method: "POST",
        headers: { authorization: "Bearer dev-builder", "content-type": "application/json" },
        body: JSON.stringify({
          GUID: guid,
          Webhook: 5,
          FilterObjectType: 4,
          SubscriberURL: "https://elsewhere.example.com/ts",
        }),
      },
    );
    expect(edit.status).toBe(200);
    const drifted = await run("npx", args, user, env, 2);
    expect((JSON.parse(drifted.stdout) as { status: string }).status).toBe("drift");
  });
});
