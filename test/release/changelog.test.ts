/**
 * CHANGELOG.md and what `npm version` does to it and to the files naming the version
 * (scripts/version.ts); the whole command runs in test/e2e/version.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { moveVersion, releaseChangelog, VERSIONED_FILES } from "../../scripts/version";
import { REPO_ROOT } from "../support/engine";

const read = (file: string) => readFileSync(join(REPO_ROOT, file), "utf8");
const VERSION = (JSON.parse(read("package.json")) as { version: string }).version;

describe("CHANGELOG.md", () => {
  const changelog = read("CHANGELOG.md");

  it("has Unreleased on top, then the package's version, each with its compare link", () => {
    const headings = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    expect(headings.slice(0, 2)).toEqual(["Unreleased", VERSION]);
    expect(changelog).toMatch(
      new RegExp(`^\\[Unreleased\\]: https://github\\.com/.*/compare/v${VERSION}\\.\\.\\.HEAD$`, "m"),
    );
    for (const version of headings.slice(1)) expect(changelog).toMatch(new RegExp(`^\\[${version}\\]: https://`, "m"));
  });

  it("gives each version one section per kind of change (a second `### Fixed` splits the release notes)", () => {
    for (const version of changelog.split(/^## /m).slice(1)) {
      const kinds = [...version.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
      expect(kinds, version.split("\n")[0]).toEqual([...new Set(kinds)]);
    }
  });

  it("names a breaking change as one", () => {
    expect(changelog).toMatch(/^- \*\*Breaking:\*\*/m);
  });
});

describe("npm version's changes", () => {
  it("releases the Unreleased section under the new version and moves the compare links", () => {
    const before = [
      "# Changelog",
      "",
      "## [Unreleased]",
      "",
      "- a change",
      "",
      "## [1.4.0] - 2026-11-24",
      "",
      "[Unreleased]: https://github.com/o/r/compare/v1.4.0...HEAD",
      "[1.4.0]: https://github.com/o/r/releases/tag/v1.4.0",
      "",
    ].join("\n");
    expect(releaseChangelog(before, "1.4.0", "1.5.0", "2026-12-01")).toBe(
      [
        "# Changelog",
        "",
        "## [Unreleased]",
        "",
        "## [1.5.0] - 2026-12-01",
        "",
        "- a change",
        "",
        "## [1.4.0] - 2026-11-24",
        "",
        "[Unreleased]: https://github.com/o/r/compare/v1.5.0...HEAD",
        "[1.5.0]: https://github.com/o/r/compare/v1.4.0...v1.5.0",
        "[1.4.0]: https://github.com/o/r/releases/tag/v1.4.0",
        "",
      ].join("\n"),
    );
  });

  it("refuses a changelog without Unreleased, or one that already has the version, saying which", () => {
    expect(() => releaseChangelog("# Changelog\n", "1.4.0", "1.5.0", "d")).toThrow(/no "## \[Unreleased\]" heading/);
    expect(() => releaseChangelog("## [Unreleased]\n\n## [1.5.0]\n", "1.4.0", "1.5.0", "d")).toThrow(
      /already has a "## \[1.5.0\]" section/,
    );
  });

  it("moves the version where it is one, not other numbers that contain it", () => {
    expect(
      moveVersion(
        "webhooks 1.4.0 -f x-v1.4.0.tgz pulumi_webhooks-1.4.0-py3 v1.4.0\n11.4.0 1.4.01 1.4.0.1",
        "1.4.0",
        "1.2.3",
      ),
    ).toBe("webhooks 1.2.3 -f x-v1.2.3.tgz pulumi_webhooks-1.2.3-py3 v1.2.3\n11.4.0 1.4.01 1.4.0.1");
  });

  it("every file it moves names the package's version today", () => {
    for (const file of VERSIONED_FILES) expect(read(file), file).toContain(VERSION);
  });
});
