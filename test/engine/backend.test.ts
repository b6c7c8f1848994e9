import { describe, expect, it } from "vitest";
import { displayBackend, resolveBackend } from "../../engine/backend";

describe("resolveBackend", () => {
  it("prefers the option, then PULUMI_BACKEND_URL, then the project, then the CLI's login", () => {
    const env = { PULUMI_BACKEND_URL: "s3://from-env" };
    expect(resolveBackend({ backendUrl: "file:///opt", env, projectBackendUrl: "s3://p" })).toEqual({
      url: "file:///opt",
      source: "option",
    });
    expect(resolveBackend({ env, projectBackendUrl: "s3://p" })).toEqual({
      url: "s3://from-env",
      source: "PULUMI_BACKEND_URL",
    });
    expect(resolveBackend({ env: {}, projectBackendUrl: "s3://p" })).toEqual({ url: "s3://p", source: "Pulumi.yaml" });
    expect(resolveBackend({ env: { PULUMI_BACKEND_URL: "" } })).toEqual({ source: "login" });
  });
});

describe("displayBackend", () => {
  it("removes credentials", () => {
    expect(
      displayBackend({ url: "https://user:pw@state.example.com/x?region=eu&accessKey=AKIA", source: "option" }),
    ).toBe("https://state.example.com/x?region=eu&accessKey=REDACTED");
    expect(displayBackend({ url: "file:///work/state", source: "Pulumi.yaml" })).toBe("file:///work/state");
    expect(displayBackend({ source: "login" })).toContain("pulumi whoami");
  });
});
