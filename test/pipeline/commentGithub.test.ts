/** `comment github` against the loopback GitHub stand-in: one comment per review, edited in place, found on any page. */
import { describe, expect, it } from "vitest";
import { buildReview, FINDINGS, SOURCES } from "../drift/fixtures/review";
import { githubEnv, runCli, TOKEN, writeReview, DRIFT, MARKER, withStandIn } from "./standIn";

const drift = DRIFT;

describe("comment github", () => {
  const t = withStandIn();

  const comment = (report: string, ...flags: string[]) =>
    runCli(["comment", "github", "--report", report, ...flags], githubEnv(t.api, t.dir));

  it("after two runs on the same pull request there is one comment, left alone the second time; a changed review edits it", async () => {
    const report = writeReview(t.dir, "review.json", drift);
    const first = await comment(report);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/posted the review's comment on pull request #7/);
    expect(t.api.comments.get(7)).toHaveLength(1);
    expect(t.api.comments.get(7)![0]!.body.startsWith(`${MARKER}\n## Drift review`)).toBe(true);

    t.api.calls.length = 0;
    // The same review, run again later: only its duration differs.
    const again = await comment(writeReview(t.dir, "again.json", { ...drift, durationMs: 9_999 }));
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("left unchanged");
    expect(t.api.writes()).toEqual([]);

    const changed = await comment(writeReview(t.dir, "changed.json", buildReview(SOURCES, FINDINGS.slice(0, 2))));
    expect(changed.code).toBe(0);
    expect(changed.stdout).toContain("edited the review's comment");
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual([
      `PATCH /repos/octo/infra/issues/comments/${t.api.comments.get(7)![0]!.id}`,
    ]);
    expect(t.api.comments.get(7)).toHaveLength(1);
  });

  it("finds the marker among 120 comments, several pages in, following Link: rel=next", async () => {
    t.api.pageSize = 25;
    const others = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `a comment ${i + 1}` }));
    others[109] = { id: 110, body: `${MARKER}\nan older review` };
    t.api.comments.set(7, others);
    const run = await comment(writeReview(t.dir, "review.json", drift));
    expect(run.code).toBe(0);
    const gets = t.api.calls.filter((c) => c.method === "GET").map((c) => c.url);
    expect(gets).toHaveLength(5);
    expect(gets[4]).toContain("page=5");
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual(["PATCH /repos/octo/infra/issues/comments/110"]);
    expect(t.api.comments.get(7)).toHaveLength(120);
  });

  it("keeps one comment per review's sources: another review's comment is left alone", async () => {
    await comment(writeReview(t.dir, "a.json", drift));
    await comment(writeReview(t.dir, "b.json", buildReview(SOURCES.slice(0, 1), [])));
    expect(t.api.comments.get(7)).toHaveLength(2);
  });

  it("--behavior new posts a new comment every run", async () => {
    const report = writeReview(t.dir, "review.json", drift);
    await comment(report, "--behavior", "new");
    await comment(report, "--behavior", "new");
    expect(t.api.comments.get(7)).toHaveLength(2);
  });

  it("sends the token in the Authorization header only, and takes the number from an issue_comment event", async () => {
    const env = {
      ...githubEnv(t.api, t.dir),
      GITHUB_EVENT_PATH: writeReview(t.dir, "event.json", { issue: { number: 7, pull_request: {} } } as never),
    };
    const run = await runCli(["comment", "github", "--report", writeReview(t.dir, "r.json", drift)], env);
    expect(run.code).toBe(0);
    expect(t.api.calls.length).toBeGreaterThan(0);
    for (const call of t.api.calls) {
      expect(call.authorization).toBe(`Bearer ${TOKEN}`);
      expect(call.url).not.toContain(TOKEN);
      expect(JSON.stringify(call.body ?? "")).not.toContain(TOKEN);
    }
  });

  it("a refused request names the operation, the status, the API's message and what to check", async () => {
    t.api.fail = { status: 403, message: "Resource not accessible by integration" };
    const run = await comment(writeReview(t.dir, "review.json", drift));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("comment: list the comments of pull request #7: the API answered 403");
    expect(run.stderr).toContain("Resource not accessible by integration");
    expect(run.stderr).toContain("check that GITHUB_REPOSITORY (octo/infra) and pull request #7 exist");
  });

  it("a bad token is a 401 that points at the variable, never at its value", async () => {
    const run = await runCli(["comment", "github", "--report", writeReview(t.dir, "r.json", drift)], {
      ...githubEnv(t.api, t.dir),
      GITHUB_TOKEN: "ghp_wrongSecretValue",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("401: Bad credentials; check that GITHUB_TOKEN holds a valid");
    expect(run.stderr + run.stdout).not.toContain("ghp_wrongSecretValue");
  });
});
