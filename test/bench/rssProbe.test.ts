import { describe, expect, it } from "vitest";

// A CommonJS hook for `node --require`; without BENCH_RSS_DIR loading it records nothing.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { providerKind } = require("../../bench/rssProbe.cjs") as {
  providerKind(argv: readonly string[]): "dynamic" | "native" | undefined;
};

const NODE = "/usr/bin/node";

describe("which processes the RSS probe records", () => {
  it("records the dynamic-provider host", () => {
    expect(providerKind([NODE, "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js", "127.0.0.1:4000"])).toBe(
      "dynamic",
    );
  });

  it("records the native plugin, started by the language host's plugin runner with its directory", () => {
    const runner = "/r/dist/plugin/webhooks/node_modules/@pulumi/pulumi/cmd/run-plugin/index.js";
    expect(providerKind([NODE, runner, "/r/dist/plugin/webhooks", "127.0.0.1:4000"])).toBe("native");
    expect(providerKind([NODE, runner, "/r/dist/plugin/other", "127.0.0.1:4000"])).toBeUndefined();
  });

  it("leaves other Node processes alone (the shim's lookup, programs)", () => {
    expect(providerKind([NODE])).toBeUndefined();
    expect(providerKind([NODE, "/r/index.js", "/r/dist/plugin/webhooks"])).toBeUndefined();
  });
});
