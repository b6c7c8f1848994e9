/**
 * A property-based API tester, schemathesis, against the emulator's own v3 document: with a
 * fixed seed and a bounded budget it generates requests (valid and invalid, and sequences that
 * follow the document's links) and checks that no answer is a server error, every status,
 * content type and body is one the document declares, and a request without the token is refused.
 * The emulator, its document and the wire schemas thus cannot disagree unnoticed.
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, expect, it, onTestFinished } from "vitest";
import { DIALECTS, startEmulator } from "../../emulator";
import { REPO_ROOT } from "../support/engine";
import { ensureSchemathesis } from "../support/testTools";

const execFileAsync = promisify(execFile);

/** Every check the run applies; `ignored_auth` repeats requests without the token and expects 401/403. */
const CHECKS = [
  "not_a_server_error",
  "status_code_conformance",
  "content_type_conformance",
  "response_schema_conformance",
  "ignored_auth",
];

let st: string;
beforeAll(async () => {
  st = await ensureSchemathesis((line) => console.log(line));
}, 900_000);

// The budget is the examples per operation (about 600 cases, 20 s here); --max-time would
// instead repeat fuzzing until the time is spent.
it.each(DIALECTS)("finds no answer that breaks the v3 document (%s dialect)", { timeout: 240_000 }, async (dialect) => {
  const emulator = await startEmulator({ port: 0, dialect });
  onTestFinished(() => emulator.close());
  const reportDir = join(REPO_ROOT, ".work", "schemathesis", dialect);
  mkdirSync(reportDir, { recursive: true });
  const args = [
    "run",
    `${emulator.url}/swagger/3/swagger.json`,
    "--checks",
    CHECKS.join(","),
    "--header",
    "Authorization: Bearer dev-builder",
    "--seed",
    "20261125",
    "--max-examples",
    "30",
    "--workers",
    "1",
    "--report",
    "junit",
    "--report-junit-path",
    join(reportDir, "junit.xml"),
  ];
  const { stdout } = await execFileAsync(st, args, {
    // schemathesis keeps a cache (.schemathesis/) in its working directory: inside .work/, not the repo.
    cwd: reportDir,
    timeout: 200_000,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", SCHEMATHESIS_TELEMETRY: "false" },
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`schemathesis found failures:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
  });
  // The summary line, e.g. "608 generated, 608 passed, 8 skipped": kept in the test's output.
  const summary = /^\s*(\d+) generated, (.*)$/m.exec(stdout);
  console.log(`schemathesis, ${dialect} dialect: ${summary?.[0].trim() ?? stdout}`);
  expect(summary, stdout).not.toBeNull();
  expect(Number(summary![1])).toBeGreaterThan(200);
  expect(summary![2]).not.toMatch(/failed|error/);
  // Every phase ran, the stateful one included (it follows the document's links).
  for (const phase of ["Examples", "Coverage", "Fuzzing", "Stateful"])
    expect(stdout).toMatch(new RegExp(`✅ {2}${phase}`));
});
