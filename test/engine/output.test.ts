import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { engineOutput, failureLine } from "../../engine/output";

/** A sink that keeps what was written. */
function buffer() {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), text: () => chunks.join("") };
}

/**
 * The engine's own stdout, captured from the bin runner's Automation API callbacks on examples/basic
 * (4 subscriptions): a refresh whose recorded instance no longer answers, and an `up` with a token
 * the instance refuses.
 */
const fixture = (name: string) => readFileSync(join(__dirname, "fixtures", name), "utf8");
const DEAD_INSTANCE = fixture("dead-instance-refresh.txt");
const WRONG_TOKEN = fixture("wrong-token-up.txt");

/** What engineOutput prints for `raw`, fed in chunks of `size` characters, as a stream arrives. */
function rendered(raw: string, size = 97): string {
  const out = buffer();
  const output = engineOutput(out, buffer());
  for (let i = 0; i < raw.length; i += size) output.callbacks.onOutput(raw.slice(i, i + size));
  output.flush();
  return out.text();
}

/** The full text of each distinct error the engine reported (its `error: …` diagnostics). */
function engineErrors(raw: string): string[] {
  return [...new Set([...raw.matchAll(/^ {4}error: (.+)$/gm)].map((m) => m[1]!.trim()))];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const occurrences = (text: string, part: string) => text.split(part).length - 1;
const diagnosticsOf = (text: string) => text.slice(text.indexOf("\nDiagnostics:\n"));

describe.each([
  ["an unreachable instance (refresh)", DEAD_INSTANCE, 2],
  ["a refused token (up)", WRONG_TOKEN, 3],
])("the captured output of %s", (_, raw, distinct) => {
  const text = rendered(raw);
  const errors = engineErrors(raw);

  it("prints each distinct error in full exactly once, in the Diagnostics section", () => {
    expect(errors).toHaveLength(distinct);
    for (const error of errors) {
      expect(occurrences(diagnosticsOf(text), error), error).toBe(1);
      // Elsewhere only its first sentence: all of a one-sentence error ("update failed").
      if (error.includes(". ")) expect(occurrences(text, error), error).toBe(1);
    }
  });

  it("never shows an error twice within a line", () => {
    for (const line of text.split("\n"))
      for (const error of errors) expect(occurrences(line, error.slice(0, 40)), line).toBeLessThanOrEqual(1);
  });

  it("refers to an error elsewhere by number and first sentence, and is no longer than the engine's output", () => {
    const first = errors.find((e) => e.startsWith("GetAllWebhookSubscriptions"))!;
    const progress = text.slice(0, text.indexOf("\nDiagnostics:\n"));
    expect(progress).toMatch(
      new RegExp(`(error|TransportError): #1 ${escape(first.slice(0, 100))}.* \\(in full under Diagnostics\\)`),
    );
    expect(progress).not.toContain(first);
    expect(text).toContain("error: (same as #1)");
    expect(text.split("\n").length).toBeLessThanOrEqual(raw.split("\n").length);
  });

  it("is the same however the stream is cut", () => {
    expect(rendered(raw, 1)).toBe(text);
    expect(rendered(raw, raw.length)).toBe(text);
  });
});

describe("an unreachable instance", () => {
  it("shows the provider's logged copy of an error once, and drops its repeats", () => {
    const text = rendered(DEAD_INSTANCE);
    expect(occurrences(DEAD_INSTANCE, "TransportError: GetAll")).toBe(8);
    // Once with its first sentence where it was first seen, once in full under Diagnostics.
    expect(occurrences(text, "TransportError:")).toBe(2);
  });
});

describe("a refused token", () => {
  it("lists the full 401 first in the Diagnostics section, whatever order the engine listed resources in", () => {
    const diagnostics = diagnosticsOf(rendered(WRONG_TOKEN));
    const errorLines = diagnostics.split("\n").filter((line) => /error: /.test(line));
    expect(errorLines[0]).toMatch(
      /error: #1 .*401 Unauthorized: the instance refused the bearer token from WEBHOOKS_TOKEN/,
    );
    expect(errorLines[1]).toMatch(/error: #2 create: not attempted: .*refused this run's credentials earlier/);
    // The engine listed the stack's "update failed" first.
    expect(diagnosticsOf(WRONG_TOKEN).split("\n")[3]).toContain("error: update failed");
  });
});

describe("engineOutput", () => {
  it("numbers each error when first seen; progress lines show its first sentence, later ones refer to it", () => {
    const out = buffer();
    const { callbacks, printedErrors, flush } = engineOutput(out, buffer());
    callbacks.onOutput(" +  sub a creating error: 401 Unauthorized: replace the tok");
    callbacks.onOutput(
      "en. Then run again\n +  sub b creating error: 401 Unauthorized: replace the token. Then run again\n",
    );
    callbacks.onOutput(" +  sub c creating error: 403 Forbidden\nDiagnostics:\n  sub (b):\n");
    callbacks.onOutput(
      "    error: 401 Unauthorized: replace the token. Then run again\n\n  sub (c):\n    error: 403 Forbidden\n\n",
    );
    callbacks.onOutput("  sub (a):\n    error: 401 Unauthorized: replace the token. Then run again\n\nResources:\n");
    expect(printedErrors).toEqual(new Set(["401 Unauthorized: replace the token. Then run again", "403 Forbidden"]));
    flush();
    expect(out.text()).toBe(
      [
        " +  sub a creating error: #1 401 Unauthorized: replace the token. (in full under Diagnostics)",
        " +  sub b creating error: (same as #1)",
        " +  sub c creating error: #2 403 Forbidden",
        "Diagnostics:",
        "  sub (b):",
        "    error: #1 401 Unauthorized: replace the token. Then run again",
        "",
        "  sub (a):",
        "    error: (same as #1)",
        "",
        "  sub (c):",
        "    error: #2 403 Forbidden",
        "",
        "Resources:",
        "",
      ].join("\n"),
    );
  });

  it("keeps the frames of a logged error with its full text only", () => {
    const out = buffer();
    const { callbacks, flush } = engineOutput(out, buffer());
    const logged = [
      "    UnauthorizedError: 401 Unauthorized",
      "        at send (/x/sender.js:94:28)",
      "        at processTicksAndRejections (node:internal/process/task_queues:95:5)",
    ];
    callbacks.onOutput([" stack running UnauthorizedError: 401 Unauthorized", logged[1], ""].join("\n"));
    callbacks.onOutput(["Diagnostics:", "  stack (s):", ...logged, ...logged, "", "Resources:", ""].join("\n"));
    flush();
    expect(out.text()).toBe(
      [
        " stack running UnauthorizedError: #1 401 Unauthorized",
        "Diagnostics:",
        "  stack (s):",
        ...logged.map((l, i) => (i === 0 ? l.replace(": ", ": #1 ") : l)),
        "",
        "Resources:",
        "",
      ].join("\n"),
    );
  });

  it("flush prints a Diagnostics section the engine did not close, and any error not yet in full", () => {
    const out = buffer();
    const { callbacks, flush } = engineOutput(out, buffer());
    callbacks.onOutput(" +  a error: boom. Details follow\nDiagnostics:\n  x (a):\n    warning: slow\n");
    flush();
    expect(out.text()).toBe(
      [
        " +  a error: #1 boom. (in full under Diagnostics)",
        "Diagnostics:",
        "  x (a):",
        "    warning: slow",
        "error: #1 boom. Details follow",
        "",
      ].join("\n"),
    );
  });
});

describe("failureLine", () => {
  const commandError = (stderr: string) =>
    Object.assign(new Error("code: 255\n stdout: …"), { commandResult: { stderr } });

  it("names an error the output has not shown, else points at the output above", () => {
    expect(
      failureLine(commandError("error: update failed\nerror: program crashed\n"), new Set(["update failed"])),
    ).toBe("program crashed");
    expect(failureLine(commandError("error: update failed\n"), new Set(["update failed"]))).toBe(
      "see the errors above",
    );
    expect(failureLine(new Error("no Pulumi.yaml"), new Set())).toBe("no Pulumi.yaml");
  });
});
