import { errors } from '../errors/catalogue.js';
import { canonicalPath } from '../lib/paths.js';
import { offsetText, wallClockAt } from './zoned-time.js';

/**
 * Destinations of copy and move automations: a path that may hold tokens filled in for each file
 * and run (`archive/%Y/%m/%Fb-%u-order.%Fe`). A destination ending in `/` is a folder, where the
 * source file keeps its name; otherwise it is the file's new path. One starting with `./` or
 * `../` is relative to the source file's folder.
 *
 * Tokens: `%tp %tf %td %tb %te` the triggering file's path, name, folder, name without extension
 * and extension; `%p1 %p2 …` the source file's folders counted from its own (`%p1` is the folder
 * it is in), `%P1 %P2 …` counted from the root; `%Ff %Fb %Fe %Fl %Fn %Fp` the source file's name,
 * name without extension, extension, name in lowercase, name with everything but letters and
 * digits stripped (its extension kept), and name with spaces stripped, lowercased and reduced to
 * ASCII; `%u-<param>` a parameter of the webhook call; `%Y %m %B %d %H %M %S %z` the time of the
 * run in the automation's path time zone; `%%` a percent sign. An extension is written without
 * its dot. Any other `%` is refused when the automation is saved, and a token with nothing to
 * fill it (a `%tp` with no triggering file, a `%p3` for a file two folders deep) fails the file's
 * step with a message saying which, rather than leaving a hole in the path.
 */

export const MAX_WEBHOOK_PARAM_LENGTH = 190;
export const MAX_WEBHOOK_PARAMS_LENGTH = 550;

type Part =
  | { kind: 'text'; text: string }
  | { kind: 'triggering'; form: 'p' | 'f' | 'd' | 'b' | 'e' }
  | { kind: 'parent'; fromRoot: boolean; index: number }
  | { kind: 'name'; form: 'f' | 'b' | 'e' | 'l' | 'n' | 'p' }
  | { kind: 'webhook'; param: string }
  | { kind: 'time'; form: 'Y' | 'm' | 'B' | 'd' | 'H' | 'M' | 'S' | 'z' };

export interface ParsedDestination {
  readonly destination: string;
  readonly parts: readonly Part[];
}

export type DestinationParse = { ok: true; parsed: ParsedDestination } | { ok: false; problem: string };

const TIME_FORMS = new Set(['Y', 'm', 'B', 'd', 'H', 'M', 'S', 'z']);
const WEBHOOK_PARAM = /^u-([A-Za-z0-9_]+)/;

/** Reads a destination's tokens; a `%` that starts none is refused, naming where it is. */
export function parseDestination(destination: string): DestinationParse {
  const parts: Part[] = [];
  let text = '';
  let i = 0;
  const flush = () => {
    if (text !== '') parts.push({ kind: 'text', text });
    text = '';
  };
  while (i < destination.length) {
    const c = destination[i] as string;
    if (c !== '%') {
      text += c;
      i += 1;
      continue;
    }
    const rest = destination.slice(i + 1);
    const first = rest[0];
    const second = rest[1];
    let token: Part | undefined;
    let length = 0;
    if (first === '%') {
      text += '%';
      i += 2;
      continue;
    } else if (first === 't' && second !== undefined && 'pfdbe'.includes(second)) {
      token = { kind: 'triggering', form: second as 'p' };
      length = 2;
    } else if ((first === 'p' || first === 'P') && /^[1-9]/.test(rest.slice(1))) {
      const digits = /^[0-9]+/.exec(rest.slice(1))?.[0] as string;
      token = { kind: 'parent', fromRoot: first === 'P', index: Number(digits) };
      length = 1 + digits.length;
    } else if (first === 'F' && second !== undefined && 'fbelnp'.includes(second)) {
      token = { kind: 'name', form: second as 'f' };
      length = 2;
    } else if (first === 'u' && WEBHOOK_PARAM.test(rest)) {
      const param = (WEBHOOK_PARAM.exec(rest) as RegExpExecArray)[1] as string;
      token = { kind: 'webhook', param };
      length = 2 + param.length;
    } else if (first !== undefined && TIME_FORMS.has(first)) {
      token = { kind: 'time', form: first as 'Y' };
      length = 1;
    }
    if (token === undefined) {
      const shown = destination.slice(i, i + 3);
      return {
        ok: false,
        problem: `has "${shown}" at character ${i + 1}, which is no token (write %% for a percent sign; the tokens are %tp %tf %td %tb %te, %p1…, %P1…, %Ff %Fb %Fe %Fl %Fn %Fp, %u-<param>, %Y %m %B %d %H %M %S %z)`,
      };
    }
    flush();
    parts.push(token);
    i += 1 + length;
  }
  flush();
  return { ok: true, parsed: { destination, parts } };
}

/** What a destination is filled from, for one source file in one run. */
export interface DestinationContext {
  /** The source file's canonical path. */
  sourcePath: string;
  /**
   * The folder the automation's `path` matched the source file in. Without
   * `flatten_destination_structure`, the source's folders below it are kept under a destination
   * folder; absent, nothing is kept.
   */
  sourceBase?: string;
  /** The file whose action triggered the run (action trigger only). */
  triggeringPath?: string;
  /** The webhook call's parameters (webhook trigger only). */
  webhookParams?: Readonly<Record<string, string>>;
  /** The time of the run and the IANA zone its time tokens are written in. */
  now: Date;
  timeZone: string;
  destinationReplaceFrom?: string | null;
  destinationReplaceTo?: string | null;
  flattenDestinationStructure?: boolean;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function cannotFill(destination: string, why: string): Error {
  return errors.paramsInvalid({ destinations: [`"${destination}" cannot be filled in: ${why}`] });
}

/** A name's extension, without its dot; a leading dot (`.profile`) starts no extension. */
function splitName(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: name.slice(dot + 1) };
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

function nameForm(name: string, form: 'f' | 'b' | 'e' | 'l' | 'n' | 'p'): string {
  const { base, extension } = splitName(name);
  switch (form) {
    case 'f':
      return name;
    case 'b':
      return base;
    case 'e':
      return extension;
    case 'l':
      return name.toLowerCase();
    case 'n': {
      const stripped = base.replace(/[^\p{L}\p{N}]/gu, '');
      return extension === '' ? stripped : `${stripped}.${extension.replace(/[^\p{L}\p{N}]/gu, '')}`;
    }
    case 'p':
      return name
        .normalize('NFKD')
        .replace(/\p{M}/gu, '')
        .replace(/[^\x20-\x7e]/g, '')
        .replace(/ /g, '')
        .toLowerCase();
  }
}

/** Checks a webhook call's parameters against the lengths a destination may take from them. */
export function webhookParamsProblem(params: Readonly<Record<string, string>>): string | undefined {
  let total = 0;
  for (const [name, value] of Object.entries(params)) {
    if (value.length > MAX_WEBHOOK_PARAM_LENGTH) return `${name} is longer than ${MAX_WEBHOOK_PARAM_LENGTH} characters`;
    total += value.length;
  }
  if (total > MAX_WEBHOOK_PARAMS_LENGTH) return `the parameters are longer than ${MAX_WEBHOOK_PARAMS_LENGTH} characters together`;
  return undefined;
}

function fill(parsed: ParsedDestination, context: DestinationContext): string {
  const { destination } = parsed;
  const sourceFolders = folderOf(context.sourcePath).split('/').filter((folder) => folder !== '');
  const clock = wallClockAt(context.now, context.timeZone);
  const two = (value: number) => String(value).padStart(2, '0');
  let out = '';
  for (const part of parsed.parts) {
    switch (part.kind) {
      case 'text':
        out += part.text;
        break;
      case 'triggering': {
        const path = context.triggeringPath;
        if (path === undefined) throw cannotFill(destination, `%t${part.form} names the triggering file, and only an action trigger has one`);
        const name = lastSegment(path);
        const { base, extension } = splitName(name);
        out += { p: path, f: name, d: folderOf(path), b: base, e: extension }[part.form];
        break;
      }
      case 'parent': {
        const folder = part.fromRoot ? sourceFolders[part.index - 1] : sourceFolders[sourceFolders.length - part.index];
        const token = `%${part.fromRoot ? 'P' : 'p'}${part.index}`;
        if (folder === undefined) throw cannotFill(destination, `${token} needs a file ${part.index} folders deep, and ${context.sourcePath} is ${sourceFolders.length}`);
        out += folder;
        break;
      }
      case 'name':
        out += nameForm(lastSegment(context.sourcePath), part.form);
        break;
      case 'webhook': {
        const params = context.webhookParams;
        if (params === undefined) throw cannotFill(destination, `%u-${part.param} names a webhook parameter, and only a webhook call has them`);
        const problem = webhookParamsProblem(params);
        if (problem !== undefined) throw cannotFill(destination, problem);
        const value = Object.hasOwn(params, part.param) ? params[part.param] : undefined;
        if (value === undefined || value === '') throw cannotFill(destination, `the webhook call has no parameter ${part.param}`);
        // A parameter fills a name: a `/` in it would let the caller choose folders.
        if (value.includes('/')) throw cannotFill(destination, `the webhook parameter ${part.param} holds a "/"; it may fill a name, not a path`);
        out += value;
        break;
      }
      case 'time':
        out += {
          Y: String(clock.year),
          m: two(clock.month),
          B: MONTHS[clock.month - 1] as string,
          d: two(clock.day),
          H: two(clock.hour),
          M: two(clock.minute),
          S: two(clock.second),
          z: offsetText(context.now, context.timeZone),
        }[part.form];
        break;
    }
  }
  return out;
}

/** Resolves `./` and `../` against the source file's folder; climbing above the root is refused. */
function resolveRelative(filled: string, context: DestinationContext, destination: string): string {
  if (!filled.startsWith('./') && !filled.startsWith('../')) return filled;
  const folders = folderOf(context.sourcePath).split('/').filter((folder) => folder !== '');
  for (const segment of filled.split('/')) {
    if (segment === '..') {
      if (folders.length === 0) throw cannotFill(destination, `it climbs above the root folder from ${context.sourcePath}`);
      folders.pop();
    } else if (segment !== '.' && segment !== '') {
      folders.push(segment);
    }
  }
  return folders.join('/') + (filled.endsWith('/') ? '/' : '');
}

/**
 * The canonical path a source file goes to for one destination. Every token is filled in; a
 * folder destination (trailing `/`) gets the source's own name, below the source's folders under
 * its base unless `flattenDestinationStructure` (or the destination is relative, so already
 * starts from the source's folder); `destination_replace_from` is then replaced by
 * `destination_replace_to` everywhere in the file's name (not its folders). The result is a
 * canonical path (lib/paths.ts), or a bad-request error saying why there is none.
 */
export function expandDestination(destination: string, context: DestinationContext): string {
  const parsed = parseDestination(destination);
  if (!parsed.ok) throw errors.paramsInvalid({ destinations: [`"${destination}" ${parsed.problem}`] });
  const filled = resolveRelative(fill(parsed.parsed, context), context, destination);
  let target: string;
  if (filled.endsWith('/') || filled === '') {
    let kept = '';
    const base = context.sourceBase;
    const sourceFolder = folderOf(context.sourcePath);
    // A relative destination starts from the source's own folder: its structure is already kept.
    const relative = destination.startsWith('./') || destination.startsWith('../');
    if (context.flattenDestinationStructure !== true && base !== undefined && !relative) {
      const baseKey = base.toLowerCase();
      const folderKey = sourceFolder.toLowerCase();
      if (baseKey === '') kept = sourceFolder;
      else if (folderKey.startsWith(`${baseKey}/`)) kept = sourceFolder.slice(base.length + 1);
    }
    target = [filled.replace(/\/+$/, ''), kept, lastSegment(context.sourcePath)].filter((part) => part !== '').join('/');
  } else {
    target = filled;
  }
  const from = context.destinationReplaceFrom ?? '';
  if (from !== '') {
    const name = lastSegment(target).split(from).join(context.destinationReplaceTo ?? '');
    if (name === '') throw cannotFill(destination, `replacing "${from}" leaves the file's name empty`);
    target = [folderOf(target), name].filter((part) => part !== '').join('/');
  }
  return canonicalPath(target);
}

/**
 * The part of a destination fixed before its first token: the folders every file it takes can
 * land in, for checking when an automation is saved that its destinations stay in its Workspace.
 * `relativeLevelsUp` is set for a destination relative to the source's folder (`./`, `../`): how
 * many folders it climbs first, `folder` being then relative to where it lands.
 */
export interface DestinationPrefix {
  folder: string;
  relativeLevelsUp: number | undefined;
}

export function destinationFixedPrefix(destination: string): DestinationPrefix {
  const parsed = parseDestination(destination);
  let fixed = '';
  let whole = true;
  if (parsed.ok) {
    for (const part of parsed.parsed.parts) {
      if (part.kind !== 'text') {
        whole = false;
        break;
      }
      fixed += part.text;
    }
  } else {
    fixed = destination.slice(0, destination.indexOf('%'));
    whole = false;
  }
  // Without a token the last segment is a name unless the destination ends in `/`; with one, the
  // segment the token is in is not fixed either.
  const cut = whole && fixed.endsWith('/') ? fixed : fixed.slice(0, fixed.lastIndexOf('/') + 1);
  const segments = cut.split('/').filter((segment) => segment !== '');
  if (!destination.startsWith('./') && !destination.startsWith('../')) return { folder: segments.join('/'), relativeLevelsUp: undefined };
  let levelsUp = 0;
  const folders: string[] = [];
  for (const segment of segments) {
    if (segment === '.') continue;
    if (segment === '..') {
      if (folders.length > 0) folders.pop();
      else levelsUp += 1;
    } else {
      folders.push(segment);
    }
  }
  return { folder: folders.join('/'), relativeLevelsUp: levelsUp };
}
