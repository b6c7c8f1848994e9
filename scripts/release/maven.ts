/**
 * `npm run dist:maven`: `dist/release/maven/`, the Java SDK (sdk/java) as a Maven repository
 * holds it (`io/github/webhook-subscriptions/webhooks/<v>/`: the jar, its sources and javadoc jars,
 * the pom, Maven's `.sha1`/`.md5` beside each, and `maven-metadata.xml`), written by `mvn deploy`
 * to a `file://` repository, in a scratch copy: building writes `target/` into the source. Tests
 * use it as a user's repository; release.yml signs it and uploads it to Maven Central. Maven
 * resolves the Pulumi SDK and the pinned plugins into ~/.m2 (the first time on a machine ~20 s,
 * 70 MB; then ~12 s wall, mostly javadoc).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { MAVEN_ARTIFACT } from "../javaSdk";
import { publicHome } from "../packageSchema";
import { describe, releaseDir, releaseVersion, ROOT, runStep } from "./release";

/** The release's Maven repository, under dist/release/. */
const MAVEN_DIR = "maven";

runStep(async () => {
  const version = releaseVersion();
  const repository = path.join(releaseDir(), MAVEN_DIR);
  rmSync(repository, { recursive: true, force: true });
  const work = mkdtempSync(path.join(tmpdir(), "dist-maven-"));
  try {
    const source = path.join(work, "java");
    cpSync(path.join(ROOT, "sdk/java"), source, { recursive: true });
    // deploy without install: the release's jar never lands in ~/.m2, where a test would find it
    // instead of the release's.
    execFileSync(
      "mvn",
      [
        "--batch-mode",
        "--quiet",
        "--no-transfer-progress",
        "-Dstyle.color=never",
        "deploy",
        "-Dmaven.install.skip=true",
        `-DaltDeploymentRepository=release::${pathToFileURL(repository).href}`,
      ],
      { cwd: source, stdio: ["ignore", "inherit", "inherit"] },
    );
    const dir = path.join(repository, ...publicHome().mavenGroup.split("."), MAVEN_ARTIFACT, version);
    const jars = readdirSync(dir).filter((name) => name.endsWith(".jar") || name.endsWith(".pom"));
    if (jars.length !== 4)
      throw new Error(`dist:maven: expected the jar, sources, javadoc and pom in ${dir}, found ${jars.join(", ")}`);
    for (const name of jars.sort()) console.log(describe(path.join(dir, name)));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
