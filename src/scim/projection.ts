import { scimErrors } from './scim-error.js';

const ALWAYS = ['schemas', 'id'];

/**
 * `attributes` and `excludedAttributes` (RFC 7644 §3.4.2.5), on top-level attributes and on
 * sub-attributes (`name.givenName`); `id` and `schemas` are always returned.
 */
export function project<T extends object>(resource: T, query: { attributes?: string; excludedAttributes?: string }): Partial<T> {
  if (query.attributes !== undefined && query.excludedAttributes !== undefined) {
    throw scimErrors.invalidValue('"attributes" and "excludedAttributes" cannot be given together.');
  }
  const source = resource as Record<string, unknown>;
  if (query.attributes !== undefined) {
    const wanted = names(query.attributes);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      const lower = key.toLowerCase();
      if (ALWAYS.includes(key) || wanted.some((w) => w === lower)) out[key] = value;
      else {
        const subs = wanted.filter((w) => w.startsWith(`${lower}.`)).map((w) => w.slice(lower.length + 1));
        if (subs.length > 0 && value !== null && typeof value === 'object') {
          const picked = pick(value, subs);
          if (!isEmpty(picked)) out[key] = picked;
        }
      }
    }
    return out as Partial<T>;
  }
  if (query.excludedAttributes !== undefined) {
    const unwanted = names(query.excludedAttributes);
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      const lower = key.toLowerCase();
      if (!ALWAYS.includes(key) && unwanted.includes(lower)) continue;
      const subs = unwanted.filter((w) => w.startsWith(`${lower}.`)).map((w) => w.slice(lower.length + 1));
      out[key] = subs.length > 0 && value !== null && typeof value === 'object' ? omit(value, subs) : value;
    }
    return out as Partial<T>;
  }
  return resource;
}

function names(list: string): string[] {
  return list.split(',').map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
}

function pick(value: object, subs: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item: object) => pick(item, subs));
  return Object.fromEntries(Object.entries(value).filter(([k]) => subs.includes(k.toLowerCase())));
}

function isEmpty(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

function omit(value: object, subs: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item: object) => omit(item, subs));
  return Object.fromEntries(Object.entries(value).filter(([k]) => !subs.includes(k.toLowerCase())));
}
