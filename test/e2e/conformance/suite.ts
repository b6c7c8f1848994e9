/**
 * Conformance across front doors (issue 23): every scenario of scenarios.ts against a front door
 * of frontDoors/, on the real engine through the language hosts, with plain `pulumi` commands.
 * One test file per door (so that doors run side by side), one project and one emulator per door;
 * the scenarios run one after another, each on a stack of its own; the plugin is the run's one
 * build (builds.ts). Each file prints its door's column of the scenario table at the end.
 */
import { afterAll, beforeAll, beforeEach, describe, it } from "vitest";
import { SharedBuilds } from "./builds";
import { openConformance, type Conformance } from "./context";
import type { FrontDoor } from "./frontDoor";
import { SCENARIOS, type Scenario } from "./scenarios";

/** The scenarios `door` runs: all, or the ones it names (each of which must exist). */
export function scenariosOf(door: FrontDoor): readonly Scenario[] {
  if (!door.scenarios) return SCENARIOS;
  const unknown = door.scenarios.filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
  if (unknown.length > 0) throw new Error(`${door.name} names scenarios that do not exist: ${unknown.join("; ")}`);
  return SCENARIOS.filter((scenario) => door.scenarios!.includes(scenario.name));
}

/** The conformance tests of one front door. */
export function conformanceSuite(door: FrontDoor): void {
  const outcomes = new Map<string, "pass" | "FAIL" | "not run (see the door)">();
  let builds: SharedBuilds;
  let c: Conformance;

  describe(door.name, () => {
    beforeAll(async () => {
      builds = new SharedBuilds();
      c = await openConformance(door, builds);
    });
    // Awaited: the worker may end once the hook returns, before an unawaited close removed the door's folder.
    afterAll(async () => {
      await c?.close();
      builds?.close();
      const lines = SCENARIOS.map(
        (scenario) => `| ${scenario.name} | ${outcomes.get(scenario.name) ?? "not run (see the door)"} |`,
      );
      console.log(`[conformance] ${door.name}\n| scenario | outcome |\n| --- | --- |\n${lines.join("\n")}`);
    });
    beforeEach(() => c.service.reset());

    it.each(scenariosOf(door))("$name", async (scenario) => {
      outcomes.set(scenario.name, "FAIL");
      await scenario.run(c);
      outcomes.set(scenario.name, "pass");
    });
  });
}
