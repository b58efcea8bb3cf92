import { errors } from '../../../errors/catalogue.js';
import type { PartEntityTag } from '../../../files/index.js';
import { countValue } from './schemas.js';

const FLAT_KEY = /^etags\[([0-9]{1,5})\]\[(etag|part)\]$/;

/**
 * The `etags` an upload's end names (the parts sent and the ETag each was answered with), as a
 * JSON list of `{etag, part}`, or as the Go SDK writes them, flat keys of text (`"etags[0][etag]":
 * "\"…\""`, `"etags[0][part]": "1"`); undefined when the client sends none (the JavaScript SDK).
 * An entry without its etag or its part, or both forms at once, is refused naming `etags`.
 */
export function partEntityTagsOf(body: Record<string, unknown>): PartEntityTag[] | undefined {
  const listed = body.etags as { etag: string; part: number | string }[] | undefined;
  const flat = new Map<string, { etag?: string; part?: string }>();
  for (const [key, value] of Object.entries(body)) {
    const match = FLAT_KEY.exec(key);
    if (match === null) continue;
    const entry = flat.get(match[1] as string) ?? {};
    entry[match[2] as 'etag' | 'part'] = value as string;
    flat.set(match[1] as string, entry);
  }
  if (listed !== undefined && flat.size > 0) throw errors.paramsInvalid({ etags: ['is sent twice: as a list and as etags[n][...] keys'] });
  if (listed !== undefined) return listed.map(({ etag, part }) => ({ etag, part: countValue(part, 'etags') as number }));
  if (flat.size === 0) return undefined;
  return [...flat.values()].map(({ etag, part }) => {
    if (etag === undefined || part === undefined || !/^[0-9]{1,5}$/.test(part)) throw errors.paramsInvalid({ etags: ['needs etags[n][etag] and etags[n][part] (a part number) for each part'] });
    return { etag, part: Number(part) };
  });
}
