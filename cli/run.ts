/**
 * `webhook-subscriptions preview|up|refresh|destroy --cwd <dir> --stack <name> [--fast]`: runs a
 * Pulumi program directory in-process through the Automation API, on the real engine. For
 * machines without the Node.js language host (`pulumi up` there says "no language plugin
 * 'pulumi-language-nodejs' found"); the program, Pulumi.yaml, stack config, backend and
 * passphrase are the directory's and the environment's own, exactly as `pulumi` would use them.
 */
import { Stack, StackNotFoundError } from "@pulumi/pulumi/automation";
import { projectWorkspace } from "../engine/automation";
import { displayBackend } from "../engine/backend";
import { engineOutput, failureLine } from "../engine/output";
import { provisionEngine } from "../engine/provision";
import { existingStacksSentence, stackNames } from "../engine/stackNames";
import { directoryFlag, parseFlags, stringFlag, UsageError, type Command } from "./command";

/** The operations the runner offers, with what each does. */
export const OPERATIONS = {
  preview: "show what `up` would change",
  up: "create or update the stack's resources",
  refresh: "read every resource back from the instance into the state",
  destroy: "delete every resource of the stack",
} as const;
export type Operation = keyof typeof OPERATIONS;

const usage = (
  operation: Operation,
) => `usage: webhook-subscriptions ${operation} --stack <name> [--cwd <program directory>] [--fast]

${OPERATIONS[operation][0]?.toUpperCase()}${OPERATIONS[operation].slice(1)}, running the program in-process (no Node.js language host needed).
  --stack  the stack (only \`up\` creates a missing one)
  --cwd    the program directory, holding Pulumi.yaml (default: the current directory);
           TypeScript or JavaScript: Pulumi.yaml's main, package.json's main, index.ts or index.js
  --fast   skip intermediate checkpoints (PULUMI_SKIP_CHECKPOINTS=true): faster for large stacks,
           but an interrupted run leaves less in the state to recover from
The backend and the passphrase come from the environment, as for \`pulumi\` (PULUMI_BACKEND_URL,
PULUMI_CONFIG_PASSPHRASE), else from Pulumi.yaml's backend.url or the CLI's login.`;

function say(line: string): void {
  process.stderr.write(`[webhook-subscriptions] ${line}\n`);
}

/**
 * Opens the stack: only `up` creates a missing one (as `pulumi up` after `pulumi stack init`
 * would), saying so; the others refuse it, listing the stacks that exist, so a mistyped name
 * never creates a stack nor makes it current.
 */
async function openStack(operation: Operation, stackName: string, workspace: Stack["workspace"]): Promise<Stack> {
  try {
    return await Stack.select(stackName, workspace);
  } catch (err) {
    if (!(err instanceof StackNotFoundError)) throw err;
  }
  if (operation === "up") {
    const stack = await Stack.create(stackName, workspace);
    say(`created stack "${stackName}": it did not exist`);
    return stack;
  }
  const names = await stackNames(workspace);
  throw new UsageError(
    `--stack: no stack named "${stackName}" here, and only \`up\` creates one. ` +
      existingStacksSentence(names, `webhook-subscriptions up --stack ${stackName}`),
  );
}

/** The runner for one operation. */
export function runCommand(operation: Operation): Command {
  const text = usage(operation);
  return {
    usage: text,
    async run(argv) {
      const values = parseFlags(
        argv,
        { stack: { type: "string" }, cwd: { type: "string" }, fast: { type: "boolean" } },
        text,
      );
      if (values === "help") {
        process.stdout.write(`${text}\n`);
        return 0;
      }
      const stackName = stringFlag(values, "stack");
      if (!stackName) throw new UsageError(`--stack is required: name the stack to ${operation}.\n${text}`);
      const workDir = directoryFlag(values, "cwd");

      const engine = await provisionEngine({ log: (line) => say(`engine: ${line}`) });
      const env = values.fast ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
      const { workspace, backend } = await projectWorkspace({ engine, workDir, env });
      const stack = await openStack(operation, stackName, workspace);
      say(`${operation} of stack "${stackName}" (program ${workDir}, state in ${displayBackend(backend)})`);

      const output = engineOutput(process.stdout, process.stderr);
      const options = { color: process.stdout.isTTY ? ("always" as const) : ("never" as const), ...output.callbacks };
      try {
        if (operation === "preview") await stack.preview(options);
        else if (operation === "up") await stack.up(options);
        // With the program, as `up` does: the providers get the current settings, not the state's
        // record of the last `up`'s (a rotated token works at once; docs/security.md).
        else if (operation === "refresh") await stack.refresh({ ...options, runProgram: true });
        else await stack.destroy({ ...options, runProgram: true });
        output.flush();
        return 0;
      } catch (err) {
        output.flush();
        // The engine's own lines were streamed already; one line says what failed, not the whole output again.
        say(`${operation} failed: ${failureLine(err, output.printedErrors)}`);
        return 1;
      }
    },
  };
}
