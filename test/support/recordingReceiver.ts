/**
 * A webhook subscriber on loopback for emulator delivery tests: records every message it gets
 * and answers with the status `answer` picks (or never answers, for timeouts). Started once per
 * test file with `useRecordingReceiver`, emptied before each test.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** One message as the receiver got it. */
export interface ReceivedMessage {
  path: string;
  method: string;
  headers: IncomingHttpHeaders;
  /** The raw body. */
  text: string;
  /** The body parsed as JSON; `any` because tests index into it. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The status to answer a message on `path` with (its `seen`-th, from 1), or null to never answer. */
export type Answer = (path: string, seen: number) => number | null;

export interface RecordingReceiver {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Messages received since the current test started, oldest first. */
  readonly received: ReceivedMessage[];
}

export function useRecordingReceiver(answer: Answer): RecordingReceiver {
  let server: Server;
  let url = "";
  const received: ReceivedMessage[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      request.on("end", () => {
        const path = request.url ?? "";
        received.push({ path, method: request.method ?? "", headers: request.headers, text, body: JSON.parse(text) });
        const status = answer(path, received.filter((message) => message.path === path).length);
        if (status === null) return;
        response.statusCode = status;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    received.length = 0;
  });
  return {
    get url() {
      return url;
    },
    received,
  };
}
