import { errors } from '../errors/catalogue.js';
import type { NameParts } from '../repositories/users.js';

const MAX_USERNAME_LENGTH = 128;
const MAX_TEXT_LENGTH = 255;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** A username: 1 to 128 characters after trimming, no control characters, no `/` or `\`. */
export function checkUsername(raw: string): string {
  const username = raw.normalize('NFC').trim();
  if (username === '') throw errors.modelSaveError({ username: ["can't be blank"] });
  if ([...username].length > MAX_USERNAME_LENGTH) throw errors.modelSaveError({ username: [`is too long (maximum is ${MAX_USERNAME_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(username) || /[/\\]/.test(username)) {
    throw errors.modelSaveError({ username: ['may not contain control characters, "/" or "\\"'] });
  }
  return username;
}

/** An identity provider's identifier for a record: kept as sent, bounded, no control characters; empty is none. */
export function checkExternalId(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if ([...raw].length > MAX_TEXT_LENGTH) throw errors.modelSaveError({ externalId: [`is too long (maximum is ${MAX_TEXT_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(raw)) throw errors.modelSaveError({ externalId: ['may not contain control characters'] });
  return raw;
}

/** Free text such as a user's `name` or `email`: trimmed, bounded. */
export function checkText(field: string, raw: string): string {
  const text = raw.normalize('NFC').trim();
  if ([...text].length > MAX_TEXT_LENGTH) throw errors.modelSaveError({ [field]: [`is too long (maximum is ${MAX_TEXT_LENGTH} characters)`] });
  if (CONTROL_CHARACTERS.test(text)) throw errors.modelSaveError({ [field]: ['may not contain control characters'] });
  return text;
}

/** The parts of a name an identity provider sent: each free text, kept as sent (trimmed); empty is none. */
export function checkNameParts(parts: NameParts): NameParts {
  const part = (field: string, raw: string | null) => (raw === null || raw.trim() === '' ? null : checkText(field, raw));
  return { givenName: part('name.givenName', parts.givenName), familyName: part('name.familyName', parts.familyName) };
}
