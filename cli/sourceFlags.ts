/**
 * The flags that name a review's sources, the same for `drift` and `adopt` (whose sources are the
 * ones whose subscriptions it must not adopt again): one definition, in both commands' tables.
 */
import type { FlagTable } from "./command";

export const SOURCE_FLAGS = {
  stack: {
    type: "string",
    multiple: true,
    arg: "<name>",
    description:
      "a Pulumi stack of the project in --cwd (`pulumi stack ls` lists them): its state, a\nrefresh preview, and a preview of its program through the team's `pulumi`",
  },
  terraform: {
    type: "string",
    multiple: true,
    arg: "<dir>",
    description:
      "an initialised Terraform/OpenTofu working directory: its state and configuration,\nthrough one plan that is never applied and writes no state (tofu on PATH, else terraform)",
  },
  "terraform-state": {
    type: "string",
    multiple: true,
    arg: "<file>",
    description: "a state file (format 4) or `tofu show -json`'s output: state only",
  },
  cwd: {
    type: "string",
    arg: "<program directory>",
    description: "the Pulumi program directory, holding Pulumi.yaml (default: the current directory)",
  },
  "terraform-cli": {
    type: "string",
    arg: "<path>",
    description: "the tofu or terraform executable to plan with (default: tofu, else terraform, on PATH)",
  },
} as const satisfies FlagTable;
