/**
 * `webhook-subscriptions emulator`: its one output line, clean shutdown on signals, and clear
 * errors for bad flags and unusable state files.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runEmulatorToEnd, spawnEmulator } from "../../emulator/spawn";
import { emulatorCommand, parseEmulatorArgs as parseCliArgs } from "../../cli/emulator";
import { EmulatorOptionError, startEmulator, type EmulatorOptions } from "../../emulator";

describe("emulator command", () => {
  it("prints exactly one line with the real port, serves, and exits 0 on SIGTERM and on SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const emulator = await spawnEmulator(["--port", "0", "--rate-limit", "100:5", "--product", "acme"]);
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(emulator.url).not.toMatch(/:0$/);
      const response = await fetch(
        `${emulator.url}/configuration/WebHookSubscription/GetAllWebhookSubscriptions?api-version=3`,
        {
          headers: { authorization: "Bearer dev-builder" },
        },
      );
      expect(response.status).toBe(200);
      // The line names the page (spawnEmulator matches it exactly), and the page is there.
      expect((await fetch(`${emulator.url}/swagger`)).status).toBe(200);
      expect(await emulator.stop(signal)).toBe(0);
      expect(emulator.stderr()).toBe("");
    }
  });

  it.each([
    [["--port", "abc"], '--port: expected a number, got "abc"'],
    [["--port", "70000"], "--port: port must be an integer from 0 to 65535, got 70000"],
    [["--rate-limit", "fast"], '--rate-limit: expected a number, got "fast"'],
    [["--rate-limit", "0"], "--rate-limit: rateLimit.requestsPerSecond must be a positive number, got 0"],
    [["--rate-limit", "5:1:2"], '--rate-limit: expected <requestsPerSecond>[:<burst>], got "5:1:2"'],
    [
      ["--product", "my product"],
      '--product: product must be letters, digits and hyphens (it goes into a header name), got "my product"',
    ],
    [["--dialect", "xml"], '--dialect: dialect must be spec or vendor-docs, got "xml"'],
    [
      ["--host", "0.0.0.0", "--admin-token-file", "/nonexistent/admin-token"],
      '--admin-token-file "/nonexistent/admin-token": cannot read the file (ENOENT: no such file or directory)',
    ],
    [["--verbose"], "Unknown option '--verbose'"],
    [["--state"], "Option '--state <value>' argument missing"],
  ])("rejects %j with exit 1 and a message naming the flag", async (args, message) => {
    const result = await runEmulatorToEnd(args);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`emulator: ${message}`);
  });

  it("refuses a corrupt state file with exit 1 and leaves it as it was", async () => {
    const directory = await mkdtemp(join(tmpdir(), "emulator-cli-"));
    try {
      const path = join(directory, "state.json");
      await writeFile(path, "garbage");
      const result = await runEmulatorToEnd(["--port", "0", "--state", path]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`State file ${path} is not valid JSON`);
      expect(await readFile(path, "utf8")).toBe("garbage");
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe("emulator flags", () => {
  it("reads every flag, in both --flag value and --flag=value forms", () => {
    expect(
      parseCliArgs([
        "--port",
        "8080",
        "--host=::1",
        "--state",
        "s.json",
        "--legacy-only",
        "--product=acme",
        "--rate-limit",
        "20:40",
        "--dialect",
        "spec",
      ]),
    ).toEqual({
      dialect: "spec",
      port: 8080,
      host: "::1",
      statePath: "s.json",
      legacyOnly: true,
      product: "acme",
      rateLimit: { requestsPerSecond: 20, burst: 40 },
    });
    expect(parseCliArgs(["--rate-limit=2.5"])).toEqual({ rateLimit: { requestsPerSecond: 2.5 } });
    expect(parseCliArgs(["--help"])).toBe("help");
  });

  it("usage shows each example value as the flag's default, not another number", () => {
    const defaults = [...emulatorCommand.usage.matchAll(/^\s+(--[\w-]+)\s.*\(default ([^)]+)\)/gm)];
    expect(defaults.length).toBeGreaterThan(0);
    for (const [, flag, value] of defaults) {
      const example = new RegExp(`\\[${flag} ([^\\]|]+)`).exec(emulatorCommand.usage)?.[1];
      if (example !== undefined && !example.startsWith("<")) expect(example, flag).toBe(value);
    }
    expect(emulatorCommand.usage).toContain("[--port <port>]");
  });

  it("docs/emulator.md has a table row for every flag the usage names (the flags' or the admin token's table)", async () => {
    const page = await readFile(join(__dirname, "../../docs/emulator.md"), "utf8");
    const rows = new Set([...page.matchAll(/^\| `(--[\w-]+)/gm)].map((m) => m[1]));
    const flags = new Set([...emulatorCommand.usage.matchAll(/(--[a-z][\w-]*)/g)].map((m) => m[1]));
    expect(flags.size).toBeGreaterThan(5);
    expect([...flags].filter((flag) => !rows.has(flag))).toEqual([]);
  });
});

describe("startEmulator options", () => {
  it.each<[EmulatorOptions, string]>([
    [{ port: -1 }, "port must be an integer from 0 to 65535, got -1"],
    [{ product: "a b" }, 'product must be letters, digits and hyphens (it goes into a header name), got "a b"'],
    [{ tokenTtlSeconds: 0 }, "tokenTtlSeconds must be a positive number, got 0"],
    [{ deliveryTimeoutMs: Number.NaN }, "deliveryTimeoutMs must be a positive number, got NaN"],
    [{ rateLimit: { requestsPerSecond: 5, burst: 0 } }, "rateLimit.burst must be a number >= 1, got 0"],
    [{ statePath: "" }, 'statePath must be a file path, got ""'],
  ])("rejects %j with EmulatorOptionError", async (options, message) => {
    const failure = await startEmulator({ port: 0, ...options }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EmulatorOptionError);
    expect((failure as Error).message).toBe(message);
  });
});
