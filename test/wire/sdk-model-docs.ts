import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * What the installed Files.com SDK declares about a model, read from its own model documents
 * (`node_modules/files.com/docs/models/<Model>.md`): the attributes an object carries, and for
 * its list method the fields each list parameter names ("Valid fields are `a`, `b` or `c`").
 */
const require = createRequire(import.meta.url);
const MODELS_DIR = path.join(path.dirname(require.resolve('files.com/package.json')), 'docs', 'models');

export interface DeclaredAttribute {
  name: string;
  type: string;
}

function modelText(model: string): string {
  return fs.readFileSync(path.join(MODELS_DIR, `${model}.md`), 'utf8');
}

/** The attributes of the model's object: the bullet list after its example, before the first method. */
export function declaredAttributes(model: string): DeclaredAttribute[] {
  const text = modelText(model);
  const head = text.slice(0, text.indexOf('\n---'));
  return [...head.matchAll(/^\* `([a-z0-9_?]+)` \(([^)]+)\)/gm)].map(([, name, type]) => ({ name: name as string, type: type as string }));
}

export const LIST_PARAMETERS = ['sort_by', 'filter', 'filter_prefix', 'filter_gt', 'filter_gteq', 'filter_lt', 'filter_lteq'] as const;
export type ListParameter = (typeof LIST_PARAMETERS)[number];

/** For the model's list method (`## List ...`), each list parameter's valid fields. */
export function listParameterFields(model: string): Partial<Record<ListParameter, string[]>> {
  const text = modelText(model);
  const start = text.search(/^## List /m);
  if (start < 0) return {};
  const section = text.slice(start, text.indexOf('\n---', start));
  const fields: Partial<Record<ListParameter, string[]>> = {};
  for (const parameter of LIST_PARAMETERS) {
    const line = new RegExp(`^\\* \`${parameter}\` \\(object\\): .*?Valid fields are ([^.]*)\\.`, 'm').exec(section);
    if (line === null) continue;
    fields[parameter] = [...(line[1] as string).matchAll(/`([a-z0-9_]+)`/g)].map((m) => m[1] as string);
  }
  return fields;
}

/**
 * The parameters the model's document lists for one method, by its section heading's start
 * (`Create User`, `Update Group`): the bullet list under that section's "### Parameters".
 */
export function methodParameters(model: string, heading: string): string[] {
  const text = modelText(model);
  const start = text.indexOf(`\n## ${heading}`);
  if (start < 0) throw new Error(`${model}.md has no section "${heading}"`);
  const end = text.indexOf('\n---', start);
  const section = text.slice(start, end < 0 ? undefined : end);
  const list = section.slice(section.indexOf('### Parameters'));
  return [...list.matchAll(/^\* `([a-z0-9_[\]]+)` \(/gm)].map((m) => m[1] as string);
}
