/**
 * The Java the pages show is the Java the tests run: each `java` block of docs/native-provider.md
 * is a part of examples/java's program and each `xml` block a part of its pom.xml, both of which
 * test/e2e/install.test.ts builds from the release's Maven repository and runs with `pulumi up`;
 * README's `mvn` line it runs as written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";
import { shellBlocks } from "../support/shellBlocks";

const read = (file: string) => readFileSync(join(REPO_ROOT, file), "utf8");
/** Text with every run of white space one space: the pages indent differently. */
const squeezed = (text: string) => text.replace(/\s+/g, " ").trim();
const PAGE = "docs/native-provider.md";

it.each([
  ["java", "examples/java/src/main/java/example/App.java"],
  ["xml", "examples/java/pom.xml"],
])(`${PAGE}: every %s block is a part of %s`, (language, file) => {
  const blocks = shellBlocks(read(PAGE), language);
  expect(blocks.length, `${PAGE} shows ${language}`).toBeGreaterThan(0);
  for (const block of blocks) expect(squeezed(read(file))).toContain(squeezed(block.script));
});

it("README's Java install line fetches the artifact examples/java depends on", () => {
  const line = shellBlocks(read("README.md"))
    .flatMap((block) => block.script.split("\n"))
    .find((text) => text.endsWith("# Java"));
  const version = (JSON.parse(read("package.json")) as { version: string }).version;
  expect(line).toContain(`-Dartifact=io.github.webhook-subscriptions:webhooks:${version}`);
  expect(squeezed(read("examples/java/pom.xml"))).toContain(
    squeezed(
      `<groupId>io.github.webhook-subscriptions</groupId> <artifactId>webhooks</artifactId> <version>${version}</version>`,
    ),
  );
});
