/**
 * The emulator command's admin token from a file or the environment, so that it stays out of
 * `ps`: which source wins, and clear messages that name the source and never the token.
 */
import { readFile as readFileAsync, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROCESS_SURROUNDINGS, type CommandSurroundings } from "../../cli/adminToken";
import { UsageError } from "../../cli/command";
import { emulatorCommand, parseEmulatorArgs } from "../../cli/emulator";
import { ADMIN_TOKEN_ENV, resolveOptions } from "../../emulator/options";
import { spawnEmulator } from "../../emulator/spawn";

const TOKEN = "s3cret-admin-token-0123456789";
const OTHER_TOKEN = "other-admin-token-9876543210";
const PATH = "/run/secrets/emulator-admin-token";

/** An environment and a file system holding only `files`. */
function surroundings(env: NodeJS.ProcessEnv, files: Record<string, string> = {}): CommandSurroundings {
  return {
    env,
    readFile(path) {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
  };
}

function usageError(argv: string[], around: CommandSurroundings): string {
  try {
    parseEmulatorArgs(argv, around);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

describe("admin token sources", () => {
  it("a token flag given twice is refused without saying either token", () => {
    const message = usageError(["--admin-token", TOKEN, "--admin-token", OTHER_TOKEN], surroundings({}, {}));
    expect(message).toBe("--admin-token is given 2 times: give it once.");
  });

  it("reads the token from a file, without the surrounding whitespace an editor leaves", () => {
    for (const text of [TOKEN, `${TOKEN}\n`, `  ${TOKEN}\r\n`]) {
      expect(parseEmulatorArgs(["--admin-token-file", PATH], surroundings({}, { [PATH]: text }))).toEqual({
        adminToken: TOKEN,
      });
    }
  });

  it(`reads the token from ${ADMIN_TOKEN_ENV} when no flag gives one`, () => {
    expect(parseEmulatorArgs(["--host", "0.0.0.0"], surroundings({ [ADMIN_TOKEN_ENV]: TOKEN }))).toEqual({
      host: "0.0.0.0",
      adminToken: TOKEN,
    });
    expect(parseEmulatorArgs([], surroundings({}))).toEqual({});
  });

  it("lets the command line win over the environment", () => {
    const env = { [ADMIN_TOKEN_ENV]: OTHER_TOKEN };
    expect(parseEmulatorArgs(["--admin-token-file", PATH], surroundings(env, { [PATH]: TOKEN }))).toEqual({
      adminToken: TOKEN,
    });
    expect(parseEmulatorArgs(["--admin-token", TOKEN], surroundings(env))).toEqual({ adminToken: TOKEN });
  });

  it("refuses the flag and the file together, naming both", () => {
    const message = usageError(
      ["--admin-token", TOKEN, "--admin-token-file", PATH],
      surroundings({}, { [PATH]: OTHER_TOKEN }),
    );
    expect(message).toBe(
      "--admin-token and --admin-token-file both give the admin token: keep only --admin-token-file " +
        "(--admin-token shows the token to every local user in `ps`)",
    );
  });

  it.each([
    ["an empty file", "", `--admin-token-file "${PATH}": the file is empty: write an admin token into it`],
    ["a file of blanks", " \n\n", `--admin-token-file "${PATH}": the file is empty`],
    ["a short token", "short-secret\n", `--admin-token-file "${PATH}": the admin token must be at least 16 characters`],
    [
      "two lines",
      `${TOKEN}\n${TOKEN}\n`,
      `--admin-token-file "${PATH}": the admin token must be at least 16 characters without whitespace`,
    ],
  ])("refuses %s, naming the flag and the path but not the content", (_, content, start) => {
    const message = usageError(["--admin-token-file", PATH], surroundings({}, { [PATH]: content }));
    expect(message.startsWith(start)).toBe(true);
    expect(message).toContain("openssl rand -hex 24");
    expect(message).not.toContain("short-secret");
    expect(message).not.toContain(TOKEN);
  });

  it("refuses a file it cannot read, saying why and what to give instead", async () => {
    const directory = await mkdtemp(join(tmpdir(), "admin-token-"));
    try {
      const missing = join(directory, "missing");
      expect(usageError(["--admin-token-file", missing], PROCESS_SURROUNDINGS)).toBe(
        `--admin-token-file "${missing}": cannot read the file (ENOENT: no such file or directory): ` +
          "give a readable file that holds only the token",
      );
      expect(usageError(["--admin-token-file", directory], PROCESS_SURROUNDINGS)).toContain(
        `--admin-token-file "${directory}": cannot read the file (EISDIR: illegal operation on a directory)`,
      );
      const file = join(directory, "token");
      await writeFile(file, `${TOKEN}\n`, { mode: 0o600 });
      expect(parseEmulatorArgs(["--admin-token-file", file], PROCESS_SURROUNDINGS)).toEqual({ adminToken: TOKEN });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it.each([
    ["", `${ADMIN_TOKEN_ENV} is set but empty: put an admin token in it (\`openssl rand -hex 24\`), or unset it`],
    ["short-secret", `${ADMIN_TOKEN_ENV}: the admin token must be at least 16 characters`],
    [`${TOKEN} `, `${ADMIN_TOKEN_ENV}: the admin token must be at least 16 characters without whitespace`],
  ])("refuses %j in the environment, naming the variable but not the value", (value, start) => {
    const message = usageError([], surroundings({ [ADMIN_TOKEN_ENV]: value }));
    expect(message.startsWith(start)).toBe(true);
    if (value !== "") expect(message).not.toContain(value.trim());
  });

  it("refuses a short --admin-token naming the flag, not the value", () => {
    const message = usageError(["--admin-token", "short-secret"], surroundings({}));
    expect(message.startsWith("--admin-token: the admin token must be at least 16 characters")).toBe(true);
    expect(message).not.toContain("short-secret");
  });

  it("points at the safer sources wherever it asks for a token", () => {
    expect(emulatorCommand.usage).toMatch(/--admin-token-file .*requires/);
    expect(emulatorCommand.usage).toContain(`without either flag it is read from ${ADMIN_TOKEN_ENV}`);
    expect(emulatorCommand.usage).toMatch(/--admin-token {2}the token itself: every local user can read it in `ps`/);
    expect(() => resolveOptions({ host: "0.0.0.0" })).toThrow(
      `(--admin-token-file <path>, or the ${ADMIN_TOKEN_ENV} environment variable; ` +
        "--admin-token <token> also works but shows the token to every local user in `ps`)",
    );
  });
});

describe(`emulator started with ${ADMIN_TOKEN_ENV}`, () => {
  it("guards the admin API with the token, which is not in the process's command line", async () => {
    const emulator = await spawnEmulator(["--port", "0", "--host", "127.0.0.1"], 30_000, {
      ...process.env,
      [ADMIN_TOKEN_ENV]: TOKEN,
    });
    try {
      expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const cmdline = await readFileAsync(`/proc/${emulator.child.pid}/cmdline`, "utf8");
      expect(cmdline).toContain("emulator\0--port\0");
      expect(cmdline).not.toContain(TOKEN);

      const reset = (authorization?: string) =>
        fetch(`${emulator.url}/_emulator/reset`, {
          method: "POST",
          headers: authorization === undefined ? {} : { authorization },
        });
      const refused = await reset();
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain(ADMIN_TOKEN_ENV);
      expect((await reset(`Bearer ${OTHER_TOKEN}`)).status).toBe(401);
      const accepted = await reset(`Bearer ${TOKEN}`);
      expect(accepted.status).toBe(200);
      expect(await accepted.json()).toEqual({ ok: true });
    } finally {
      expect(await emulator.stop()).toBe(0);
    }
    expect(emulator.stderr()).toBe("");
  });
});
