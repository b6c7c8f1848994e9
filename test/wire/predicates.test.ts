/** The shared rules, one row per kind of answer: what check, the client and the emulator all ask. */
import { describe, expect, it } from "vitest";
import {
  headerValueProblem,
  httpUrlProblem,
  isGuid,
  isHeaderName,
  normalizeHeaderName,
  reservedHeaderReason,
  subscriberUrlProblem,
} from "../../provider/wire";

describe("URLs", () => {
  it.each([
    ["https://hooks.example.com/x", undefined],
    ["HTTP://Hooks.Example.com", undefined],
    ["http:hooks.example.com/x", "not-absolute"],
    ["https:/hooks.example.com", "not-absolute"],
    ["https:\\\\hooks.example.com", "not-absolute"],
    ["http://", "not-absolute"],
    ["/relative", "not-absolute"],
    ["ftp://x.example.com", "scheme"],
  ])("httpUrlProblem(%j) is %s", (url, kind) => {
    expect(httpUrlProblem(url)?.kind).toBe(kind);
  });

  it("a subscriber URL also refuses whitespace, control characters and credentials; a base URL need not", () => {
    expect(subscriberUrlProblem("https://h.example.com/a b")?.kind).toBe("whitespace");
    expect(subscriberUrlProblem("https://h.example.com/\u0001")?.kind).toBe("whitespace");
    expect(subscriberUrlProblem("https://u:p@h.example.com/")?.kind).toBe("credentials");
    expect(httpUrlProblem("https://u:p@h.example.com/")).toBeUndefined();
    expect(subscriberUrlProblem("mailto:a@b.c")).toEqual({ kind: "scheme", scheme: "mailto" });
  });
});

describe("headers", () => {
  it("names: spaces become hyphens, then RFC 9110 tokens only", () => {
    expect(normalizeHeaderName("X Api Key")).toBe("X-Api-Key");
    expect(isHeaderName("X-Api-Key")).toBe(true);
    expect(isHeaderName("X-Key:")).toBe(false);
    expect(isHeaderName("X-Schlüssel")).toBe(false);
  });

  it.each([
    ["HOST", "the HTTP client sets Host from the subscriber URL"],
    ["Content-Length", "the HTTP client frames the message body itself"],
    ["x-my-product-signature", "it carries the Signature, which a custom header must not forge"],
    ["X-Api-Key", undefined],
    ["X-Signature", undefined],
  ])("reservedHeaderReason(%j) is %j", (name, reason) => {
    expect(reservedHeaderReason(name)).toBe(reason);
  });

  it.each([
    ["tab\tand ü", undefined],
    ["a\r\nb", "a line break"],
    ["a\0b", "a NUL character"],
    ["a\u007fb", "a control character"],
    ["€", "a character outside Latin-1"],
  ])("headerValueProblem(%j) is %j", (value, problem) => {
    expect(headerValueProblem(value)).toBe(problem);
  });
});

it("GUIDs: the wire's rule, any case, canonical form only", () => {
  expect(isGuid("6F1C2A3B-5D4E-4F60-8A7B-9C0D1E2F3A4B")).toBe(true);
  expect(isGuid("{6f1c2a3b-5d4e-4f60-8a7b-9c0d1e2f3a4b}")).toBe(false);
  expect(isGuid(42)).toBe(false);
});
