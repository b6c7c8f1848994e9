/**
 * Where `webhook-subscriptions emulator` gets its admin token: `--admin-token-file <path>`, the
 * WEBHOOKS_EMULATOR_ADMIN_TOKEN environment variable, or `--admin-token <token>`, which every
 * local user can read in `ps` and `/proc/<pid>/cmdline`. The command line wins over the
 * environment, as in most tools (node's own flags over NODE_OPTIONS), so a token exported in a
 * shell does not block a one-off start with a file; the flag and the file together are refused.
 */
import { readFileSync } from "node:fs";
import { ADMIN_TOKEN_ENV, adminTokenProblem } from "../emulator/options";
import { UsageError } from "./command";

/** What the command reads besides its arguments; tests pass their own. */
export interface CommandSurroundings {
  readonly env: NodeJS.ProcessEnv;
  /** The whole file as UTF-8 text; throws as `fs.readFileSync` does. */
  readFile(path: string): string;
}

/** The real process environment and file system. */
export const PROCESS_SURROUNDINGS: CommandSurroundings = {
  env: process.env,
  readFile: (path) => readFileSync(path, "utf8"),
};

/**
 * The admin token the command was given, checked against the token rule; undefined when no
 * source gives one. Every message names the source (and the file's path), never the token.
 */
export function adminTokenFrom(
  flag: string | undefined,
  file: string | undefined,
  { env, readFile }: CommandSurroundings,
): string | undefined {
  if (flag !== undefined && file !== undefined) {
    throw new UsageError(
      "--admin-token and --admin-token-file both give the admin token: keep only --admin-token-file " +
        "(--admin-token shows the token to every local user in `ps`)",
    );
  }
  if (flag !== undefined) return checked("--admin-token", flag);
  if (file !== undefined) return checked(`--admin-token-file ${JSON.stringify(file)}`, tokenFile(file, readFile));
  const fromEnv = env[ADMIN_TOKEN_ENV];
  if (fromEnv === undefined) return undefined;
  if (fromEnv === "") {
    throw new UsageError(
      `${ADMIN_TOKEN_ENV} is set but empty: put an admin token in it (\`openssl rand -hex 24\`), or unset it`,
    );
  }
  return checked(ADMIN_TOKEN_ENV, fromEnv);
}

/** The token a file holds, without the surrounding whitespace (an editor's final newline). */
function tokenFile(path: string, readFile: CommandSurroundings["readFile"]): string {
  const where = `--admin-token-file ${JSON.stringify(path)}`;
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    // fs messages read "ENOENT: no such file or directory, open '<path>'"; the path is named already.
    const reason = (error as Error).message.split(",")[0];
    throw new UsageError(`${where}: cannot read the file (${reason}): give a readable file that holds only the token`);
  }
  const token = text.trim();
  if (token === "") {
    throw new UsageError(
      `${where}: the file is empty: write an admin token into it, e.g. \`openssl rand -hex 24 > <path>\``,
    );
  }
  return token;
}

function checked(source: string, token: string): string {
  const problem = adminTokenProblem(token);
  if (problem !== undefined) throw new UsageError(`${source}: the admin token ${problem}`);
  return token;
}
