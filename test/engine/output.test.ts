import { describe, expect, it } from "vitest";
import { engineOutput, failureLine } from "../../engine/output";

/** A sink that keeps what was written. */
function buffer() {
  const chunks: string[] = [];
  return { write: (text: string) => chunks.push(text), text: () => chunks.join("") };
}

describe("engineOutput", () => {
  it("prints each error once; later lines keep their place and point back", () => {
    const out = buffer();
    const err = buffer();
    const { callbacks, printedErrors } = engineOutput(out, err);
    callbacks.onOutput(" +  sub a creating error: 401 Unauthorized: replace the tok");
    callbacks.onOutput("en\n +  sub b creating error: 401 Unauthorized: replace the token\nDiagnostics:\n");
    callbacks.onOutput("    error: 401 Unauthorized: replace the token\n    error: 403 Forbidden\n");
    expect(out.text()).toBe(
      [
        " +  sub a creating error: 401 Unauthorized: replace the token",
        " +  sub b creating error: (same error as above)",
        "Diagnostics:",
        "    error: (same error as above)",
        "    error: 403 Forbidden",
        "",
      ].join("\n"),
    );
    expect([...printedErrors]).toEqual(["401 Unauthorized: replace the token", "403 Forbidden"]);
    expect(err.text()).toBe("");
  });
});

it("drops the stack frames of a repeated logged error, not those of the first", () => {
  const out = buffer();
  const { callbacks } = engineOutput(out, buffer());
  const logged = [
    "    stack running UnauthorizedError: 401 Unauthorized",
    "    stack running     at send (/x/sender.js:94:28)",
    "    stack running     at processTicksAndRejections (node:internal/process/task_queues:95:5)",
  ];
  callbacks.onOutput([...logged, ...logged, "Resources:", ""].join("\n"));
  expect(out.text()).toBe(
    [...logged, "    stack running UnauthorizedError: (same error as above)", "Resources:", ""].join("\n"),
  );
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
