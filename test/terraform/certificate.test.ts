/**
 * The AutoMTLS server certificate, judged by Go's own parser and verifier (certcheck/main.go, run
 * with the machine's `go`), as go-plugin's client in Terraform and OpenTofu judges it: many
 * certificates, each with its own key as each launch makes one, so that a rare malformed encoding
 * (a serial number's sign byte, say) shows.
 */
import { execFileSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { join } from "node:path";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  ExtendedKeyUsage,
  Extension,
  Extensions,
  GeneralName,
  id_ce_basicConstraints,
  id_ce_extKeyUsage,
  id_ce_keyUsage,
  id_ce_subjectAltName,
  id_kp_clientAuth,
  id_kp_serverAuth,
  KeyUsage,
  KeyUsageFlags,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from "@peculiar/asn1-x509";
import { describe, expect, it } from "vitest";
import { GO_BUILD_ENV, GO_BUILD_FLAGS } from "../../engine/goBuild";
import {
  certificate,
  launchFields,
  serverCertificate,
  tbsCertificate,
  type CertificateFields,
} from "../../provider/terraform/goPlugin/certificate";
import { handshakeLine } from "../../provider/terraform/goPlugin/handshake";

/** The same certificate built with @peculiar/asn1-x509's structures and @peculiar/asn1-schema's DER: the oracle. */
function byLibrary(fields: CertificateFields): { tbs: TBSCertificate; signature: AlgorithmIdentifier } {
  const signature = new AlgorithmIdentifier({ algorithm: "1.2.840.10045.4.3.2" });
  const name = () =>
    new Name(
      [
        ["2.5.4.3", "localhost"],
        ["2.5.4.10", "webhook-subscriptions"],
      ].map(
        ([type, value]) =>
          new RelativeDistinguishedName([
            new AttributeTypeAndValue({ type: type!, value: new AttributeValue({ utf8String: value! }) }),
          ]),
      ),
    );
  const extension = (extnID: string, critical: boolean, value: unknown) =>
    new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: new Uint8Array(fields.serial).buffer,
    signature,
    issuer: name(),
    validity: new Validity({ notBefore: fields.notBefore, notAfter: fields.notAfter }),
    subject: name(),
    subjectPublicKeyInfo: AsnConvert.parse(fields.subjectPublicKeyInfo, SubjectPublicKeyInfo),
    extensions: new Extensions([
      extension(id_ce_basicConstraints, true, new BasicConstraints({ cA: true })),
      extension(
        id_ce_keyUsage,
        true,
        new KeyUsage(
          KeyUsageFlags.digitalSignature |
            KeyUsageFlags.keyEncipherment |
            KeyUsageFlags.keyAgreement |
            KeyUsageFlags.keyCertSign,
        ),
      ),
      extension(id_ce_extKeyUsage, false, new ExtendedKeyUsage([id_kp_clientAuth, id_kp_serverAuth])),
      extension(id_ce_subjectAltName, false, new SubjectAlternativeName([new GeneralName({ dNSName: "localhost" })])),
    ]),
  });
  return { tbs, signature };
}

/** Fields as a launch makes them, at `now`, for a new key. */
function fieldsAt(now: Date): CertificateFields {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return launchFields(now, publicKey.export({ type: "spki", format: "der" }));
}

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

  it("is the DER @peculiar/asn1-x509 writes for the same fields, byte for byte (UTCTime and GeneralizedTime alike)", () => {
    // Now; a validity ending exactly at 2050 (GeneralizedTime from there); one starting there.
    for (const now of [new Date(), new Date("2020-01-01T12:00:00Z"), new Date("2050-01-01T00:00:30Z")]) {
      const fields = fieldsAt(now);
      const { tbs, signature } = byLibrary(fields);
      const ours = tbsCertificate(fields);
      expect(ours.toString("hex")).toBe(Buffer.from(AsnConvert.serialize(tbs)).toString("hex"));
      const ecdsaSignature = Buffer.from("3045022100" + "11".repeat(32) + "0220" + "22".repeat(32), "hex");
      const whole = new Certificate({
        tbsCertificate: tbs,
        signatureAlgorithm: signature,
        signatureValue: new Uint8Array(ecdsaSignature).buffer,
      });
      expect(certificate(ours, ecdsaSignature).toString("hex")).toBe(
        Buffer.from(AsnConvert.serialize(whole)).toString("hex"),
      );
    }
  });

  it("makes a new key each time", async () => {
    const [a, b] = await Promise.all([serverCertificate(), serverCertificate()]);
    expect(a.privateKeyPem).not.toBe(b.privateKeyPem);
  });
});
