/**
 * .github/workflows/: actionlint finds nothing, and each workflow calls the npm scripts a developer
 * runs (docs/release.md) rather than steps of its own.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { PULUMI_VERSION } from "../../engine/provision";
import { TARGET_PACKAGES } from "../../scripts/release/targets";
import { actionlint, ACTIONLINT_VERSION } from "../support/actionlint";
import { REPO_ROOT } from "../support/engine";

const execFileAsync = promisify(execFile);
const WORKFLOWS = join(REPO_ROOT, ".github", "workflows");
const read = (name: string) => readFileSync(join(WORKFLOWS, name), "utf8");

it(`actionlint ${ACTIONLINT_VERSION} passes every workflow`, async () => {
  const binary = await actionlint();
  const files = readdirSync(WORKFLOWS).map((name) => join(WORKFLOWS, name));
  expect(files.length).toBeGreaterThanOrEqual(2);
  // Exit 1 with one line per finding; the rejection carries them.
  const { stdout, stderr } = await execFileAsync(binary, ["-color=false", ...files], { cwd: REPO_ROOT });
  expect(stdout + stderr).toBe("");
}, 600_000);

it("ci.yml runs the README's test command on push and pull request, on Node 20 and the current LTS", () => {
  const ci = read("ci.yml");
  expect(ci).toMatch(/^ {2}push:/m);
  expect(ci).toMatch(/^ {2}pull_request:/m);
  expect(ci).toContain('node: ["20", "lts/*"]');
  expect(ci).toContain("- run: npm test");
  expect(ci).toContain("path: ~/.cache/pulumi-webhook-subscriptions");
});

/** The `pulumi/actions` step and the CLI version it installs. */
const OFFICIAL_INSTALL =
  /- name: Pulumi CLI \(official install\)\n\s+uses: pulumi\/actions@v7\n\s+with:\n\s+pulumi-version: (\S+)\n/;

it.each(["ci.yml", "release.yml"])(
  `%s installs the official Pulumi CLI ${PULUMI_VERSION} with its language hosts, and builds none from source`,
  (name) => {
    const workflow = read(name);
    expect(workflow.match(OFFICIAL_INSTALL)?.[1]).toBe(PULUMI_VERSION);
    // Provisioning takes that pulumi from PATH; a source folder is for machines without internet (.ci/run).
    expect(workflow).not.toContain("LANGUAGE_HOST_SOURCE_REPOSITORY");
    expect(workflow).not.toContain("WEBHOOKS_LANGUAGE_HOST_SOURCE");
    expect(workflow).not.toContain("engine-src");
  },
);

it("ci.yml removes the runner image's own Pulumi and hosts before the official install", () => {
  // Else /usr/local/bin's newest pulumi-language-* answer for the hosts install.test's users lack.
  const ci = read("ci.yml");
  const removed = ci.indexOf("run: sudo rm -f /usr/local/bin/pulumi /usr/local/bin/pulumi-*\n");
  expect(removed).toBeGreaterThan(0);
  expect(removed).toBeLessThan(ci.search(OFFICIAL_INSTALL));
});

it("release.yml: on a v* tag, npm run dist, then the GitHub release, npm with provenance, PyPI, the Go sdk/ tag", () => {
  const release = read("release.yml");
  expect(release).toContain('tags: ["v*"]');
  expect(release).toContain("- run: npm run dist");
  expect(release).toMatch(/gh release create .*SHA256SUMS/s);
  // The plugin's archives and the CLI's (tar.gz, and zip on Windows) are the GitHub release's assets.
  const assets = /gh release create "\$GITHUB_REF_NAME" --title[^\n]*\\\n((?:.*\\\n)*.*)/.exec(release)?.[1] ?? "";
  for (const asset of [
    "pulumi-resource-webhooks-v*.tar.gz",
    "webhook-subscriptions-v*.tar.gz",
    "webhook-subscriptions-v*.zip",
    "SHA256SUMS",
  ])
    expect(assets).toContain(asset);
  expect(release).toContain("https://central.sonatype.com/api/v1/publisher/upload");
  expect(release).toContain("--detach-sign");
  expect(release).toContain("npm publish --provenance");
  expect(release).toContain("pypa/gh-action-pypi-publish@release/v1");
  expect(release).toContain('git push origin "sdk/$GITHUB_REF_NAME"');
});

it.each(["ci.yml", "release.yml"])(
  "%s installs with sudo what `npm run dist` and the platforms test would install as root only",
  (name) => {
    // llvm-strip strips the linux executables; linux-arm64's and windows-amd64's Node.js make
    // their code caches (and start in the platforms test) under qemu and wine. aptInstall throws
    // for anyone but root, and a GitHub runner is not root.
    const apt = /sudo apt-get install --yes --no-install-recommends (.*)/.exec(read(name))?.[1]?.split(" ");
    expect(apt).toEqual(expect.arrayContaining(["llvm", ...Object.values(TARGET_PACKAGES).flat()]));
  },
);

it("release.yml gives gpg the signing passphrase in a private file, never on a command line other processes can read", () => {
  const release = read("release.yml");
  expect(release).toContain('--passphrase-file "$passphrase_file"');
  expect(release).toContain("umask 077");
  expect(release).not.toMatch(/--passphrase[ =]"?\$/);
});

it("release.yml: npm run dist gets the Terraform signing key in its environment, and the companion repository gets the registry artifacts on the same tag", () => {
  const release = read("release.yml");
  const dist = /- run: npm run dist\n\s+env:\n((?:\s+\w+: .*\n)+)/.exec(release)?.[1] ?? "";
  expect(dist).toContain("WEBHOOKS_RELEASE_GPG_KEY: ${{ secrets.TERRAFORM_GPG_PRIVATE_KEY }}");
  expect(dist).toContain("WEBHOOKS_RELEASE_GPG_PASSPHRASE: ${{ secrets.TERRAFORM_GPG_PASSPHRASE }}");
  // Never on gpg's command line: only scripts/release/gpgSign.ts reads them, and hands them over on stdin.
  expect(release).not.toContain("$WEBHOOKS_RELEASE_GPG");
  const job = release.slice(release.indexOf("\n  terraform-provider:\n"));
  expect(job).toContain("needs: dist");
  expect(job).toContain(
    'gh release create "$GITHUB_REF_NAME" --repo webhook-subscriptions/terraform-provider-webhooks',
  );
  for (const asset of ['"_*.zip', '_SHA256SUMS"', '_SHA256SUMS.sig"', '_manifest.json"'])
    expect(job).toContain(`"terraform-provider-webhooks_\${version}${asset}`);
  expect(job).toContain('test -s "terraform-provider-webhooks_${version}_SHA256SUMS.sig"');
});
