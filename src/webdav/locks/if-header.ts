// The WebDAV `If` request header (RFC 4918 10.4), parsed into lists of conditions. Evaluating
// them against resources and locks is if-evaluation.ts; this file only reads the grammar, and
// anything outside it is a malformed header (400), never a guess.
//
//   If = ( 1*No-tag-list | 1*Tagged-list )
//   No-tag-list = List ;  Tagged-list = Resource-Tag 1*List ;  Resource-Tag = "<" Simple-ref ">"
//   List = "(" 1*Condition ")" ;  Condition = ["Not"] ( State-token | "[" entity-tag "]" )
//   State-token = Coded-URL = "<" absolute-URI ">"

/** One condition of a list: a state token (a lock token, or any other URI) or an entity tag, maybe negated. */
export type IfCondition =
  | { readonly not: boolean; readonly kind: 'token'; readonly token: string }
  | { readonly not: boolean; readonly kind: 'etag'; readonly etag: string };

/** A list: all its conditions must hold (AND). `resource` is the tag it applies to; untagged lists apply to the Request-URI. */
export interface IfList {
  readonly resource: string | undefined;
  readonly conditions: readonly IfCondition[];
}

export class MalformedIfHeader extends Error {}

// A URI in angle brackets: no white space or angle brackets inside, a scheme first for an absolute URI.
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>]*$/;
const SIMPLE_REF = /^[^\s<>]+$/;
// An entity tag, weak or strong; its opaque part has no double quote (RFC 9110 8.8.3).
const ENTITY_TAG = /^(?:W\/)?"[^"]*"/;

/**
 * The lists of an `If` header, in order (several lists: any one may hold, OR). Throws
 * MalformedIfHeader for anything outside the grammar, including tagged and untagged lists mixed.
 */
export function parseIfHeader(header: string): IfList[] {
  const reader = new Reader(header);
  const lists: IfList[] = [];
  let tagged: boolean | undefined;
  let resource: string | undefined;
  reader.skipSpace();
  if (reader.done()) throw new MalformedIfHeader('The If header is empty.');
  while (!reader.done()) {
    if (reader.peek() === '<') {
      if (tagged === false) throw new MalformedIfHeader('An If header has either tagged or untagged lists, not both.');
      tagged = true;
      resource = reader.bracketed('<', '>');
      if (!SIMPLE_REF.test(resource)) throw new MalformedIfHeader('A resource tag must be a URI.');
      reader.skipSpace();
      if (reader.peek() !== '(') throw new MalformedIfHeader('A resource tag must be followed by a list.');
    } else if (reader.peek() === '(') {
      if (tagged === undefined) tagged = false;
    } else {
      throw new MalformedIfHeader(`Unexpected "${reader.peek()}" in the If header.`);
    }
    while (reader.peek() === '(') {
      lists.push({ resource: tagged ? resource : undefined, conditions: readList(reader) });
      reader.skipSpace();
    }
  }
  return lists;
}

function readList(reader: Reader): IfCondition[] {
  reader.expect('(');
  const conditions: IfCondition[] = [];
  reader.skipSpace();
  while (reader.peek() !== ')') {
    if (reader.done()) throw new MalformedIfHeader('A list is not closed.');
    let not = false;
    if (reader.startsWithWord('not')) {
      not = true;
      reader.advance(3);
      reader.skipSpace();
    }
    if (reader.peek() === '<') {
      const token = reader.bracketed('<', '>');
      if (!ABSOLUTE_URI.test(token)) throw new MalformedIfHeader('A state token must be an absolute URI.');
      conditions.push({ not, kind: 'token', token });
    } else if (reader.peek() === '[') {
      reader.advance(1);
      const etag = reader.match(ENTITY_TAG);
      if (etag === undefined) throw new MalformedIfHeader('An entity tag must be quoted.');
      reader.expect(']');
      conditions.push({ not, kind: 'etag', etag });
    } else {
      throw new MalformedIfHeader('A condition is a state token <...> or an entity tag [...], maybe after Not.');
    }
    reader.skipSpace();
  }
  reader.expect(')');
  if (conditions.length === 0) throw new MalformedIfHeader('A list holds at least one condition.');
  return conditions;
}

/** A cursor over the header's characters. */
class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.at >= this.text.length;
  }
  peek(): string {
    return this.text[this.at] ?? '';
  }
  advance(count: number): void {
    this.at += count;
  }
  skipSpace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at += 1;
  }
  expect(char: string): void {
    if (this.peek() !== char) throw new MalformedIfHeader(`Expected "${char}" in the If header.`);
    this.at += 1;
  }
  /** `not` as a word of its own (followed by space, `<` or `[`), in any case. */
  startsWithWord(word: string): boolean {
    const next = this.text[this.at + word.length];
    return this.text.slice(this.at, this.at + word.length).toLowerCase() === word && (next === ' ' || next === '\t' || next === '<' || next === '[');
  }
  /** The text between `open` and the next `close`, both consumed. */
  bracketed(open: string, close: string): string {
    this.expect(open);
    const end = this.text.indexOf(close, this.at);
    if (end === -1) throw new MalformedIfHeader(`"${open}" is not closed.`);
    const inside = this.text.slice(this.at, end);
    this.at = end + 1;
    return inside;
  }
  match(pattern: RegExp): string | undefined {
    const found = pattern.exec(this.text.slice(this.at));
    if (found === null) return undefined;
    this.at += found[0].length;
    return found[0];
  }
}
