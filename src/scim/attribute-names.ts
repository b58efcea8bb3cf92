/**
 * SCIM attribute names are case-insensitive (RFC 7643 §2.1): a client's spelling is turned into the
 * canonical one before anything else looks at it. Unknown names come back as given.
 */
export function canonicalName(name: string, known: readonly string[]): string {
  const lower = name.toLowerCase();
  return known.find((k) => k.toLowerCase() === lower) ?? name;
}
