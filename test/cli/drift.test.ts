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
      workDir: "/home/me/repo/examples/app",
      format: "json",
    });
    expect(parseDriftArgs(["--stack=dev"], {}, "/pkg")).toEqual({ stackName: "dev", workDir: "/pkg", format: "md" });
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
