import { checkAllowedIps, checkNotes, checkText } from '../directory/index.js';
import { errors } from '../errors/catalogue.js';
import type { PartnerSettings } from '../repositories/partners.js';

// The rules of a Partner's own fields. Notes and address lists follow the rules a user's and a
// group's have (directory/user-fields.ts); tags are Files.com's: lowercase letters, digits and
// hyphens, comma-separated.

const TAG = /^[a-z0-9-]+$/;
const MAX_TAGS = 100;

export function checkPartnerName(raw: string): string {
  const name = checkText('name', raw);
  if (name === '') throw errors.modelSaveError({ name: ["can't be blank"] });
  return name;
}

/** Tags as Files.com takes them: comma-separated, spaces around each ignored; kept as `a,b`. */
export function checkTags(raw: string): string {
  const tags = raw.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
  if (tags.length > MAX_TAGS) throw errors.modelSaveError({ tags: [`has too many tags (maximum is ${MAX_TAGS})`] });
  for (const tag of tags) {
    if (!TAG.test(tag) || tag.length > 64) throw errors.modelSaveError({ tags: [`"${tag.slice(0, 64)}" is not a tag: lowercase letters, digits and hyphens only, at most 64`] });
  }
  return [...new Set(tags)].join(',');
}

/** The settings a request sends, checked; fields not sent stay absent. */
export function checkPartnerSettings(settings: Partial<PartnerSettings>): Partial<PartnerSettings> {
  return {
    ...settings,
    ...(settings.notes === undefined ? {} : { notes: checkNotes('notes', settings.notes) }),
    ...(settings.tags === undefined ? {} : { tags: checkTags(settings.tags) }),
    ...(settings.allowedIps === undefined ? {} : { allowedIps: checkAllowedIps(settings.allowedIps) }),
  };
}
