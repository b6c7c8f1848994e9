/**
 * What every Go build here shares: the engine's CLI and language hosts, tofu, tfplugindocs, the Go
 * SDK's generator, the tests' Go helpers and (the tests' environment: vitest.config.mts) the Go
 * programs the tests build. Go's build cache keys each compiled package by these settings too, so
 * with the same ones a build reuses every package an earlier build compiled: the Go SDK's
 * generator (scripts/genSdk.ts) takes 4 s of CPU after the CLI's build instead of 200.
 */

/**
 * The environment of a build: no cgo (pure Go binaries, and no C compiler needed), and the Go on
 * PATH, never another toolchain fetched behind the user's back.
 */
export const GO_BUILD_ENV = { CGO_ENABLED: "0", GOTOOLCHAIN: "local" } as const;

/** `go build`'s and `go run`'s flags: no machine paths in the binaries (reproducible builds). */
export const GO_BUILD_FLAGS = ["-trimpath"] as const;
