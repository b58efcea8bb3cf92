type QueryValue = string | string[] | Record<string, string>;

/**
 * Parses a query string the way Files.com clients write it (wire notes): flat `key=value`,
 * one level of brackets for filters (`filter[username]=x` becomes `{filter: {username: 'x'}}`),
 * and `key[]=a&key[]=b` as an array. A repeated plain key keeps its last value.
 */
export function parseQueryString(query: string): Record<string, QueryValue> {
  const result: Record<string, QueryValue> = Object.create(null);
  for (const [rawKey, value] of new URLSearchParams(query)) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(rawKey);
    if (bracket === null) {
      result[rawKey] = value;
      continue;
    }
    const [, name, sub] = bracket as unknown as [string, string, string];
    if (sub === '') {
      const existing = result[name];
      result[name] = Array.isArray(existing) ? [...existing, value] : [value];
    } else {
      const existing = result[name];
      const nested: Record<string, string> =
        typeof existing === 'object' && !Array.isArray(existing) ? existing : Object.create(null);
      nested[sub] = value;
      result[name] = nested;
    }
  }
  return result;
}
