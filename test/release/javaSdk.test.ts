/**
 * scripts/javaSdk.ts: the Maven build of sdk/java, and
 * examples/java's pom pinned as sdk/java's is (Maven 3.8's default plugins target Java 5).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { javaBuildFiles, MAVEN_PLUGINS } from "../../scripts/javaSdk";
import { packageSchema } from "../../scripts/packageSchema";
import { REPO_ROOT } from "../support/engine";

const schema = packageSchema();

/** Each `<plugin>` of a pom: artifactId and version (undefined when unpinned). */
function pomPlugins(pom: string): [string, string | undefined][] {
  return [...pom.matchAll(/<plugin>([\s\S]*?)<\/plugin>/g)].map(([, body]) => [
    /<artifactId>(.+?)<\/artifactId>/.exec(body!)![1]!,
    /<version>(.+?)<\/version>/.exec(body!)?.[1],
  ]);
}

it("names the public home's Maven coordinates and Java package, never com.pulumi's", () => {
  expect(schema.language.java).toMatchObject({ basePackage: "io.github.webhooksubscriptions" });
  const pom = javaBuildFiles(schema)["pom.xml"]!;
  expect(pom).toContain(
    `<groupId>io.github.webhook-subscriptions</groupId>\n  <artifactId>webhooks</artifactId>\n  <version>${schema.version}</version>`,
  );
});

it("the plugin.json resource names the plugin, the schema's version and download address", () => {
  const files = javaBuildFiles(schema);
  expect(JSON.parse(files["src/main/resources/io/github/webhooksubscriptions/webhooks/plugin.json"]!)).toEqual({
    resource: true,
    name: "webhooks",
    version: schema.version,
    server: schema.pluginDownloadURL,
  });
});

it.each([
  ["sdk/java/pom.xml", () => javaBuildFiles(schema)["pom.xml"]!],
  ["examples/java/pom.xml", () => readFileSync(join(REPO_ROOT, "examples/java/pom.xml"), "utf8")],
])("%s pins every Maven plugin it names, at the versions scripts/javaSdk.ts pins", (_file, pom) => {
  const plugins = pomPlugins(pom());
  expect(plugins.length).toBeGreaterThan(0);
  // A plugin is pinned where it is named, or in <pluginManagement>.
  const pinned = new Map(plugins.filter(([, version]) => version));
  for (const [name] of plugins) {
    expect(pinned.get(name), `${name} has a <version>`).toBeDefined();
    if (name in MAVEN_PLUGINS) expect(pinned.get(name), name).toBe(MAVEN_PLUGINS[name as keyof typeof MAVEN_PLUGINS]);
  }
});
