import { filter as compile, parse, type Filter } from 'scim2-parse-filter';
import { scimErrors } from './scim-error.js';

/**
 * A SCIM filter (RFC 7644 §3.4.2.2), parsed by scim2-parse-filter and checked against the
 * attributes a resource can be filtered on. Any other attribute, or a syntax the parser refuses, is
 * `400 invalidFilter`. String comparisons ignore case: every filterable attribute of Atrium's
 * resources is case-insensitive (`userName`, names, e-mail addresses, ids that are digits).
 */
export function parseFilter(text: string, filterable: readonly string[]): Filter {
  const { text: withPlaceholders, values } = quotedValuesSetAside(text);
  let parsed: Filter;
  try {
    parsed = parse(withPlaceholders);
  } catch (error) {
    throw scimErrors.invalidFilter(`The filter cannot be read: ${(error as Error).message}`);
  }
  return canonicalise(withQuotedValues(parsed, values), filterable, '');
}

/**
 * The quoted values of a filter, read here rather than by scim2-parse-filter: it doubles every
 * backslash that is not before a quote, so `"\\"` (one backslash, escaped as the JSON strings of
 * RFC 7644 3.4.2.2 are) cannot be read and `"a\\b"` would mean two backslashes. Each value is read
 * as a JSON string, with one leniency kept from the parser: a backslash that starts no JSON escape
 * (`"domain\user"`, as some clients send it) stands for itself. The parser is given `"0"`, `"1"`,
 * ... in their place, which it cannot misread.
 */
function quotedValuesSetAside(text: string): { text: string; values: string[] } {
  const values: string[] = [];
  const replaced = text.replace(/"((?:[^"\\]|\\[\s\S])*)"/g, (_, body: string) => {
    values.push(unescapeValue(body));
    return `"${values.length - 1}"`;
  });
  return { text: replaced, values };
}

const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

function unescapeValue(body: string): string {
  return body.replace(/\\(u[0-9a-fA-F]{4}|[\s\S])/g, (escape, what: string) => {
    if (what.length === 5) return String.fromCharCode(parseInt(what.slice(1), 16));
    return JSON_ESCAPES[what] ?? escape;
  });
}

function withQuotedValues(f: Filter, values: readonly string[]): Filter {
  return withCompValues(f, (value) => (typeof value === 'string' ? (values[Number(value)] as string) : value));
}

/** The filter with `change` applied to every comparison's value, through and/or/not and `[]`. */
function withCompValues(f: Filter, change: (value: unknown) => unknown): Filter {
  switch (f.op) {
    case 'and':
    case 'or':
      return { ...f, filters: f.filters.map((inner) => withCompValues(inner, change)) };
    case 'not':
      return { ...f, filter: withCompValues(f.filter, change) };
    case '[]':
      return { ...f, valFilter: withCompValues(f.valFilter, change) };
    case 'pr':
      return f;
    default:
      return { ...f, compValue: change(f.compValue) } as Filter;
  }
}

function canonicalise(f: Filter, filterable: readonly string[], prefix: string): Filter {
  switch (f.op) {
    case 'and':
    case 'or':
      return { ...f, filters: f.filters.map((inner) => canonicalise(inner, filterable, prefix)) };
    case 'not':
      return { ...f, filter: canonicalise(f.filter, filterable, prefix) };
    case '[]': {
      const attrPath = attribute(f.attrPath, filterable, prefix);
      return { ...f, attrPath, valFilter: canonicalise(f.valFilter, filterable, `${attrPath}.`) };
    }
    case 'pr':
      return { ...f, attrPath: attribute(f.attrPath, filterable, prefix) };
    default:
      return { ...f, attrPath: attribute(f.attrPath, filterable, prefix) };
  }
}

function attribute(path: string, filterable: readonly string[], prefix: string): string {
  const full = `${prefix}${path}`.toLowerCase();
  const known = filterable.find((k) => k.toLowerCase() === full);
  if (known === undefined) throw scimErrors.invalidFilter(`Filtering on "${path}" is not supported.`);
  return known.slice(prefix.length);
}

/** The simple `attr eq "value"` a repository can answer by itself, when the filter is one. */
export function equalityOn(f: Filter, attribute: string): string | undefined {
  return f.op === 'eq' && f.attrPath === attribute && typeof f.compValue === 'string' ? f.compValue : undefined;
}

/** A predicate over resources in their SCIM form. */
export function matcher(f: Filter): (resource: object) => boolean {
  const test = compile(lowerValues(f));
  return (resource) => test(lowerStrings(resource));
}

function lowerValues(f: Filter): Filter {
  return withCompValues(f, (value) => (typeof value === 'string' ? value.toLowerCase() : value));
}

function lowerStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowerStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerStrings(v)]));
  return value;
}
