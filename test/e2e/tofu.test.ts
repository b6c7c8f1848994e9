/**
 * The run's Terraform-compatible CLIs (test/support/terraformClis.ts): the tofu the global setup
 * provisioned, pinned and cached outside the repository, and the machine's `terraform` when on PATH.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { expect, it } from "vitest";
import { TOFU_VERSION } from "../../engine/tofu";
import { REPO_ROOT } from "../support/engine";
import { cliEnv, requireTofu, terraformClis } from "../support/terraformClis";

it("tofu is the pinned OpenTofu, a release build (no -dev), outside the repository", () => {
  const tofu = requireTofu();
  expect(tofu.version).toBe(TOFU_VERSION);
  expect(relative(REPO_ROOT, tofu.path).startsWith("..")).toBe(true);
  const said = execFileSync(tofu.path, ["version"], { env: cliEnv(), encoding: "utf8" });
  expect(said.split("\n")[0]).toBe(`OpenTofu v${TOFU_VERSION}`);
});

it("the CLIs to test with are tofu, then the terraform on PATH when there is one", async () => {
  const clis = await terraformClis();
  expect(clis[0]).toMatchObject({ name: "tofu", version: TOFU_VERSION });
  const onPath = (process.env.PATH ?? "").split(":").some((dir) => dir && existsSync(`${dir}/terraform`));
  expect(clis.map((cli) => cli.name)).toEqual(onPath ? ["tofu", "terraform"] : ["tofu"]);
  for (const cli of clis) {
    const said = JSON.parse(execFileSync(cli.path, ["version", "-json"], { env: cliEnv(), encoding: "utf8" })) as {
      terraform_version: string;
    };
    expect(said.terraform_version).toBe(cli.version);
  }
});
