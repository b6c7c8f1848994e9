/** `comment gitlab` against the loopback GitLab stand-in: one note per review on the merge request, found on any page. */
import { describe, expect, it } from "vitest";
import { buildReview, SOURCES } from "../drift/fixtures/review";
import { gitlabEnv, runCli, TOKEN, writeReview, DRIFT, MARKER, withStandIn } from "./standIn";

const drift = DRIFT;
const NOTES = "/api/v4/projects/group%2Fproject/merge_requests/5/notes";

describe("comment gitlab", () => {
  const t = withStandIn();

  const comment = (review: Parameters<typeof writeReview>[2]) =>
    runCli(["comment", "gitlab", "--report", writeReview(t.dir, "review.json", review)], gitlabEnv(t.api));

  it("after two runs on the same merge request there is one note, untouched the second time; a change edits it", async () => {
    const first = await comment(drift);
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("posted the review's comment on merge request !5");
    expect(t.api.notes.get(5)).toHaveLength(1);
    expect(t.api.notes.get(5)![0]!.body.startsWith(MARKER)).toBe(true);

    t.api.calls.length = 0;
    expect((await comment({ ...drift, durationMs: 12 })).stdout).toContain("left unchanged");
    expect(t.api.writes()).toEqual([]);

    await comment(buildReview(SOURCES, []));
    const id = t.api.notes.get(5)![0]!.id;
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${NOTES}/${id}`]);
    expect(t.api.notes.get(5)).toHaveLength(1);
    for (const call of t.api.calls) expect(call.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("finds the marker among 120 notes, several pages in, following x-next-page; system notes are never ours", async () => {
    t.api.pageSize = 40;
    const notes = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: `note ${i + 1}` }));
    notes[0] = { id: 1, body: `${MARKER} (a system note quoting it)`, system: true } as never;
    notes[100] = { id: 101, body: `${MARKER}\nold` };
    t.api.notes.set(5, notes);
    const run = await comment(drift);
    expect(run.code).toBe(0);
    expect(
      t.api.calls.filter((c) => c.method === "GET").map((c) => new URL(c.url, t.api.url).searchParams.get("page")),
    ).toEqual(["1", "2", "3"]);
    expect(t.api.writes().map((c) => `${c.method} ${c.url}`)).toEqual([`PUT ${NOTES}/101`]);
  });
});
