/** `issue github` against the loopback GitHub stand-in: one drift issue per review's sources, opened, updated, closed. */
import { describe, expect, it } from "vitest";
import { buildReview, FAILED_SOURCES, FINDINGS, SOURCES } from "../drift/fixtures/review";
import { githubEnv, runCli, writeReview, DRIFT, MARKER, withStandIn } from "./standIn";

const drift = DRIFT;

describe("issue github", () => {
  const t = withStandIn();

  const issue = (review: Parameters<typeof writeReview>[2], ...flags: string[]) =>
    runCli(
      ["issue", "github", "--report", writeReview(t.dir, "review.json", review), ...flags],
      githubEnv(t.api, t.dir),
    );

  it("opens the issue on drift, leaves it when unchanged, updates it while drift lasts, closes it when clean", async () => {
    const opened = await issue(drift);
    expect(opened.stderr).toBe("");
    expect(opened.stdout).toMatch(/^issue github: opened the drift issue #\d+/);
    expect(t.api.issues).toHaveLength(1);
    const [made] = t.api.issues;
    expect(made!.labels).toEqual(["webhook-drift"]);
    expect(made!.title).toBe("Webhook subscription drift: dev, infra/team");
    expect(made!.body.startsWith(`${MARKER}\n## Drift review`)).toBe(true);

    t.api.calls.length = 0;
    const same = await issue({ ...drift, durationMs: 1 });
    expect(same.stdout).toContain("unchanged");
    expect(t.api.writes()).toEqual([]);

    const updated = await issue(buildReview(SOURCES, FINDINGS.slice(0, 1)));
    expect(updated.stdout).toContain(`updated the drift issue #${made!.number}`);
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual([
      `PATCH /repos/octo/infra/issues/${made!.number}`,
    ]);
    expect(t.api.issues).toHaveLength(1);

    const closed = await issue(buildReview(SOURCES, []));
    expect(closed.stdout).toContain(`closed the drift issue #${made!.number}: the review is clean`);
    expect(made!.state).toBe("closed");
    expect(made!.comments).toHaveLength(1);
    expect(made!.comments[0]).toContain("clean ([run](http://github.test/octo/infra/actions/runs/42))");

    t.api.calls.length = 0;
    const none = await issue(buildReview(SOURCES, []));
    expect(none.stdout).toContain("no drift, and no open drift issue labelled webhook-drift");
    expect(t.api.writes()).toEqual([]);

    // New drift after the close opens a new issue.
    await issue(drift);
    expect(t.api.issues.filter((i) => i.state === "open")).toHaveLength(1);
    expect(t.api.issues).toHaveLength(2);
  });

  it("finds its issue among many labelled ones, pull requests and other reviews' issues left alone; --label", async () => {
    t.api.pageSize = 30;
    for (let n = 1; n <= 100; n++)
      t.api.issues.push({
        number: n,
        title: `t${n}`,
        body: `other ${n}`,
        state: "open",
        labels: ["ops"],
        comments: [],
      });
    t.api.issues.push({
      number: 101,
      title: "pr",
      body: MARKER,
      state: "open",
      labels: ["ops"],
      pull_request: {},
      comments: [],
    });
    t.api.issues.push({
      number: 102,
      title: "ours",
      body: `${MARKER}\nold`,
      state: "open",
      labels: ["ops"],
      comments: [],
    });
    const run = await issue(drift, "--label", "ops");
    expect(run.stdout).toContain("updated the drift issue #102");
    expect(t.api.calls.filter((c) => c.method === "GET")).toHaveLength(4);
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual(["PATCH /repos/octo/infra/issues/102"]);
    expect(t.api.issues.find((i) => i.number === 101)!.body).toBe(MARKER);
  });

  it("a failed review leaves the issue as it is", async () => {
    await issue(drift);
    t.api.calls.length = 0;
    const failed = await issue(buildReview([...SOURCES, ...FAILED_SOURCES], []));
    expect(failed.code).toBe(0);
    expect(t.api.writes()).toEqual([]);
    // The failed review names more sources: its marker is its own, and there is no issue of it to leave.
    expect(failed.stdout).toContain("the review failed");
  });
});
