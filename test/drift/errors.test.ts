import { describe, expect, it } from "vitest";
import { DriftError, engineErrorLines, failureDetail, toDriftError } from "../../drift/errors";
import { UnauthorizedError } from "../../provider/client";

describe("toDriftError", () => {
  it("keeps the client's code and message, names the stack, and removes secrets", () => {
    const err = toDriftError(
      new UnauthorizedError({ operation: "GetAllWebhookSubscriptions", status: 401, auth: "token" }),
      {
        stack: "prod",
        secrets: [],
      },
    );
    expect(err).toBeInstanceOf(DriftError);
    expect(err.code).toBe("UNAUTHORIZED");
    expect(err.message).toMatch(/^Cannot review drift of stack "prod": GetAllWebhookSubscriptions .*401/);
    const leaked = toDriftError(new Error("token super-secret-token-1 was refused"), {
      stack: "prod",
      secrets: ["super-secret-token-1"],
    });
    expect(leaked.message).not.toContain("super-secret-token-1");
  });

  it("uses an engine's error lines as the reason", () => {
    const stderr = "Previewing refresh (dev):\n\n    error: provider read failed: boom\nerror: preview failed\n";
    expect(engineErrorLines(stderr)).toEqual(["provider read failed: boom"]);
    const commandError = Object.assign(new Error("code: 255 …"), { commandResult: { stderr } });
    expect(failureDetail(commandError)).toBe("provider read failed: boom");
  });
});
