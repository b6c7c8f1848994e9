/** GUIDs as the review compares them. */

/** A GUID as a key: GUIDs are case-insensitive, and the tools and the service spell them either way. */
export function guidKey(guid: string): string {
  return guid.toLowerCase();
}
