/**
 * The stacks a project has, for the message that refuses a stack name it does not have: only
 * `up` creates a stack, so a mistyped `--stack` on any other command is an error that lists the
 * names that would have worked.
 */
import type { Workspace } from "@pulumi/pulumi/automation";

/** The names of the stacks of the workspace's project in its backend, sorted. */
export async function stackNames(workspace: Workspace): Promise<string[]> {
  return (await workspace.listStacks()).map((stack) => stack.name).sort();
}

/**
 * The sentence naming the stacks that exist: `The stacks here: dev, prod.`, or that there are
 * none and `up` creates one.
 * @param create the command that creates a stack, e.g. ``webhook-subscriptions up --stack <name>``.
 */
export function existingStacksSentence(names: readonly string[], create: string): string {
  return names.length === 0
    ? `This project has no stack here yet: \`${create}\` creates one.`
    : `The stacks here: ${names.join(", ")}.`;
}
