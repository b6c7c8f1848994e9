import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command";
import { driftCommand, failedReview, formatReports, parseDriftArgs, worstExitCode } from "../../cli/drift";
import { errorReport } from "../../drift";

describe("parseDriftArgs", () => {
  it("reads the stack, directory and format; relative directories are from where npm was started", () => {
    expect(
      parseDriftArgs(
        ["--stack", "dev", "--cwd", "examples/app", "--format", "json"],
        { INIT_CWD: "/home/me/repo" },
        "/pkg",
      ),
    ).toEqual({
      stackName: "dev",
      otherStacks: [],
      ignore: [],
      workDir: "/home/me/repo/examples/app",
      format: "json",
      stateOnly: false,
      terraformStates: [],
    });
    expect(parseDriftArgs(["--stack=dev"], {}, "/pkg")).toMatchObject({
      stackName: "dev",
      workDir: "/pkg",
      format: "md",
    });
  });

  it("compares with the program by default; --state-only keeps the state-only review, and its report says so", () => {
    expect(parseDriftArgs(["--stack", "dev", "--state-only"], {}, "/p")).toMatchObject({ stateOnly: true });
    expect(driftCommand.usage).toContain("--state-only");
    const error = { code: "ENGINE", message: "no engine" };
    const stateOnly = failedReview("a", ["a"], { ignore: [], stateOnly: true }, Date.now(), error);
    expect(stateOnly.comparison).toBe("state");
    // Its footer runs the same review again, state-only too.
    expect(formatReports([stateOnly], "md")).toContain("npx webhook-subscriptions drift --stack a --state-only");
    expect(failedReview("a", ["a"], { ignore: [], stateOnly: false }, Date.now(), error).comparison).toBe(
      "state-and-program",
    );
  });

  it("reads each --terraform-state from where npm was started; a file it cannot read is a usage error naming it", () => {
    const fixtures = join(__dirname, "..", "drift", "fixtures");
    const args = parseDriftArgs(
      ["--stack", "dev", "--terraform-state", "terraform.tfstate", "--terraform-state", "tofu-show.json"],
      { INIT_CWD: fixtures },
      "/pkg",
    );
    expect(args).not.toBe("help");
    const states = (args as Exclude<typeof args, "help">).terraformStates;
    expect(states.map((s) => [s.file, s.subscriptions.length])).toEqual([
      ["terraform.tfstate", 3],
      ["tofu-show.json", 3],
    ]);
    expect(driftCommand.usage).toContain("--terraform-state");
    expect(() =>
      parseDriftArgs(["--stack", "dev", "--terraform-state", "nope.tfstate"], { INIT_CWD: fixtures }),
    ).toThrow(/--terraform-state nope\.tfstate: cannot read it \(ENOENT\)/);
  });

  it("takes several stacks and an ignore list of GUIDs and URL prefixes", () => {
    const guid = "6F1C2A3B-5D4E-4F60-8A7B-9C0D1E2F3A4B";
    expect(
      parseDriftArgs(
        ["--stack", "a", "--stack", "b", "--ignore", guid, "--ignore", "https://legacy.example.com/"],
        {},
        "/p",
      ),
    ).toMatchObject({ stackName: "a", otherStacks: ["b"], ignore: [guid, "https://legacy.example.com/"] });
    expect(() => parseDriftArgs(["--stack", "a", "--ignore", "legacy"], {})).toThrow(
      /--ignore must be a subscription GUID or a subscriber-URL prefix .*got: "legacy"/,
    );
  });

  it("keeps the stacks and rules in command-line order, in both flag spellings", () => {
    expect(
      parseDriftArgs(["--stack=c", "--ignore=https://a.example.com/", "--stack", "a", "--stack=b"], {}, "/p"),
    ).toMatchObject({ stackName: "c", otherStacks: ["a", "b"], ignore: ["https://a.example.com/"] });
  });

  it("refuses each bad --ignore rule by its value, even after good ones", () => {
    const good = ["--stack", "a", "--ignore", "https://ok.example.com/"];
    for (const bad of ["ftp://files.example.com/", "hooks.example.com/legacy", "https://", "6f1c2a3b-5d4e", ""])
      expect(() => parseDriftArgs([...good, "--ignore", bad], {})).toThrow(
        `--ignore must be a subscription GUID or a subscriber-URL prefix such as "https://hooks.example.com/legacy/", got: ${JSON.stringify(bad)}.`,
      );
    expect(() => parseDriftArgs(["--stack", "a", "--ignore"], {})).toThrow(/--ignore/);
  });

  it("refuses a stack named twice", () => {
    expect(() => parseDriftArgs(["--stack", "a", "--stack", "b", "--stack", "a"], {})).toThrow(
      '--stack "a" is given twice: name each stack once.',
    );
    expect(() => parseDriftArgs(["--stack", "a", "--stack", "b", "--stack", "b"], {})).toThrow(/"b" is given twice/);
  });

  it("documents both repeatable flags in --help", () => {
    expect(parseDriftArgs(["--stack", "a", "--help"], {})).toBe("help");
    expect(driftCommand.usage).toContain("[--stack <other> …] [--ignore <guid|url-prefix> …]");
    expect(driftCommand.usage).toMatch(/--ignore +a subscription GUID or subscriber-URL prefix/);
  });

  it("names what is wrong", () => {
    expect(() => parseDriftArgs([], {})).toThrow(UsageError);
    expect(() => parseDriftArgs([], {})).toThrow(/--stack is required/);
    expect(() => parseDriftArgs(["--stack", "dev", "--format", "xml"], {})).toThrow(
      '--format must be md or json, got: "xml"',
    );
    expect(() => parseDriftArgs(["--stack", "dev", "--verbose"], {})).toThrow(/--verbose/);
  });
});

describe("several stacks", () => {
  const report = (stack: string) =>
    errorReport(
      { stack, backend: null, instance: null, comparison: "state-and-program", startedAt: 0 },
      { code: "STACK_NOT_FOUND", message: `no stack ${stack}` },
    );

  it("exits with the worst code: error outranks drift, drift outranks no drift", () => {
    const code = (...codes: Array<0 | 1 | 2>) => worstExitCode(codes.map((exitCode) => ({ exitCode })));
    expect(code(0)).toBe(0);
    expect(code(0, 2, 0)).toBe(2);
    expect(code(2, 1)).toBe(1);
    expect(code(1, 0, 2)).toBe(1);
  });

  it("prints one JSON report as an object, several as an array, and markdown one section per stack", () => {
    expect(JSON.parse(formatReports([report("a")], "json"))).toMatchObject({ stack: "a" });
    const many = JSON.parse(formatReports([report("a"), report("b")], "json")) as Array<{ stack: string }>;
    expect(many.map((r) => r.stack)).toEqual(["a", "b"]);
    const md = formatReports([report("a"), report("b")], "md").split("\n---\n");
    expect(md).toHaveLength(2);
    expect(md[0]).toContain("`a`");
    expect(md[1]).toContain("`b`");
  });

  it("an error report's footer runs the same review again: the other stacks and the --ignore rules kept", () => {
    const error = { code: "STACK_NOT_FOUND", message: "no stack dve" };
    const md = formatReports(
      [failedReview("a", ["a", "b"], { ignore: ["https://legacy.example.com/"], stateOnly: false }, Date.now(), error)],
      "md",
    );
    expect(md).toContain("npx webhook-subscriptions drift --stack a --stack b --ignore https://legacy.example.com/");
  });
});
