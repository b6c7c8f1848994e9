/**
 * The JVM settings of every Maven run a test starts (vitest.config.mts `env`): its own `mvn`, a
 * page's command, the release's `npm run dist:maven`. A Maven build here lasts seconds, and C2
 * spends most of its CPU compiling code the build leaves before it runs hot: with C1 alone and the
 * serial collector, sdk/java's install and examples/java's package take 9–11 s of CPU instead of 18.5–21.
 * Only Maven's JVM: the programs' JVMs (`java -jar`, through the language host) keep their defaults.
 */
export const MAVEN_JVM_ENV = { MAVEN_OPTS: "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" } as const;
