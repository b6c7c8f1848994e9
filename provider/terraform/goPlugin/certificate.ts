/**
 * The server certificate of go-plugin's AutoMTLS (hashicorp/go-plugin mtls.go): one ECDSA P-256
 * key per launch (node:crypto) and a self-signed certificate valid for `localhost` (the name the
 * client checks), for server and client authentication. The client pins it from the handshake
 * line, so it needs no chain; test/terraform/certificate.test.ts has Go's parser judge it.
 *
 * Its DER is written here, for this one certificate: every field but the serial, the validity and
 * the key is the same at each launch. An ASN.1 library (@peculiar/asn1-x509, which the test holds
 * this encoding against, byte for byte) cost each launch about 12 ms of CPU before its handshake
 * line, to load and to run once (docs/benchmarks.md).
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";

/** What the TLS server is given, and what the handshake line announces. */
export interface ServerCertificate {
  /** The certificate, PEM. */
  readonly certificatePem: string;
  /** Its DER bytes, which the handshake line carries (base64, no padding). */
  readonly der: Buffer;
  /** The private key, PKCS #8 PEM. */
  readonly privateKeyPem: string;
}

/** What differs between two launches' certificates, besides the signature. */
export interface CertificateFields {
  /** A positive INTEGER's content: 16 bytes, the first 0x01..0x7f (never negative nor padded; Go refuses negative serials). */
  readonly serial: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The public key's SubjectPublicKeyInfo, DER, as node:crypto exports it. */
  readonly subjectPublicKeyInfo: Buffer;
}

/** go-plugin's validity: from 30 s ago (clock skew) for 262,980 hours (30 years). */
const SKEW_MS = 30_000;
const VALID_MS = 262_980 * 3600_000;

/** A DER element: its tag, its length (short or long form, up to 65,535) and its content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const n = body.length;
  if (n > 0xffff) throw new RangeError(`a DER element of ${n} bytes: this certificate's are all under 64 KiB`);
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}

const SEQUENCE = 0x30;
const SET = 0x31;

/** An OBJECT IDENTIFIER from its dotted form. */
function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split(".").map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) base128.unshift((v & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

/** RFC 5280 4.1.2.5: UTCTime for 1950 through 2049, GeneralizedTime otherwise; seconds, `Z`. */
function time(date: Date): Buffer {
  const digits = date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/[-:T]/g, "");
  const year = date.getUTCFullYear();
  return year >= 1950 && year < 2050 ? der(0x17, Buffer.from(digits.slice(2))) : der(0x18, Buffer.from(digits));
}

/** ecdsa-with-SHA256 (RFC 5758): its AlgorithmIdentifier has no parameters. */
const ECDSA_WITH_SHA256 = der(SEQUENCE, oid("1.2.840.10045.4.3.2"));

/** CN=localhost, O=webhook-subscriptions (UTF8String), as issuer and subject. */
const NAME = der(
  SEQUENCE,
  ...[
    ["2.5.4.3", "localhost"],
    ["2.5.4.10", "webhook-subscriptions"],
  ].map(([type, value]) => der(SET, der(SEQUENCE, oid(type!), der(0x0c, Buffer.from(value!))))),
);

/** An extension holding `value` (DER); `critical` is left out when false, as DER requires of a default. */
const extension = (id: string, critical: boolean, value: Buffer) =>
  der(SEQUENCE, oid(id), ...(critical ? [der(0x01, Buffer.from([0xff]))] : []), der(0x04, value));

/**
 * basicConstraints cA; keyUsage digitalSignature, keyEncipherment, keyAgreement and keyCertSign
 * (bits 0, 2, 4 and 5: 0xac, its 2 unused bits named); extKeyUsage clientAuth and serverAuth;
 * subjectAltName dNSName localhost. go-plugin's own certificate has the same.
 */
const EXTENSIONS = der(
  0xa3,
  der(
    SEQUENCE,
    extension("2.5.29.19", true, der(SEQUENCE, der(0x01, Buffer.from([0xff])))),
    extension("2.5.29.15", true, der(0x03, Buffer.from([0x02, 0xac]))),
    extension("2.5.29.37", false, der(SEQUENCE, oid("1.3.6.1.5.5.7.3.2"), oid("1.3.6.1.5.5.7.3.1"))),
    extension("2.5.29.17", false, der(SEQUENCE, der(0x82, Buffer.from("localhost")))),
  ),
);

/** The fields of a launch's certificate made at `now`, for the key whose SubjectPublicKeyInfo is given. */
export function launchFields(now: Date, subjectPublicKeyInfo: Buffer): CertificateFields {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! % 0x7f) + 1;
  return {
    serial,
    notBefore: new Date(now.getTime() - SKEW_MS),
    notAfter: new Date(now.getTime() + VALID_MS),
    subjectPublicKeyInfo,
  };
}

/** The TBSCertificate of `fields`, version 3. */
export function tbsCertificate(fields: CertificateFields): Buffer {
  const lead = fields.serial[0] ?? 0;
  if (fields.serial.length !== 16 || lead < 0x01 || lead > 0x7f)
    throw new RangeError("a serial is 16 bytes, the first 0x01..0x7f: positive, and not padded");
  return der(
    SEQUENCE,
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, fields.serial),
    ECDSA_WITH_SHA256,
    NAME,
    der(SEQUENCE, time(fields.notBefore), time(fields.notAfter)),
    NAME,
    fields.subjectPublicKeyInfo,
    EXTENSIONS,
  );
}

/** The Certificate: `tbs`, and its ECDSA signature (ECDSA-Sig-Value, DER) as a BIT STRING. */
export function certificate(tbs: Buffer, signature: Buffer): Buffer {
  return der(SEQUENCE, tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.from([0]), signature));
}

/** A new key and the certificate for it. */
export async function serverCertificate(now = new Date()): Promise<ServerCertificate> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const tbs = tbsCertificate(launchFields(now, publicKey.export({ type: "spki", format: "der" })));
  // ECDSA's signature in DER (ECDSA-Sig-Value), as X.509 carries it: node:crypto's default encoding.
  const der = certificate(tbs, sign("sha256", tbs, privateKey));
  return {
    certificatePem: `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`,
    der,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}
