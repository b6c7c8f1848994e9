/**
 * The flags of the SEA blob postject injected into an executable, read from its bytes (Node.js's
 * src/node_sea.h: the blob starts with the magic 0x143da20 and a uint32 of SeaFlags), so a test
 * can tell whether a platform's executable carries V8's code cache without running it.
 */

/** `kMagic` of src/node_sea.h, little-endian as every target stores it. */
const SEA_MAGIC = Buffer.from([0x20, 0xda, 0x43, 0x01]);
/** SeaFlags bits. */
const USE_CODE_CACHE = 1 << 2;
const INCLUDE_ASSETS = 1 << 3;

/** What the blob's header says; throws unless exactly one blob (the magic, then flags with assets) is found. */
export function seaBlobFlags(bytes: Buffer): { codeCache: boolean } {
  const found: number[] = [];
  // The magic also occurs in node's own code (the comparison that looks for it); only the blob's
  // is followed by flags that include the assets this release always has.
  for (let at = bytes.indexOf(SEA_MAGIC); at >= 0; at = bytes.indexOf(SEA_MAGIC, at + 1)) {
    const flags = bytes.readUInt32LE(at + 4);
    if (flags < 32 && (flags & INCLUDE_ASSETS) !== 0) found.push(flags);
  }
  if (found.length !== 1) throw new Error(`expected one SEA blob header with assets, found ${found.length}`);
  return { codeCache: (found[0]! & USE_CODE_CACHE) !== 0 };
}
