/**
 * The Java runtimes the Java SDK is tested on: the machine's `java` (17 here) and a newer one (21
 * or later, where the SDK's runner needs the common ForkJoinPool's parallelism raised on 2-core
 * machines: docs/native-provider.md, "Java").
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The JDK folders looked at, newest first: GitHub's runners name theirs in JAVA_HOME_<n>_X64. */
const CANDIDATES = (): string[] => [
  ...["25", "21"].map((n) => process.env[`JAVA_HOME_${n}_X64`] ?? ""),
  ...(existsSync("/usr/lib/jvm")
    ? readdirSync("/usr/lib/jvm")
        .filter((name) => /-(2[1-9]|[3-9]\d)(\D|$)/.test(name))
        .sort()
        .reverse()
        .map((name) => join("/usr/lib/jvm", name))
    : []),
];

/** The `bin` folder of a JDK 21 or later; throws, saying where it looked, when there is none. */
export function newerJavaBin(): string {
  const home = CANDIDATES().find((dir) => dir && existsSync(join(dir, "bin", "java")));
  if (!home)
    throw new Error(
      "No JDK 21 or later: looked at $JAVA_HOME_25_X64, $JAVA_HOME_21_X64 and /usr/lib/jvm/*-2x*. Install one " +
        "(e.g. Temurin 25) to test the Java SDK beyond the default java.",
    );
  return join(home, "bin");
}

/** The setting docs/native-provider.md gives Java 21+ users on machines with fewer than 3 cores. */
export const FORK_JOIN_SETTING = "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2";
