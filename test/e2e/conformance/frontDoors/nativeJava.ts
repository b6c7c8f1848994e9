/**
 * Front door 4: the native plugin `webhooks`, from a Java program on the generated SDK
 * (sdk/java of the plugin's checkout, `mvn install`ed into ~/.m2), run by the Java language host
 * as one jar (`runtime: {name: java, options: {binary: …}}`, as examples/java): built once per
 * run with examples/java's pom. The program reads the scenario's subscriptions from
 * subscriptions.json (fixtures/java/conformance/App.java), so a scenario's program costs no Maven
 * build; the plugin the YAML door uses (../builds.ts), by path.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { dump } from "js-yaml";
import { run } from "../../../support/commands";
import { REPO_ROOT } from "../../../support/engine";
import { eventName, type FrontDoor } from "../frontDoor";

const MAVEN = ["--batch-mode", "--quiet", "-Dstyle.color=never"];

export const nativeJava: FrontDoor = {
  name: "native plugin (Java)",
  languageHosts: ["pulumi-language-java", "pulumi-language-nodejs"],
  type: "webhooks:index:WebhookSubscription",
  // What the Java SDK itself carries, within CI's budget (all seven took 367 s): inputs and the
  // adoption fields, a replacement, and secrets. The others (a lost Subscribe, an instance that
  // moved, legacy mode, refresh on a 404) are the one core's and the client's, the same for every
  // door, and run through the other three.
  scenarios: [
    "one owner per subscription (its own beside an identical one, adoptGuid, the adoptIdentical opt-in)",
    "signature rotation: a new subscription before the old one goes",
    "redaction: no secret in plaintext in state, output or errors",
  ],

  async prepare(root, builds): Promise<string> {
    const { checkout, plugin } = await builds.nativePlugin();
    const project = join(root, "conformance-java");
    mkdirSync(join(project, "src", "main", "java", "example"), { recursive: true });
    copyFileSync(join(REPO_ROOT, "examples", "java", "pom.xml"), join(project, "pom.xml"));
    copyFileSync(
      join(REPO_ROOT, "test", "e2e", "fixtures", "java", "conformance", "App.java"),
      join(project, "src", "main", "java", "example", "App.java"),
    );
    const started = Date.now();
    const skip = ["-Dmaven.javadoc.skip=true", "-Dmaven.source.skip=true"];
    await run("mvn", [...MAVEN, "-f", join(checkout, "sdk", "java", "pom.xml"), "install", ...skip], project);
    await run("mvn", [...MAVEN, "package"], project);
    console.log(
      `[conformance java] sdk/java installed, the program's jar built: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    writeFileSync(
      join(project, "Pulumi.yaml"),
      dump({
        name: "conformance-java",
        runtime: { name: "java", options: { binary: "target/webhooks-java.jar" } },
        plugins: { providers: [{ name: "webhooks", path: plugin }] },
      }),
    );
    nativeJava.declare(project, {});
    return project;
  },

  declare(project, subscriptions): void {
    // The event by name: the SDK's Webhook constants are named as the events (App.java's valueOf).
    const named = Object.fromEntries(
      Object.entries(subscriptions).map(([name, declared]) => [
        name,
        { ...declared, webhook: eventName(declared.webhook) },
      ]),
    );
    writeFileSync(join(project, "subscriptions.json"), `${JSON.stringify(named, null, 2)}\n`);
  },
};
