import fs from 'node:fs';

/**
 * The fields docs/sdk-fields.md lists as not offered, by model (`### Model`, then rows whose first
 * cell names one field or several sharing a reason: `| \`a\`, \`b\` | why |`). Tests of a model's
 * fields hold every field the SDK declares to be returned or listed here.
 */
export function fieldsNotOfferedByModel(): Map<string, Set<string>> {
  const text = fs.readFileSync(new URL('../../docs/sdk-fields.md', import.meta.url), 'utf8');
  const byModel = new Map<string, Set<string>>();
  let current: Set<string> | undefined;
  for (const line of text.split('\n')) {
    const heading = /^### (\w+)/.exec(line);
    if (heading !== null) byModel.set(heading[1] as string, (current = new Set()));
    const row = /^\| ((?:`[a-z0-9_?]+`(?:, )?)+) \|/.exec(line);
    if (row !== null && current !== undefined) for (const [, field] of (row[1] as string).matchAll(/`([a-z0-9_?]+)`/g)) current.add(field as string);
  }
  return byModel;
}

/** The fields of one model that docs/sdk-fields.md lists as not offered (none when it has no section). */
export function fieldsNotOffered(model: string): Set<string> {
  return fieldsNotOfferedByModel().get(model) ?? new Set();
}
