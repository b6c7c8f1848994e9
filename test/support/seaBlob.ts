/**
 * The SEA blob postject injected into an executable, read from its bytes (Node.js's
 * src/node_sea.cc, SeaSerializer: the magic 0x143da20, a uint32 of SeaFlags, one byte (the
 * execArgvExtension setting, in Node.js 22.20), then the code path,
 * the main script and, with kIncludeAssets, the count of assets and each one's name and bytes, every
 * string as a 64-bit little-endian length and its bytes; the `execArgv` follow the assets and are
 * not read), so a test can tell which assets a
 * platform's executable carries (its trained code caches among them) without running it.
 */

/** `kMagic` of src/node_sea.h, little-endian as every target stores it. */
const SEA_MAGIC = Buffer.from([0x20, 0xda, 0x43, 0x01]);
/** SeaFlags bits. */
const USE_SNAPSHOT = 1 << 1;
const USE_CODE_CACHE = 1 << 2;
const INCLUDE_ASSETS = 1 << 3;

/** The blob's flags and its assets' names and sizes; throws unless exactly one blob with assets is found. */
export function seaBlob(bytes: Buffer): { codeCache: boolean; assets: Record<string, number> } {
  const found: number[] = [];
  // The magic also occurs in node's own code (the comparison that looks for it); only the blob's
  // is followed by flags that include the assets this release always has.
  for (let at = bytes.indexOf(SEA_MAGIC); at >= 0; at = bytes.indexOf(SEA_MAGIC, at + 1)) {
    const flags = bytes.readUInt32LE(at + 4);
    if (flags < 32 && (flags & INCLUDE_ASSETS) !== 0) found.push(at);
  }
  if (found.length !== 1) throw new Error(`expected one SEA blob header with assets, found ${found.length}`);
  const start = found[0]!;
  const flags = bytes.readUInt32LE(start + 4);
  if (flags & USE_SNAPSHOT) throw new Error("a SEA blob with a start-up snapshot: not what the release makes");
  let at = start + 9;
  const string = (): Buffer => {
    const length = Number(bytes.readBigUInt64LE(at));
    const value = bytes.subarray(at + 8, at + 8 + length);
    at += 8 + length;
    return value;
  };
  string(); // the code path
  string(); // the main script
  if (flags & USE_CODE_CACHE) string();
  const count = Number(bytes.readBigUInt64LE(at));
  at += 8;
  const assets: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const name = string().toString("utf8");
    assets[name] = string().length;
  }
  return { codeCache: (flags & USE_CODE_CACHE) !== 0, assets };
}
