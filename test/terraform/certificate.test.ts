/**
 * The AutoMTLS server certificate, judged by Go's own parser and verifier (certcheck/main.go, run
 * with the machine's `go`), as go-plugin's client in Terraform and OpenTofu judges it: many
 * certificates, each with its own key as each launch makes one, so that a rare malformed encoding
 * (a serial number's sign byte, say) shows.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "../../engine/goBuild";
import { serverCertificate } from "../../provider/terraform/goPlugin/certificate";
import { handshakeLine } from "../../provider/terraform/goPlugin/handshake";

const LAUNCHES = 300;

describe("the AutoMTLS server certificate", () => {
  it(`is accepted by Go's crypto/x509 for localhost, ${LAUNCHES} launches in a row`, async () => {
    const lines: string[] = [];
    for (let i = 0; i < LAUNCHES; i++)
      lines.push(handshakeLine("127.0.0.1:1", (await serverCertificate()).der).split("|")[5]!);
    expect(lines.every((line) => !line.endsWith("="))).toBe(true);
    const verdict = execFileSync("go", ["run", ...GO_BUILD_FLAGS, "."], {
      cwd: join(__dirname, "certcheck"),
      input: `${lines.join("\n")}\n`,
      encoding: "utf8",
      env: { ...process.env, ...GO_BUILD_ENV, GOFLAGS: "-mod=mod" },
    });
    expect(verdict.trim()).toBe(`ok ${LAUNCHES}`);
  }, 120_000);

  it("makes a new key each time", async () => {
    const [a, b] = await Promise.all([serverCertificate(), serverCertificate()]);
    expect(a.privateKeyPem).not.toBe(b.privateKeyPem);
  });
});
