/**
 * How a printed command runs this tool, so that it can be pasted as it is: from the npm package,
 * `npx webhook-subscriptions …`; from the release's single executable, which the CLI archives
 * name `webhook-subscriptions`, that name alone. The command line's entry knows which (cli/index.ts
 * `main`, from its host: the launcher tells it it is the executable) and passes it down to what
 * prints a command, such as the drift report's footer (drift/markdown.ts).
 */

/** `package`: the npm package (npx, a global install, a checkout); `executable`: the single executable. */
export type Invocation = "package" | "executable";

/** The command's name: the package's bin, and the executable of the CLI archives. */
const CLI_NAME = "webhook-subscriptions";

/** What a printed command starts with, e.g. `npx webhook-subscriptions` before `drift --stack prod`. */
export function commandPrefix(invocation: Invocation = "package"): string {
  return invocation === "executable" ? CLI_NAME : `npx ${CLI_NAME}`;
}
