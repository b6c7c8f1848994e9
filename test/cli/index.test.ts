/** The bin as users run it (`webhook-subscriptions`, from dist/ through the self-dependency): overview, version, usage errors. */
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { runCli } from "../pipeline/standIn";

const BIN = require.resolve("pulumi-webhook-subscriptions/package.json").replace(/package\.json$/, "dist/cli/index.js");

function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe("webhook-subscriptions", () => {
  it("--help lists every subcommand; --version prints the package's version", async () => {
    const help = await bin(["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["drift", "emulator", "engine", "preview", "up", "refresh", "destroy"])
      expect(help.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    const version = await bin(["--version"]);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the manifest the bin reads
    expect(version.stdout.trim()).toBe(require("pulumi-webhook-subscriptions/package.json").version);
  });

  // Loading the drift review and the runner means loading the Pulumi SDK: seconds each on a busy machine.
  it("each subcommand has --help", { timeout: 120_000 }, async () => {
    const names = ["drift", "emulator", "engine", "preview", "up", "refresh", "destroy"];
    const results = await Promise.all(names.map((name) => bin([name, "--help"])));
    names.forEach((name, index) => {
      expect(results[index]?.code, name).toBe(0);
      expect(results[index]?.stdout, name).toContain(`usage: webhook-subscriptions ${name}`);
    });
  });

  it(
    "refuses an unknown command, a missing --stack and an unknown flag with exit 1 and the usage",
    { timeout: 120_000 },
    async () => {
      const unknown = await bin(["deploy"]);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('unknown command "deploy"');
      const noStack = await bin(["up", "--cwd", "."]);
      expect(noStack.code).toBe(1);
      expect(noStack.stderr).toContain("up: --stack is required: name the stack to up.");
      const badFlag = await bin(["destroy", "--stack", "dev", "--yes"]);
      expect(badFlag.code).toBe(1);
      expect(badFlag.stderr).toContain("Unknown option '--yes'");
      expect(badFlag.stderr).toContain("usage: webhook-subscriptions destroy");
    },
  );
});

describe("main, in-process: the pipeline commands", () => {
  it("lists comment and issue, and gives each its usage with --help", async () => {
    const overview = await runCli(["--help"]);
    expect(overview.stdout).toMatch(/^ {2}comment /m);
    expect(overview.stdout).toMatch(/^ {2}issue /m);
    for (const [argv, usage] of [
      [["comment", "--help"], "usage: webhook-subscriptions comment github|gitlab [--report <review.json>]"],
      [["comment", "github", "--help"], "usage: webhook-subscriptions comment github|gitlab"],
      [["issue", "--help"], "usage: webhook-subscriptions issue github [--report <review.json>] [--label <name>]"],
      [["issue", "github", "-h"], "usage: webhook-subscriptions issue github"],
    ] as const) {
      const run = await runCli(argv);
      expect(run.code, argv.join(" ")).toBe(0);
      expect(run.stdout.startsWith(usage), argv.join(" ")).toBe(true);
      expect(run.stderr).toBe("");
    }
  });
});
