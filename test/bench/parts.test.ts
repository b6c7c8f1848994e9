import { describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command";
import { PARTS, selectedParts } from "../../bench/parts";

describe("the parts a bench run measures", () => {
  it("measures every part by default", () => {
    expect(selectedParts([])).toEqual(new Set(PARTS));
  });

  it("measures only the parts named, as a list or repeated", () => {
    expect(selectedParts(["--only", "native"])).toEqual(new Set(["native"]));
    // What the drift review's comparison with the program costs, measured alone.
    expect(selectedParts(["--only", "drift"])).toEqual(new Set(["drift"]));
    // The review of many sources against the tools' own runs (issue 50), alone or beside it.
    expect(selectedParts(["--only", "drift-sources"])).toEqual(new Set(["drift-sources"]));
    expect(selectedParts(["--only", "drift,drift-sources"])).toEqual(new Set(["drift", "drift-sources"]));
    // The loop of rate-limited ups in process (issue 44), which the test suite runs only a few times.
    expect(selectedParts(["--only", "ups"])).toEqual(new Set(["ups"]));
    expect(selectedParts(["--only=scale,native", "--only", "client"])).toEqual(new Set(["scale", "native", "client"]));
  });

  it("refuses an unknown part, naming it and the known ones", () => {
    expect(() => selectedParts(["--only", "nativ"])).toThrow(UsageError);
    expect(() => selectedParts(["--only", "nativ"])).toThrow(
      /--only: unknown part "nativ"; use one of fixed, scale, native/,
    );
  });

  it("answers --help", () => {
    expect(selectedParts(["--help"])).toBe("help");
  });
});
