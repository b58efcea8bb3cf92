import { filter as compile, parse, type Filter } from 'scim2-parse-filter';
import { scimErrors } from './scim-error.js';

/**
 * A SCIM filter (RFC 7644 §3.4.2.2), parsed by scim2-parse-filter and checked against the
 * attributes a resource can be filtered on. Any other attribute, or a syntax the parser refuses, is
 * `400 invalidFilter`. String comparisons ignore case: every filterable attribute of Atrium's
 * resources is case-insensitive (`userName`, names, e-mail addresses, ids that are digits).
 */
export function parseFilter(text: string, filterable: readonly string[]): Filter {
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch (error) {
    throw scimErrors.invalidFilter(`The filter cannot be read: ${(error as Error).message}`);
  }
  return canonicalise(parsed, filterable, '');
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
  switch (f.op) {
    case 'and':
    case 'or':
      return { ...f, filters: f.filters.map(lowerValues) };
    case 'not':
      return { ...f, filter: lowerValues(f.filter) };
    case '[]':
      return { ...f, valFilter: lowerValues(f.valFilter) };
    case 'pr':
      return f;
    default:
      return { ...f, compValue: typeof f.compValue === 'string' ? f.compValue.toLowerCase() : f.compValue };
  }
}

function lowerStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.toLowerCase();
  if (Array.isArray(value)) return value.map(lowerStrings);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, lowerStrings(v)]));
  return value;
}
