/**
 * What a loader checks first in an executable the test cannot run: a Mach-O's CPU type, its
 * segments and its code-signature load command; a PE's machine and optional-header kind. Read
 * straight from the headers (Apple's <mach-o/loader.h>, Microsoft's PE format), no library.
 */

/** `MH_MAGIC_64`'s CPU types: `CPU_TYPE_X86_64`, `CPU_TYPE_ARM64`. */
export const MACHO_CPU = { amd64: 0x01000007, arm64: 0x0100000c } as const;
/** `IMAGE_FILE_MACHINE_AMD64`, `IMAGE_FILE_MACHINE_ARM64`. */
export const PE_MACHINE = { amd64: 0x8664, arm64: 0xaa64 } as const;

export interface MachO {
  readonly cputype: number;
  /** Each LC_SEGMENT_64's name and bytes in the file. */
  readonly segments: ReadonlyArray<{ name: string; fileoff: number; filesize: number }>;
  /** LC_CODE_SIGNATURE's blob, if any: where it is and its first 4 bytes (a SuperBlob is 0xfade0cc0). */
  readonly signature?: { dataoff: number; datasize: number; magic: number };
}

const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;

/** A thin 64-bit little-endian Mach-O's header and load commands; throws if `bytes` is not one. */
export function readMachO(bytes: Buffer): MachO {
  if (bytes.readUInt32LE(0) !== 0xfeedfacf) throw new Error("not a 64-bit Mach-O (MH_MAGIC_64)");
  const cputype = bytes.readUInt32LE(4);
  const ncmds = bytes.readUInt32LE(16);
  const segments: { name: string; fileoff: number; filesize: number }[] = [];
  let signature: MachO["signature"];
  let at = 32; // sizeof(mach_header_64)
  for (let i = 0; i < ncmds; i++) {
    const cmd = bytes.readUInt32LE(at);
    if (cmd === LC_SEGMENT_64) {
      segments.push({
        name: bytes.toString("latin1", at + 8, at + 24).replace(/\0+$/, ""),
        fileoff: Number(bytes.readBigUInt64LE(at + 40)),
        filesize: Number(bytes.readBigUInt64LE(at + 48)),
      });
    } else if (cmd === LC_CODE_SIGNATURE) {
      const dataoff = bytes.readUInt32LE(at + 8);
      signature = { dataoff, datasize: bytes.readUInt32LE(at + 12), magic: bytes.readUInt32BE(dataoff) };
    }
    at += bytes.readUInt32LE(at + 4);
  }
  return { cputype, segments, signature };
}

/** A PE's COFF machine and whether its optional header is PE32+ (0x20b); throws if `bytes` is not a PE. */
export function readPE(bytes: Buffer): { machine: number; pe32plus: boolean } {
  if (bytes.toString("latin1", 0, 2) !== "MZ") throw new Error("no MZ header");
  const pe = bytes.readUInt32LE(0x3c);
  if (bytes.toString("latin1", pe, pe + 4) !== "PE\0\0") throw new Error("no PE signature");
  return { machine: bytes.readUInt16LE(pe + 4), pe32plus: bytes.readUInt16LE(pe + 24) === 0x20b };
}
