/**
 * Checks a Mach-O's embedded code signature against its bytes, as macOS's kernel does page by
 * page: the CodeDirectory's hash of every page up to the signature, and of the requirements blob
 * in its special slot. Written from Apple's <kern/cs_blobs.h> layout, independently of rcodesign,
 * which signs the release's darwin executables (scripts/release/sign.ts): rcodesign's own
 * `verify` fails on every ad-hoc signature ("CMS error: missing further values": it parses the
 * empty CMS blob an ad-hoc signature carries), and calls itself "known to be buggy".
 */
import { createHash } from "node:crypto";
import type { MachO } from "./binaryFormats";

const SUPERBLOB = 0xfade0cc0;
const CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const HASH_SHA256 = 2;
const SLOT_CODEDIRECTORY = 0;
const SLOT_REQUIREMENTS = 2;

/** What the signature says, once every hash in it matched the bytes. */
export interface VerifiedSignature {
  readonly identifier: string;
  readonly adHoc: boolean;
  readonly pageSize: number;
  /** How far the pages go: the signature's own offset, so every byte before it is covered. */
  readonly codeLimit: number;
  /** The page hashes (hex), in order. */
  readonly pageHashes: readonly string[];
}

const sha256 = (bytes: Buffer): Buffer => createHash("sha256").update(bytes).digest();

/** Verifies `macho`'s signature against `bytes`; throws naming the first thing that does not match. */
export function verifyCodeSignature(bytes: Buffer, macho: MachO): VerifiedSignature {
  const signature = macho.signature;
  if (!signature) throw new Error("no LC_CODE_SIGNATURE: the binary is unsigned");
  const base = signature.dataoff;
  if (bytes.readUInt32BE(base) !== SUPERBLOB) throw new Error("the signature is not an embedded SuperBlob");
  const slots = new Map<number, number>();
  for (let i = 0; i < bytes.readUInt32BE(base + 8); i++)
    slots.set(bytes.readUInt32BE(base + 12 + i * 8), base + bytes.readUInt32BE(base + 16 + i * 8));
  const cd = slots.get(SLOT_CODEDIRECTORY);
  if (cd === undefined || bytes.readUInt32BE(cd) !== CODEDIRECTORY) throw new Error("no CodeDirectory");

  const flags = bytes.readUInt32BE(cd + 12);
  const hashOffset = bytes.readUInt32BE(cd + 16);
  const identOffset = bytes.readUInt32BE(cd + 20);
  const nSpecialSlots = bytes.readUInt32BE(cd + 24);
  const nCodeSlots = bytes.readUInt32BE(cd + 28);
  const codeLimit = bytes.readUInt32BE(cd + 32);
  const hashSize = bytes.readUInt8(cd + 36);
  const hashType = bytes.readUInt8(cd + 37);
  const pageSize = 2 ** bytes.readUInt8(cd + 39);
  if (hashType !== HASH_SHA256 || hashSize !== 32)
    throw new Error(`hash type ${hashType} (size ${hashSize}), not SHA-256`);
  if (codeLimit !== base) throw new Error(`the pages stop at ${codeLimit}, not at the signature (${base})`);
  if (nCodeSlots !== Math.ceil(codeLimit / pageSize))
    throw new Error(`${nCodeSlots} page hashes for ${codeLimit} bytes of ${pageSize}-byte pages`);

  const pageHashes: string[] = [];
  for (let page = 0; page < nCodeSlots; page++) {
    const start = page * pageSize;
    const actual = sha256(bytes.subarray(start, Math.min(start + pageSize, codeLimit)));
    const expected = bytes.subarray(cd + hashOffset + page * hashSize, cd + hashOffset + (page + 1) * hashSize);
    if (!actual.equals(expected))
      throw new Error(
        `page ${page} (bytes ${start}…) hashes to ${actual.toString("hex")}, the signature says ${expected.toString("hex")}`,
      );
    pageHashes.push(actual.toString("hex"));
  }
  // Special slots count down from the code slots: slot -n holds the hash of blob n.
  const requirements = slots.get(SLOT_REQUIREMENTS);
  if (requirements !== undefined && nSpecialSlots >= SLOT_REQUIREMENTS) {
    const blob = bytes.subarray(requirements, requirements + bytes.readUInt32BE(requirements + 4));
    const at = cd + hashOffset - SLOT_REQUIREMENTS * hashSize;
    if (!sha256(blob).equals(bytes.subarray(at, at + hashSize)))
      throw new Error("the requirements blob's hash differs");
  }
  const end = bytes.indexOf(0, cd + identOffset);
  return {
    identifier: bytes.toString("utf8", cd + identOffset, end),
    adHoc: (flags & CS_ADHOC) !== 0,
    pageSize,
    codeLimit,
    pageHashes,
  };
}
