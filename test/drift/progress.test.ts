import { describe, expect, it } from "vitest";
import { refreshProgressReporter } from "../../drift/sources/pulumi/progress";

describe("refreshProgressReporter", () => {
  it("reports about every tenth and the end, not every resource", () => {
    const lines: string[] = [];
    const report = refreshProgressReporter(200, (line) => lines.push(line));
    for (let finished = 1; finished <= 200; finished++) report({ started: 200, finished });
    expect(lines).toHaveLength(10);
    expect(lines.at(-1)).toBe("refreshed 200/200 managed subscriptions");
  });

  it("reports each of a few resources", () => {
    const lines: string[] = [];
    const report = refreshProgressReporter(3, (line) => lines.push(line));
    for (const finished of [0, 1, 1, 2, 3]) report({ started: 3, finished });
    expect(lines).toEqual([
      "refreshed 1/3 managed subscriptions",
      "refreshed 2/3 managed subscriptions",
      "refreshed 3/3 managed subscriptions",
    ]);
  });

  it("counts one in the singular", () => {
    const lines: string[] = [];
    refreshProgressReporter(1, (line) => lines.push(line))({ started: 1, finished: 1 });
    expect(lines).toEqual(["refreshed 1/1 managed subscription"]);
  });
});
