import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command";
import { parseDriftArgs } from "../../cli/drift";

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
    });
    expect(parseDriftArgs(["--stack=dev"], {}, "/pkg")).toMatchObject({
      stackName: "dev",
      workDir: "/pkg",
      format: "md",
    });
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

  it("names what is wrong", () => {
    expect(() => parseDriftArgs([], {})).toThrow(UsageError);
    expect(() => parseDriftArgs([], {})).toThrow(/--stack is required/);
    expect(() => parseDriftArgs(["--stack", "dev", "--format", "xml"], {})).toThrow(
      '--format must be md or json, got: "xml"',
    );
    expect(() => parseDriftArgs(["--stack", "dev", "--verbose"], {})).toThrow(/--verbose/);
  });
});
