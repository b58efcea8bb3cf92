import type { PropertyChange } from '../../files/index.js';
import { davErrors } from '../dav-error.js';
import { hrefOf, type DavContext } from '../dav-request.js';
import { assertWritable } from '../locks/index.js';
import { httpDateOf, isModifiedTimeProperty } from '../properties/client-time.js';
import { isLiveProperty } from '../properties/live.js';
import { readTextBody } from '../xml/body.js';
import { multistatus } from '../xml/multistatus.js';
import { childElements, isDav, parseXml, textOf } from '../xml/parse.js';
import { emptyElement, serializeElement } from '../xml/serialize.js';

/**
 * PROPPATCH (RFC 4918 9.2): sets and removes dead properties, in document order, all or none. A
 * live property cannot be changed: it is 403 (cannot-modify-protected-property), and every other
 * property of the request is then 424 (failed dependency) and nothing is changed. The same for a
 * request past the storage caps: the properties over them 507, the rest 424. Setting
 * `getlastmodified` or Windows' `Win32LastModifiedTime` (client-time.ts) keeps the client's
 * modification time, with the dead properties in the same change; a value that is no HTTP date
 * is 409 (a value the property cannot take) and the rest 424. Who may change an entry's
 * properties and times, and how much it may keep, is the file session's to decide.
 */
export async function proppatch(ctx: DavContext): Promise<void> {
  const body = await readTextBody(ctx);
  if (body.trim() === '') throw davErrors.badRequest('PROPPATCH needs a DAV:propertyupdate body.');
  const root = parseXml(body);
  if (!isDav(root, 'propertyupdate')) throw davErrors.badRequest('The body of a PROPPATCH must be a DAV:propertyupdate element.');

  const changes: PropertyChange[] = [];
  const protectedNames: string[] = [];
  const unreadableTimes: string[] = [];
  /** The names of the time properties set or removed: they are answered with the dead ones. */
  const timeNames: string[] = [];
  let providedMtime: number | undefined;
  for (const instruction of childElements(root)) {
    const set = isDav(instruction, 'set');
    if (!set && !isDav(instruction, 'remove')) continue;
    for (const prop of childElements(instruction).filter((c) => isDav(c, 'prop'))) {
      for (const property of childElements(prop)) {
        const name = emptyElement(property.ns, property.name);
        if (isModifiedTimeProperty(property.ns, property.name) && (set || !isLiveProperty(property.ns, property.name))) {
          // A removed Win32LastModifiedTime leaves the time as it is: there is nothing else to remove.
          const time = set ? httpDateOf(textOf(property)) : undefined;
          if (set && time === undefined) unreadableTimes.push(name);
          else timeNames.push(name);
          // In document order, as every change: the last time given is the one kept.
          if (time !== undefined) providedMtime = time;
        } else if (isLiveProperty(property.ns, property.name)) protectedNames.push(name);
        else changes.push({ namespace: property.ns, name: property.name, value: set ? serializeElement(property) : undefined });
      }
    }
  }
  const entry = await ctx.session.stat(ctx.path);
  await assertWritable(ctx, { paths: [ctx.path], recursive: false });
  const names = [...new Set([...changes.map((change) => emptyElement(change.namespace, change.name)), ...timeNames])];
  const href = hrefOf(entry.path, entry.type === 'directory');
  const refused = protectedNames.length > 0 ? { status: 403, props: protectedNames } : unreadableTimes.length > 0 ? { status: 409, props: unreadableTimes } : undefined;
  if (refused !== undefined) {
    ctx.reply.code(207).type('application/xml; charset=utf-8').send(multistatus([{ href, propstats: [refused, { status: 424, props: names }] }]));
    return;
  }
  const outcome = await ctx.session.changeDeadProperties(ctx.path, changes, { providedMtime });
  const propstats = outcome.stored ? [{ status: 200, props: names }] : refusedPropstats(changes, outcome.overLimit, timeNames);
  ctx.reply.code(207).type('application/xml; charset=utf-8').send(multistatus([{ href, propstats }]));
}

/** A request refused whole for the storage caps: the properties past a cap 507, the rest (times too) 424 (RFC 4918 9.2.1). */
function refusedPropstats(changes: readonly PropertyChange[], overLimit: readonly PropertyChange[], timeNames: readonly string[]): { status: number; props: string[] }[] {
  const namesOf = (list: readonly PropertyChange[]) => [...new Set(list.map((change) => emptyElement(change.namespace, change.name)))];
  const overNames = namesOf(overLimit);
  const over = new Set(overNames);
  const others = [...new Set([...namesOf(changes), ...timeNames])].filter((name) => !over.has(name));
  return [{ status: 507, props: overNames }, { status: 424, props: others }];
}
