/** The pipelines docs/drift.md shows, as YAML blocks: the GitHub workflows and the GitLab job. */
import { shellBlocks } from "./shellBlocks";

export interface PipelineBlocks {
  /** Workflows (a `jobs:` key): code scanning first, then the matrix. */
  readonly github: readonly string[];
  /** The GitLab job (`drift:`). */
  readonly gitlab: string;
}

/** The page's pipelines; throws when the page does not hold two workflows and one GitLab job. */
export function pipelineBlocks(page: string): PipelineBlocks {
  const yaml = shellBlocks(page, "yaml").map((b) => b.script);
  const github = yaml.filter((y) => /^jobs:/m.test(y));
  const gitlab = yaml.find((y) => /^drift:/m.test(y));
  if (github.length !== 2 || gitlab === undefined)
    throw new Error(
      `docs/drift.md: expected 2 GitHub workflows and 1 GitLab job, found ${github.length} and ${gitlab ? 1 : 0}`,
    );
  return { github, gitlab };
}
