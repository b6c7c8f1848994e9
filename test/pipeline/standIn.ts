/**
 * A loopback stand-in for GitHub's REST API and GitLab's v4 API (node:http on 127.0.0.1, port 0):
 * it records every call, asks for `Authorization: Bearer <token>`, and serves a pull request's
 * comments, the repository's issues and a merge request's notes a page at a time, as the real
 * APIs do (`Link: rel="next"` on GitHub, `x-next-page` on GitLab). Also: how the tests run the
 * CLI through `main` with a given environment, and the review reports they read.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, vi } from "vitest";
import { main } from "../../cli/index";
import type { Review } from "../../drift";
import { markerOf } from "../../pipeline";
import { buildReview, FINDINGS, SOURCES } from "../drift/fixtures/review";

export const TOKEN = "ghp_standInSecretToken0123456789";

/** A review with drift (every source of the fixtures, their findings), and its marker. */
export const DRIFT = buildReview(SOURCES, FINDINGS);
export const MARKER = markerOf(DRIFT);

/** One request as the stand-in saw it. */
export interface Call {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

export interface Comment {
  id: number;
  body: string;
  system?: boolean;
}

export interface Issue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: string[];
  pull_request?: object;
  comments: string[];
}

export interface StandIn {
  readonly url: string;
  readonly calls: Call[];
  /** GitHub: comments of each pull request. */
  readonly comments: Map<number, Comment[]>;
  /** GitHub: the repository's issues (and pull requests, as the issues list holds them). */
  readonly issues: Issue[];
  /** GitLab: notes of each merge request. */
  readonly notes: Map<number, Comment[]>;
  /** The largest page served, whatever per_page asks. */
  pageSize: number;
  /** When set, every request is answered with this status and message. */
  fail?: { status: number; message: string };
  /** The calls that change something (not GETs). */
  writes(): Call[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    req.on("end", () => resolve(text ? (JSON.parse(text) as unknown) : undefined));
  });
}

/** Starts the stand-in on a free loopback port. */
export async function startStandIn(): Promise<StandIn> {
  let nextId = 1000;
  const state = {
    calls: [] as Call[],
    comments: new Map<number, Comment[]>(),
    issues: [] as Issue[],
    notes: new Map<number, Comment[]>(),
    pageSize: 100,
    fail: undefined as StandIn["fail"],
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      state.calls.push({
        method: req.method ?? "",
        url: req.url ?? "",
        authorization: req.headers.authorization,
        body,
      });
      const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: "Bad credentials" });
      if (state.fail) return send(state.fail.status, { message: state.fail.message });
      const page = Number(url.searchParams.get("page") ?? "1");
      const size = Math.min(Number(url.searchParams.get("per_page") ?? "30"), state.pageSize);
      const slice = <T>(items: T[]) => items.slice((page - 1) * size, page * size);
      const more = <T>(items: T[]) => page * size < items.length;
      const linkTo = (items: unknown[]): Record<string, string> => {
        if (!more(items)) return {};
        const next = new URL(url);
        next.searchParams.set("page", String(page + 1));
        return { link: `<http://${req.headers.host}${next.pathname}${next.search}>; rel="next", <x>; rel="last"` };
      };
      const path = url.pathname;
      let m: RegExpExecArray | null;
      // GitHub
      if ((m = /^\/repos\/octo\/infra\/issues\/(\d+)\/comments$/.exec(path))) {
        const number = Number(m[1]);
        const issue = state.issues.find((i) => i.number === number);
        if (issue && req.method === "POST") {
          issue.comments.push((body as { body: string }).body);
          return send(201, { id: nextId++, body: (body as { body: string }).body });
        }
        const list = state.comments.get(number) ?? [];
        state.comments.set(number, list);
        if (req.method === "GET") return send(200, slice(list), linkTo(list));
        const comment = { id: nextId++, body: (body as { body: string }).body };
        list.push(comment);
        return send(201, {
          ...comment,
          html_url: `http://github.test/octo/infra/pull/${number}#issuecomment-${comment.id}`,
        });
      }
      if ((m = /^\/repos\/octo\/infra\/issues\/comments\/(\d+)$/.exec(path)) && req.method === "PATCH") {
        const comment = [...state.comments.values()].flat().find((c) => c.id === Number(m![1]));
        if (!comment) return send(404, { message: "Not Found" });
        comment.body = (body as { body: string }).body;
        return send(200, comment);
      }
      if (path === "/repos/octo/infra/issues" && req.method === "GET") {
        const label = url.searchParams.get("labels");
        const list = state.issues.filter((i) => i.state === "open" && (!label || i.labels.includes(label)));
        return send(200, slice(list), linkTo(list));
      }
      if (path === "/repos/octo/infra/issues" && req.method === "POST") {
        const { title, body: text, labels } = body as { title: string; body: string; labels: string[] };
        const issue: Issue = { number: nextId++, title, body: text, state: "open", labels, comments: [] };
        state.issues.push(issue);
        return send(201, { ...issue, html_url: `http://github.test/octo/infra/issues/${issue.number}` });
      }
      if ((m = /^\/repos\/octo\/infra\/issues\/(\d+)$/.exec(path)) && req.method === "PATCH") {
        const issue = state.issues.find((i) => i.number === Number(m![1]));
        if (!issue) return send(404, { message: "Not Found" });
        Object.assign(issue, body);
        return send(200, issue);
      }
      // GitLab
      if ((m = /^\/api\/v4\/projects\/group%2Fproject\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(path))) {
        const list = state.notes.get(Number(m[1])) ?? [];
        state.notes.set(Number(m[1]), list);
        if (req.method === "GET") return send(200, slice(list), { "x-next-page": more(list) ? String(page + 1) : "" });
        if (req.method === "POST") {
          const note = { id: nextId++, body: (body as { body: string }).body };
          list.push(note);
          return send(201, note);
        }
        const note = list.find((n) => n.id === Number(m![2]));
        if (!note) return send(404, { message: "404 Not found" });
        note.body = (body as { body: string }).body;
        return send(200, note);
      }
      send(404, { message: `no route ${req.method} ${path}` });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const standIn: StandIn = Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    writes: () => state.calls.filter((c) => c.method !== "GET"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return standIn;
}

/** The variables every CI test clears first, so the machine's own never leak in. */
const CI_VARIABLES = [
  "GITHUB_TOKEN",
  "GITHUB_API_URL",
  "GITHUB_REPOSITORY",
  "GITHUB_EVENT_PATH",
  "GITHUB_SERVER_URL",
  "GITHUB_RUN_ID",
  "GITLAB_TOKEN",
  "CI_API_V4_URL",
  "CI_PROJECT_ID",
  "CI_MERGE_REQUEST_IID",
  "CI_JOB_URL",
  "MY_TOKEN",
  "INIT_CWD",
];

/** What one run of the CLI printed, and its exit code. */
export interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `webhook-subscriptions <argv>` through cli/index.ts's `main` with exactly `env`'s CI variables. */
export async function runCli(argv: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  for (const name of CI_VARIABLES) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((stdout += String(chunk)), true));
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((stderr += String(chunk)), true));
  try {
    const code = await main(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
    vi.unstubAllEnvs();
  }
}

/** A fresh directory for reports and event files. */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), "pipeline-"));
}

/** Writes `review` as a JSON report in `dir`; returns its path. */
export function writeReview(dir: string, name: string, review: Review): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(review, null, 2));
  return file;
}

/** Writes a GitHub event file for pull request `number`; returns its path. */
export function writeEvent(dir: string, event: unknown): string {
  const file = join(dir, `event-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(event));
  return file;
}

/** GitHub Actions' variables for `standIn`, pull request 7 (event written in `dir`). */
export function githubEnv(standIn: StandIn, dir: string): Record<string, string> {
  return {
    GITHUB_TOKEN: TOKEN,
    GITHUB_API_URL: standIn.url,
    GITHUB_REPOSITORY: "octo/infra",
    GITHUB_EVENT_PATH: writeEvent(dir, { pull_request: { number: 7 } }),
    GITHUB_SERVER_URL: "http://github.test",
    GITHUB_RUN_ID: "42",
  };
}

/** GitLab CI's variables for `standIn`, merge request 5 of group/project. */
export function gitlabEnv(standIn: StandIn): Record<string, string> {
  return {
    GITLAB_TOKEN: TOKEN,
    CI_API_V4_URL: `${standIn.url}/api/v4`,
    CI_PROJECT_ID: "group/project",
    CI_MERGE_REQUEST_IID: "5",
  };
}

/** A fresh stand-in and scratch directory for each test of the calling `describe`. */
export function withStandIn(): { readonly api: StandIn; readonly dir: string } {
  const current = {} as { api: StandIn; dir: string };
  beforeEach(async () => {
    current.api = await startStandIn();
    current.dir = scratch();
  });
  afterEach(() => current.api.close());
  return current;
}
