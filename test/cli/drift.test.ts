import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { UsageError } from "../../cli/command";
import { checkDriftArgs, driftCommand, parseDriftArgs, reviewCommandLine } from "../../cli/drift";
import { main } from "../../cli/index";
import { npxFindsPackage } from "../../cli/invocation";
import { parseReview } from "../support/reviewJson";
import { tempDirs } from "../support/tempDirs";

/** Removed once this file's tests have run. */
const tempDir = tempDirs();

const fixtures = join(__dirname, "..", "drift", "fixtures");

/** The parsed arguments, narrowed from "help". */
function parsed(argv: string[], env: NodeJS.ProcessEnv = {}, cwd = "/p") {
  const args = parseDriftArgs(argv, env, cwd);
  if (args === "help") throw new Error("help");
  return args;
}

describe("parseDriftArgs", () => {
  it("reads the stacks, directory and format; relative directories are from where npm was started", () => {
    expect(
      parsed(["--stack", "dev", "--cwd", "examples/app", "--format", "json"], { INIT_CWD: "/home/me/repo" }, "/pkg"),
    ).toMatchObject({
      stacks: ["dev"],
      ignore: [],
      workDir: "/home/me/repo/examples/app",
      format: "json",
      stateOnly: false,
      terraformStates: [],
      stateFiles: [],
      terraform: [],
      reportFiles: [],
      cwd: "/home/me/repo",
    });
    expect(parsed(["--stack=dev"], {}, "/pkg")).toMatchObject({ stacks: ["dev"], workDir: "/pkg", format: "md" });
  });

  it("keeps the flags that choose the review, as given, for the command that runs it again: not --format nor --report", () => {
    const argv = [
      "--terraform-state",
      "terraform.tfstate",
      "--format",
      "json",
      "--report=out/r.sarif",
      "--cwd=-odd",
      "--ignore",
      "https://x.example.com/",
      "--state-only",
    ];
    expect(parsed(argv, { INIT_CWD: fixtures }).reviewFlags).toEqual([
      "--terraform-state",
      "terraform.tfstate",
      // A value that starts with "-" stays joined to its flag, or it would read as one.
      "--cwd=-odd",
      "--ignore",
      "https://x.example.com/",
      "--state-only",
    ]);
  });

  it("compares with the program by default; --state-only keeps the state-only review, and its command runs it so again", () => {
    expect(parsed(["--stack", "dev", "--state-only"])).toMatchObject({ stateOnly: true });
    expect(parsed(["--stack", "dev"])).toMatchObject({ stateOnly: false });
    expect(driftCommand.usage).toContain("--state-only");
    const args = parsed(["--stack", "a", "--state-only"]);
    expect(reviewCommandLine("package", args.reviewFlags)).toBe(
      "npx webhook-subscriptions drift --stack a --state-only",
    );
  });

  it("parses and checks without reading anything: a missing file is refused only when it is loaded", () => {
    const request = checkDriftArgs(["--stack", "a", "--baseline", "missing.json", "--terraform", "nowhere"]);
    expect(request).toMatchObject({ stacks: ["a"], baselineFile: "missing.json", terraform: ["nowhere"] });
    expect(() => parseDriftArgs(["--stack", "a", "--baseline", "missing.json"], {}, "/p")).toThrow(
      /--baseline missing\.json: cannot read it/,
    );
  });

  it("--sarif-category says how the SARIF is written, not what is reviewed: the command printed to run it again leaves it out", () => {
    const request = checkDriftArgs(["--stack", "a", "--sarif-category", "drift/{sources}"]);
    expect(request).toMatchObject({ sarifCategory: "drift/{sources}", reviewFlags: ["--stack", "a"] });
  });

  it("a --terraform-state alone is a review; each file is read from where npm was started, before any instance", () => {
    const args = parsed(
      ["--terraform-state", "terraform.tfstate", "--terraform-state", "tofu-show.json"],
      { INIT_CWD: fixtures },
      "/pkg",
    );
    expect(args.stacks).toEqual([]);
    expect(args.stateFiles.map((s) => [s.report.source.name, s.claims.length])).toEqual([
      ["terraform.tfstate", 3],
      ["tofu-show.json", 3],
    ]);
    expect(() => parseDriftArgs(["--terraform-state", "nope.tfstate"], { INIT_CWD: fixtures })).toThrow(
      /--terraform-state nope\.tfstate: cannot read it \(ENOENT\)/,
    );
  });

  it("a --terraform directory that is missing or not initialised is bad input naming the flag and what to do", () => {
    const dir = tempDir("drift-args-");
    expect(() => parseDriftArgs(["--terraform", "missing"], { INIT_CWD: dir })).toThrow(/--terraform missing: /);
    writeFileSync(join(dir, "main.tf"), "");
    expect(() => parseDriftArgs(["--terraform", "."], { INIT_CWD: dir })).toThrow(/--terraform \.: .*init/);
  });

  it("takes several stacks and an ignore list of GUIDs and URL prefixes, in command-line order", () => {
    const guid = "6F1C2A3B-5D4E-4F60-8A7B-9C0D1E2F3A4B";
    expect(
      parsed(["--stack=c", "--ignore", guid, "--stack", "a", "--ignore=https://legacy.example.com/", "--stack=b"]),
    ).toMatchObject({ stacks: ["c", "a", "b"], ignore: [guid, "https://legacy.example.com/"] });
  });

  it("refuses each bad --ignore rule by its value, even after good ones", () => {
    const good = ["--stack", "a", "--ignore", "https://ok.example.com/"];
    for (const bad of ["ftp://files.example.com/", "hooks.example.com/legacy", "https://", "6f1c2a3b-5d4e", ""])
      expect(() => parseDriftArgs([...good, "--ignore", bad], {})).toThrow(
        `--ignore must be a subscription GUID or a subscriber-URL prefix such as "https://hooks.example.com/legacy/", got: ${JSON.stringify(bad)}.`,
      );
    expect(() => parseDriftArgs(["--stack", "a", "--ignore"], {})).toThrow(/--ignore/);
  });

  it("refuses a source named twice", () => {
    expect(() => parseDriftArgs(["--stack", "a", "--stack", "b", "--stack", "a"], {})).toThrow(
      '--stack "a" is given twice: name each source once.',
    );
    expect(() =>
      parseDriftArgs(["--terraform-state", "terraform.tfstate", "--terraform-state", "terraform.tfstate"], {
        INIT_CWD: fixtures,
      }),
    ).toThrow(/--terraform-state "terraform.tfstate" is given twice/);
  });

  it("--merge takes partial reviews' JSON reports instead of sources: refused with a source flag, a missing part named", async () => {
    const dir = tempDir("drift-merge-");
    /** A partial review of one state file claiming `guid`, on the instance at https://hooks.example.com. */
    const part = (file: string, name: string, guid: string) => {
      const source = { kind: "terraform-state", name, file: name };
      const review = {
        version: 3,
        status: "in-sync",
        exitCode: 0,
        generatedAt: "2026-11-27T10:00:00.000Z",
        durationMs: 5,
        sources: [
          {
            source,
            status: "reviewed",
            compared: ["state"],
            instances: [{ baseUrl: "https://hooks.example.com", apiVersion: "3" }],
            subscriptions: [
              {
                address: "webhooks_subscription.a",
                name: "webhooks_subscription.a",
                guid,
                location: { file: name },
                findings: [],
              },
            ],
          },
        ],
        instances: [{ baseUrl: "https://hooks.example.com", apiVersion: "3" }],
        findings: [],
        summary: {},
        ignored: { suppressed: [], expired: [], stale: [] },
        notes: [],
      };
      writeFileSync(join(dir, file), JSON.stringify(review));
    };
    const guid = "00000000-0000-4000-8000-000000000001";
    part("a.json", "a.tfstate", guid);
    part("b.json", "b.tfstate", guid);
    const args = parsed(["--merge", "a.json", "--merge", "b.json", "--format", "json"], { INIT_CWD: dir });
    expect(args.parts.map((p) => p.file)).toEqual(["a.json", "b.json"]);
    expect(args.reviewFlags).toEqual(["--merge", "a.json", "--merge", "b.json"]);

    // Refused with any flag that reviews sources, naming both.
    for (const flag of [
      ["--stack", "dev"],
      ["--terraform-state", "x.tfstate"],
      ["--state-only"],
      ["--policy", "p.json"],
    ])
      expect(() => checkDriftArgs(["--merge", "a.json", ...flag])).toThrow(
        `--merge and ${flag[0]} cannot be given together: --merge reviews no source`,
      );
    expect(() => checkDriftArgs(["--merge", "a.json", "--merge", "a.json"])).toThrow(
      '--merge "a.json" is given twice: name each part once.',
    );
    // Parsed and checked without reading: the missing part is named when it is loaded.
    expect(checkDriftArgs(["--merge", "gone.json"])).toMatchObject({ merges: ["gone.json"] });
    expect(() => parseDriftArgs(["--merge", "a.json", "--merge", "gone.json"], { INIT_CWD: dir })).toThrow(
      /^--merge gone\.json: cannot read it \(ENOENT\)\. Give the JSON report \(version 3\)/,
    );

    // Run: the two parts' one GUID is co-owned across them, and the merge exits 2.
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const initCwd = process.env.INIT_CWD;
    process.env.INIT_CWD = dir;
    try {
      expect(await driftCommand.run(["--merge", "a.json", "--merge", "b.json", "--format", "json"])).toBe(2);
      const review = parseReview(out.mock.calls.map((c) => String(c[0])).join(""));
      expect(review.findings.map((f) => [f.class, f.guid, f.owners?.map((o) => o.source.name)])).toEqual([
        ["co-owned", guid, ["a.tfstate", "b.tfstate"]],
      ]);
      expect(review.sources.map((s) => s.subscriptions[0]!.findings)).toEqual([
        [review.findings[0]!.fingerprint],
        [review.findings[0]!.fingerprint],
      ]);
    } finally {
      out.mockRestore();
      err.mockRestore();
      if (initCwd === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = initCwd;
    }
  });

  it("takes a format on stdout and report files whose extension names theirs", () => {
    const args = parsed(["--stack", "a", "--format", "sarif", "--report", "out/r.xml", "--report", "r.HTML"]);
    expect(args.format).toBe("sarif");
    expect(args.reportFiles).toEqual([
      { file: "out/r.xml", path: "/p/out/r.xml", format: "junit" },
      { file: "r.HTML", path: "/p/r.HTML", format: "html" },
    ]);
    expect(() => parseDriftArgs(["--stack", "a", "--report", "r.txt"], {})).toThrow(
      '--report r.txt: the format comes from the extension, one of .md .json .sarif .xml .html .codequality.json (.xml is JUnit), got: ".txt".',
    );
  });

  it("a --report x.codequality.json is GitLab Code Quality by its longest suffix; x.json stays the JSON review", () => {
    const args = parsed([
      "--stack",
      "a",
      "--report",
      "x.codequality.json",
      "--report",
      "x.json",
      "--report",
      "Q.CodeQuality.JSON",
    ]);
    expect(args.reportFiles.map((r) => [r.file, r.format])).toEqual([
      ["x.codequality.json", "codequality"],
      ["x.json", "json"],
      ["Q.CodeQuality.JSON", "codequality"],
    ]);
    expect(parsed(["--stack", "a", "--format", "codequality"]).format).toBe("codequality");
    // A name that is only an extension has none, as before.
    expect(() => parseDriftArgs(["--stack", "a", "--report", "out/.json"], {})).toThrow(
      /--report out\/\.json: the format/,
    );
  });

  it("reads --ignore-file and --baseline before anything else, naming the flag, the file and the field", () => {
    const dir = tempDir("drift-args-");
    writeFileSync(
      join(dir, "ignore.json"),
      JSON.stringify([{ match: "https://old.example.com/", reason: "r", owner: "o" }]),
    );
    writeFileSync(join(dir, "bad.json"), JSON.stringify([{ match: "https://old.example.com/", reason: "r" }]));
    writeFileSync(join(dir, "old.json"), JSON.stringify({ version: 1, stack: "a" }));
    expect(parsed(["--stack", "a", "--ignore-file", "ignore.json"], { INIT_CWD: dir }).ignoreEntries).toEqual([
      { match: "https://old.example.com/", reason: "r", owner: "o" },
    ]);
    expect(() => parseDriftArgs(["--stack", "a", "--ignore-file", "bad.json"], { INIT_CWD: dir })).toThrow(
      '--ignore-file bad.json: entry 1: "owner" is required',
    );
    expect(() => parseDriftArgs(["--stack", "a", "--baseline", "old.json"], { INIT_CWD: dir })).toThrow(
      "--baseline old.json: not a review report of version 2 or 3 (it has version 1)",
    );
  });

  it("documents every flag in --help", () => {
    expect(parseDriftArgs(["--stack", "a", "--help"], {})).toBe("help");
    expect(driftCommand.usage).toContain("--format md|json|sarif|junit|html|codequality");
    expect(driftCommand.usage).toContain(".md .json .sarif .xml .html .codequality.json (.xml is JUnit)");
    for (const flag of [
      "--terraform ",
      "--terraform-state",
      "--terraform-cli",
      "--report",
      "--baseline",
      "--ignore-file",
    ])
      expect(driftCommand.usage).toContain(flag);
    expect(driftCommand.usage).toMatch(/--ignore +a GUID or subscriber-URL prefix/);
  });

  it("names what is wrong", () => {
    expect(() => parseDriftArgs([], {})).toThrow(UsageError);
    expect(() => parseDriftArgs([], {})).toThrow(/Name at least one source: --stack <name>/);
    expect(() => parseDriftArgs(["--stack", "dev", "--format", "xml"], {})).toThrow(
      '--format must be one of md, json, sarif, junit, html, codequality, got: "xml"',
    );
    expect(() => parseDriftArgs(["--stack", "dev", "--verbose"], {})).toThrow(/--verbose/);
  });

  it("a review that failed closes with the command that runs the same review again: every source and rule kept", () => {
    const args = parsed(
      [
        "--stack",
        "a",
        "--stack",
        "b",
        "--ignore",
        "https://legacy.example.com/",
        "--terraform-state",
        "terraform.tfstate",
      ],
      { INIT_CWD: fixtures },
    );
    expect(reviewCommandLine("package", args.reviewFlags)).toBe(
      "npx webhook-subscriptions drift --stack a --stack b --ignore https://legacy.example.com/ --terraform-state terraform.tfstate",
    );
    // Each source with its own flag: a directory as --terraform, a state file as --terraform-state.
    const request = checkDriftArgs(["--terraform", "infra/hooks", "--terraform-state", "t.tfstate", "--format", "md"]);
    if (request === "help") throw new Error("help");
    expect(reviewCommandLine("executable", request.reviewFlags)).toBe(
      "webhook-subscriptions drift --terraform infra/hooks --terraform-state t.tfstate",
    );
  });
});

describe("webhook-subscriptions drift, run by the entry", () => {
  const empty = tempDir("drift-invocation-");

  /** What `main` printed on stdout for a review that fails at once (no Pulumi.yaml, or no pulumi), from `host`. */
  async function report(host: Parameters<typeof main>[1]): Promise<string> {
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["drift", "--stack", "a", "--cwd", empty, "--state-only"], host)).toBe(1);
      return stdout.mock.calls.map(([chunk]) => String(chunk)).join("");
    } finally {
      vi.restoreAllMocks();
    }
  }

  it("the report's commands run the review as it was run: npx from the npm package, the executable's name from it", async () => {
    const version = () => "0.0.0";
    // --cwd as given too: the command runs from where this one ran.
    const footer = /<sub>.*`(.*drift --stack a --cwd \S+ --state-only)`<\/sub>$/m;
    expect(footer.exec(await report({ version }))?.[1]).toBe(
      `npx webhook-subscriptions drift --stack a --cwd ${empty} --state-only`,
    );
    expect(footer.exec(await report({ version, executable: true }))?.[1]).toBe(
      `webhook-subscriptions drift --stack a --cwd ${empty} --state-only`,
    );
  }, 60_000);

  it("from a folder where npx would not find the package (a global install), the command is the name on PATH", async () => {
    const footer = /<sub>.*`(.*drift --stack a --cwd \S+ --state-only)`<\/sub>$/m;
    vi.stubEnv("INIT_CWD", empty);
    try {
      expect(footer.exec(await report({ version: () => "0.0.0" }))?.[1]).toBe(
        `webhook-subscriptions drift --stack a --cwd ${empty} --state-only`,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  }, 60_000);
});

describe("where npx finds the package's bin", () => {
  it("in a project that installed it, below it, and in the package's own checkout; nowhere else", () => {
    const root = tempDir("npx-finds-");
    const project = join(root, "project");
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(project, "node_modules", ".bin", "webhook-subscriptions"), "");
    mkdirSync(join(project, "app", "src"), { recursive: true });
    const checkout = join(root, "checkout");
    mkdirSync(join(checkout, "docs"), { recursive: true });
    writeFileSync(join(checkout, "package.json"), JSON.stringify({ name: "pulumi-webhook-subscriptions" }));
    const other = join(root, "other");
    mkdirSync(other);
    writeFileSync(join(other, "package.json"), JSON.stringify({ name: "someone-else" }));
    expect(npxFindsPackage(project)).toBe(true);
    expect(npxFindsPackage(join(project, "app", "src"))).toBe(true);
    expect(npxFindsPackage(join(checkout, "docs"))).toBe(true);
    expect(npxFindsPackage(other)).toBe(false);
    expect(npxFindsPackage(root)).toBe(false);
  });
});
