/**
 * The server certificate of go-plugin's AutoMTLS (hashicorp/go-plugin mtls.go), made with
 * @peculiar/x509 on WebCrypto: one ECDSA key per launch, a self-signed certificate valid for
 * `localhost` (the name the client checks), for server and client authentication. The client pins
 * it from the handshake line, so it needs no chain; test/terraform/certificate.test.ts has Go's
 * parser judge it.
 */
import { randomBytes, webcrypto } from "node:crypto";
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

/** What the TLS server is given, and what the handshake line announces. */
export interface ServerCertificate {
  /** The certificate, PEM. */
  readonly certificatePem: string;
  /** Its DER bytes, which the handshake line carries (base64, no padding). */
  readonly der: Buffer;
  /** The private key, PKCS #8 PEM. */
  readonly privateKeyPem: string;
}

/** go-plugin's validity: from 30 s ago (clock skew) for 262,980 hours (30 years). */
const SKEW_MS = 30_000;
const VALID_MS = 262_980 * 3600_000;

/**
 * A positive serial of 128 random bits in minimal DER form: the first byte 0x01..0x7f, so it is
 * never negative nor padded (Go refuses negative serials).
 */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! % 0x7f) + 1;
  return bytes.toString("hex");
}

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END ${label}-----\n`;

/** A new key and the certificate for it. */
export async function serverCertificate(now = new Date()): Promise<ServerCertificate> {
  // Node's WebCrypto, typed as the library's (the DOM's) Crypto.
  const crypto = webcrypto as Parameters<typeof x509.X509CertificateGenerator.createSelfSigned>[1];
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: serialNumber(),
      name: "CN=localhost, O=webhook-subscriptions",
      notBefore: new Date(now.getTime() - SKEW_MS),
      notAfter: new Date(now.getTime() + VALID_MS),
      keys,
      signingAlgorithm: algorithm,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.digitalSignature |
            x509.KeyUsageFlags.keyEncipherment |
            x509.KeyUsageFlags.keyAgreement |
            x509.KeyUsageFlags.keyCertSign,
          true,
        ),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth, x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([{ type: "dns", value: "localhost" }]),
      ],
    },
    crypto,
  );
  return {
    certificatePem: certificate.toString("pem").replace(/\r\n/g, "\n").replace(/\n?$/, "\n"),
    der: Buffer.from(certificate.rawData),
    privateKeyPem: pem("PRIVATE KEY", await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)),
  };
}
