import { filter as compile, parse, type Filter } from 'scim2-parse-filter';
import { canonicalName } from './attribute-names.js';
import { scimErrors } from './scim-error.js';

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

type Json = Record<string, unknown>;

/** What a resource's PATCH may name: its attributes, their sub-attributes, and its extension URNs. */
export interface PatchShape {
  attributes: readonly string[];
  subAttributes: readonly string[];
  extensions: readonly string[];
}

/**
 * Applies a PatchOp request (RFC 7644 §3.5.2) to a resource in its SCIM form and answers the new
 * form; the resource's front door then turns the difference into feature calls. Operation names are
 * read without regard to case (`"Replace"`, as Entra ID sends them), and an operation without `path`
 * takes an object of attributes whose keys may themselves be paths (`"name.givenName"`).
 */
export function applyPatch(resource: Json, body: unknown, shape: PatchShape): Json {
  const request = body as { schemas?: unknown; Operations?: unknown };
  if (!Array.isArray(request.Operations)) throw scimErrors.invalidSyntax('A PATCH request carries "Operations", a list of operations.');
  let next: Json = structuredClone(resource);
  for (const raw of request.Operations) {
    const operation = raw as { op?: unknown; path?: unknown; value?: unknown };
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw scimErrors.invalidSyntax(`Unknown PATCH operation "${String(operation.op)}".`);
    if (operation.path === undefined || operation.path === '') {
      if (op === 'remove') throw scimErrors.noTarget('A "remove" operation needs a path.');
      if (operation.value === null || typeof operation.value !== 'object' || Array.isArray(operation.value)) {
        throw scimErrors.invalidValue('An operation without a path takes an object of attributes as its value.');
      }
      for (const [key, value] of Object.entries(operation.value)) {
        if (shape.extensions.some((urn) => urn.toLowerCase() === key.toLowerCase()) && value !== null && typeof value === 'object') {
          for (const [inner, innerValue] of Object.entries(value as Json)) next = applyAt(next, `${key}:${inner}`, op, innerValue, shape);
        } else {
          next = applyAt(next, key, op, value, shape);
        }
      }
    } else if (typeof operation.path === 'string') {
      next = applyAt(next, operation.path, op, operation.value, shape);
    } else {
      throw scimErrors.invalidPath('"path" must be a string.');
    }
  }
  return next;
}

interface Target {
  container: string | undefined;
  attribute: string;
  valueFilter: Filter | undefined;
  subAttribute: string | undefined;
}

/**
 * The target of a path, or undefined for an attribute Atrium does not keep (`title`,
 * `phoneNumbers`, the enterprise extension's `department`): identity providers send their whole
 * attribute mapping, and what Atrium does not store is ignored, as it is in POST and PUT.
 */
function parsePath(path: string, shape: PatchShape): Target | undefined {
  let container: string | undefined;
  let rest = path;
  const urn = shape.extensions.find((u) => path.toLowerCase().startsWith(`${u.toLowerCase()}:`));
  if (urn !== undefined) {
    container = urn;
    rest = path.slice(urn.length + 1);
  }
  else if (/^urn:/i.test(path)) return undefined;
  const match = /^([A-Za-z_$][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z_$][\w$-]*))?$/.exec(rest);
  if (match === null) throw scimErrors.invalidPath(`The path "${path}" cannot be read.`);
  const attribute = canonicalName(match[1] as string, shape.attributes);
  if (!shape.attributes.includes(attribute)) return undefined;
  let valueFilter: Filter | undefined;
  if (match[2] !== undefined) {
    try {
      valueFilter = parse(match[2]);
    } catch (error) {
      throw scimErrors.invalidFilter(`The value filter in "${path}" cannot be read: ${(error as Error).message}`);
    }
  }
  const subAttribute = match[3] === undefined ? undefined : canonicalName(match[3], shape.subAttributes);
  return { container, attribute, valueFilter, subAttribute };
}

function applyAt(resource: Json, path: string, op: 'add' | 'replace' | 'remove', value: unknown, shape: PatchShape): Json {
  const target = parsePath(path, shape);
  if (target === undefined) return resource;
  const holder: Json = target.container === undefined ? resource : { ...((resource[target.container] as Json | undefined) ?? {}) };
  const current = holder[target.attribute];
  if (target.valueFilter === undefined) {
    if (target.subAttribute !== undefined) {
      const complex: Json = { ...((current as Json | undefined) ?? {}) };
      if (op === 'remove') delete complex[target.subAttribute];
      else complex[target.subAttribute] = value;
      holder[target.attribute] = complex;
    } else if (op === 'remove' && Array.isArray(current) && Array.isArray(value)) {
      // Entra ID removes members as `{"op":"Remove","path":"members","value":[{"value":"42"}]}`.
      holder[target.attribute] = current.filter((c) => !value.some((v) => sameValue(c, v)));
    } else if (op === 'remove') {
      delete holder[target.attribute];
    } else if (op === 'add' && Array.isArray(current)) {
      const added = Array.isArray(value) ? value : [value];
      holder[target.attribute] = [...current, ...added.filter((v) => !current.some((c) => sameValue(c, v)))];
    } else if (op === 'add' && isPlainObject(current) && isPlainObject(value)) {
      holder[target.attribute] = { ...current, ...value };
    } else {
      holder[target.attribute] = value;
    }
  } else {
    const items = Array.isArray(current) ? (current as Json[]) : [];
    const test = compile(target.valueFilter);
    const matches = (item: Json) => test(item);
    if (op === 'remove') {
      holder[target.attribute] = target.subAttribute === undefined
        ? items.filter((item) => !matches(item))
        : items.map((item) => (matches(item) ? withoutKey(item, target.subAttribute as string) : item));
    } else if (items.some(matches)) {
      holder[target.attribute] = items.map((item) => {
        if (!matches(item)) return item;
        return target.subAttribute === undefined ? { ...item, ...(value as Json) } : { ...item, [target.subAttribute]: value };
      });
    } else {
      // `emails[type eq "work"].value` on a user without a work address: the element is made from the filter.
      const seed = elementFromFilter(target.valueFilter);
      if (seed === undefined) throw scimErrors.noTarget(`No value matches "${path}".`);
      holder[target.attribute] = [...items, target.subAttribute === undefined ? { ...seed, ...(value as Json) } : { ...seed, [target.subAttribute]: value }];
    }
  }
  if (target.container !== undefined) resource[target.container] = holder;
  return resource;
}

function elementFromFilter(f: Filter): Json | undefined {
  if (f.op === 'eq') return { [f.attrPath]: f.compValue };
  if (f.op === 'and') {
    const parts = f.filters.map(elementFromFilter);
    return parts.every((p) => p !== undefined) ? Object.assign({}, ...parts) as Json : undefined;
  }
  return undefined;
}

function withoutKey(item: Json, key: string): Json {
  const copy = { ...item };
  delete copy[key];
  return copy;
}

function isPlainObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (isPlainObject(a) && isPlainObject(b) && 'value' in a && 'value' in b) return String(a.value) === String(b.value);
  return JSON.stringify(a) === JSON.stringify(b);
}
