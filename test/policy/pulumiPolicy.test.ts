/**
 * `@pulumi/policy` is an optional peer dependency: without it, the policy entry point says which
 * package to install (test/e2e/package.test.ts requires the entry from the packed tarball in a
 * project that lacks it).
 */
import { describe, expect, it } from "vitest";
import { loadPulumiPolicy, MissingPolicyPeerError } from "../../policy/pulumiPolicy";

/** Node's error for a module that cannot be found, as `require` throws it. */
function notFound(id: string): Error {
  return Object.assign(new Error(`Cannot find module '${id}'\nRequire stack:\n- /project/index.js`), {
    code: "MODULE_NOT_FOUND",
  });
}

describe("loadPulumiPolicy", () => {
  it("returns @pulumi/policy when it is installed", () => {
    expect(loadPulumiPolicy().PolicyPack).toBeTypeOf("function");
  });

  it("without it: which package to install and how, with no trace of Node's message", () => {
    const thrown = (() => {
      try {
        loadPulumiPolicy(() => {
          throw notFound("@pulumi/policy");
        });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(MissingPolicyPeerError);
    const error = thrown as MissingPolicyPeerError;
    expect(error.code).toBe("ERR_MISSING_PEER_DEPENDENCY");
    expect(error.message).toMatch(
      /^pulumi-webhook-subscriptions\/policy needs @pulumi\/policy: run `npm install @pulumi\/policy`/,
    );
    expect(error.cause).toBeUndefined();
    expect(`${error.stack}`).not.toContain("Cannot find module");
  });

  it("a module @pulumi/policy itself cannot find is not mistaken for its absence", () => {
    const inner = notFound("protobufjs");
    expect(() =>
      loadPulumiPolicy(() => {
        throw inner;
      }),
    ).toThrow(inner);
    const other = new SyntaxError("Unexpected token");
    expect(() =>
      loadPulumiPolicy(() => {
        throw other;
      }),
    ).toThrow(other);
  });
});
