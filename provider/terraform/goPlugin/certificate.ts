/**
 * The server certificate of go-plugin's AutoMTLS (hashicorp/go-plugin mtls.go): one ECDSA P-256
 * key per launch (node:crypto) and a self-signed certificate valid for `localhost` (the name the
 * client checks), for server and client authentication. The client pins it from the handshake
 * line, so it needs no chain; test/terraform/certificate.test.ts has Go's parser judge it.
 * The structures are @peculiar/asn1-x509's and their DER is @peculiar/asn1-schema's: only the
 * ASN.1 this certificate needs is loaded at start, not a whole X.509 toolkit (every launch of the
 * provider pays for what this module loads, before its handshake line).
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
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
/** ecdsa-with-SHA256 (RFC 5758): its AlgorithmIdentifier has no parameters. */
const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
/** The name's attributes: commonName, organizationName. */
const COMMON_NAME = "2.5.4.3";
const ORGANIZATION = "2.5.4.10";

/**
 * A positive serial of 128 random bits in minimal DER form: the first byte 0x01..0x7f, so it is
 * never negative nor padded (Go refuses negative serials).
 */
function serialNumber(): ArrayBuffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! % 0x7f) + 1;
  return new Uint8Array(bytes).buffer;
}

/** CN=localhost, O=webhook-subscriptions. */
function name(): Name {
  const attribute = (type: string, value: string) =>
    new RelativeDistinguishedName([
      new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: value }) }),
    ]);
  return new Name([attribute(COMMON_NAME, "localhost"), attribute(ORGANIZATION, "webhook-subscriptions")]);
}

/** An extension holding `value`'s DER. */
const extension = (extnID: string, critical: boolean, value: unknown) =>
  new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });

/** A new key and the certificate for it. */
export async function serverCertificate(now = new Date()): Promise<ServerCertificate> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const signature = new AlgorithmIdentifier({ algorithm: ECDSA_WITH_SHA256 });
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: serialNumber(),
    signature,
    issuer: name(),
    validity: new Validity({
      notBefore: new Date(now.getTime() - SKEW_MS),
      notAfter: new Date(now.getTime() + VALID_MS),
    }),
    subject: name(),
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: "spki", format: "der" }), SubjectPublicKeyInfo),
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
  // ECDSA's signature in DER (ECDSA-Sig-Value), as X.509 carries it: node:crypto's default encoding.
  const signed = sign("sha256", Buffer.from(AsnConvert.serialize(tbsCertificate)), privateKey);
  const der = Buffer.from(
    AsnConvert.serialize(
      new Certificate({ tbsCertificate, signatureAlgorithm: signature, signatureValue: new Uint8Array(signed).buffer }),
    ),
  );
  return {
    certificatePem: `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{64}/g, "$&\n").replace(/\n?$/, "\n")}-----END CERTIFICATE-----\n`,
    der,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}
