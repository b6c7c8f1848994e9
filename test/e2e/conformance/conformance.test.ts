/**
 * Conformance across front doors (issue 23): every scenario of scenarios.ts against every front
 * door of frontDoors/, on the real engine through the language hosts, with plain `pulumi`
 * commands. One project, one emulator per door; the scenarios run one after another, each on a
 * stack of its own; what doors share (the native plugin) is built once. The closing table
 * (scenario × front door) is printed at the end.
 */
import { afterAll, beforeAll, beforeEach, describe, it } from "vitest";
import { SharedBuilds } from "./builds";
import { openConformance, type Conformance } from "./context";
import { FRONT_DOORS } from "./frontDoors";
import { SCENARIOS } from "./scenarios";

/** Outcome by scenario, then by front door. */
const table = new Map<string, Map<string, "pass" | "FAIL">>();

let builds: SharedBuilds;
beforeAll(() => {
  builds = new SharedBuilds();
});
afterAll(() => builds?.close());

describe.each(FRONT_DOORS)("$name", (door) => {
  let c: Conformance;
  beforeAll(async () => {
    c = await openConformance(door, builds);
  });
  afterAll(() => c?.close());
  beforeEach(() => c.service.reset());

  it.each(SCENARIOS)("$name", async (scenario) => {
    const row = table.get(scenario.name) ?? new Map<string, "pass" | "FAIL">();
    table.set(scenario.name, row.set(door.name, "FAIL"));
    await scenario.run(c);
    row.set(door.name, "pass");
  });
});

afterAll(() => {
  const doors = FRONT_DOORS.map((door) => door.name);
  const lines = [`| scenario | ${doors.join(" | ")} |`, `| --- |${doors.map(() => " --- |").join("")}`];
  for (const [scenario, row] of table)
    lines.push(`| ${scenario} | ${doors.map((door) => row.get(door) ?? "not run").join(" | ")} |`);
  console.log(`[conformance]\n${lines.join("\n")}`);
});
