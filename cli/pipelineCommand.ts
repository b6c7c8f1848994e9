/**
 * What `comment` and `issue` share: the platform word first, `--report` and `--token-env`, the
 * report read from where the command was typed, and the steps every pipeline command runs
 * (parse and check, load, act), whose bad input and API errors exit 1 with their message.
 */
import { resolve } from "node:path";
import type { Review } from "../drift";
import { PipelineApiError, PipelineInputError, readReviewReport, VARIABLE_NAME } from "../pipeline";
import { stringFlag, UsageError, type Command, type FlagValues } from "./command";

/** `--report`: the review both commands publish. */
export const REPORT_FLAG = {
  type: "string",
  arg: "<review.json>",
  description: "the drift review's JSON report (`webhook-subscriptions drift … --report review.json`)",
} as const;

/** `--token-env`; `tokenDefault` says which variable is read without it. */
export function tokenEnvFlag(tokenDefault: string) {
  return {
    type: "string",
    arg: "<NAME>",
    description: `the variable that holds the token (default: ${tokenDefault})`,
  } as const;
}

/**
 * The platform word that leads a pipeline command's arguments, and the flags after it; "help"
 * when help was asked for. `command` and `platforms` name what the errors list.
 */
export function platformOf<P extends string>(
  argv: readonly string[],
  command: string,
  platforms: readonly P[],
  usage: string,
): { platform: P; flags: readonly string[] } | "help" {
  const [word, ...flags] = argv;
  if (word === "--help" || word === "-h") return "help";
  const choices = platforms.map((p) => `\`${command} ${p}\``).join(" or ");
  if (word === undefined || word.startsWith("-"))
    throw new UsageError(`name the platform first: ${choices}.\n${usage}`);
  if (!(platforms as readonly string[]).includes(word))
    throw new UsageError(`unknown platform ${JSON.stringify(word)}: use ${choices}.\n${usage}`);
  return { platform: word as P, flags };
}

/** `--report` (required) and `--token-env` (a variable's name), checked; shared by comment and issue. */
export function checkPipelineFlags(values: FlagValues, usage: string): { report: string; tokenEnv?: string } {
  const report = stringFlag(values, "report");
  if (!report)
    throw new UsageError(
      `--report is required: give the drift review's JSON report (\`drift … --report review.json\`).\n${usage}`,
    );
  const tokenEnv = stringFlag(values, "token-env");
  if (tokenEnv !== undefined && !VARIABLE_NAME.test(tokenEnv))
    throw new UsageError(`--token-env must name a variable (letters, digits, _), got ${JSON.stringify(tokenEnv)}.`);
  return { report, ...(tokenEnv === undefined ? {} : { tokenEnv }) };
}

/** `--report`'s review, read from where the user typed the command (`npm run` and `npx` leave it in INIT_CWD). */
export const reportFlag = (file: string, env: NodeJS.ProcessEnv, cwd: string): Review =>
  readReviewReport(resolve(env.INIT_CWD || cwd, file), file);

/** A pipeline command's steps: parse and check (nothing read), load (the report and the CI's variables), act. */
export interface PipelineSteps<Request, Args> {
  check(argv: readonly string[]): Request | "help";
  load(request: Request): Args;
  /** Sends the requests; resolves with the line to print. */
  act(args: Args, request: Request): Promise<string>;
}

/**
 * A pipeline command from its steps: bad input and API errors print their message (never a
 * token: pipeline/ leaves it out) and exit 1; bad input is found before any request is sent.
 */
export function pipelineCommand<Request, Args>(
  name: string,
  usage: string,
  steps: PipelineSteps<Request, Args>,
): Command {
  return {
    usage,
    async run(argv) {
      try {
        const request = steps.check(argv);
        if (request === "help") {
          process.stdout.write(`${usage}\n`);
          return 0;
        }
        process.stdout.write(`${await steps.act(steps.load(request), request)}\n`);
        return 0;
      } catch (err) {
        if (err instanceof UsageError || err instanceof PipelineInputError || err instanceof PipelineApiError) {
          process.stderr.write(`${name}: ${err.message}\n`);
          return 1;
        }
        throw err;
      }
    },
  };
}
