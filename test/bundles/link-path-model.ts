// A model of a share link of one folder, written from docs/sharing.md (paths inside a link, ZIPs) and the
// documented naming rules (docs/files.md, docs/errors.md), never from the server's code: what the
// link's entries, files and zip endpoints must answer for a path sent in a URL. The property of
// link-traversal.test.ts compares the server with it.

/** A file or folder of the model's tree. */
export interface ModelNode {
  name: string;
  /** A file's words; undefined for a folder. */
  words?: string;
  children?: ModelNode[];
}

export type ModelRefusal = 'not-found' | 'bad-request/invalid-path' | 'not-found/file-not-found' | 'bad-request/cannot-download-directory' | 'bad-request/request-params-invalid';

/** An entry as the link's listing shows it. */
export interface ModelEntry {
  path: string;
  name: string;
  type: 'file' | 'directory';
  size: number | null;
}

export type ModelAnswer =
  | { refused: ModelRefusal }
  | { entries: ModelEntry[] }
  | { bytes: string }
  /** A ZIP's entries: name to contents, a folder's name ending in `/` and holding ''. */
  | { zip: Record<string, string> };

type Place = { refused: ModelRefusal } | { top: true } | { node: ModelNode; spelled: string };

// Control characters: no name holds one (docs/errors.md, bad-request/invalid-path).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/u;

/**
 * Where a path lies. It is percent-decoded once (`%2F` is a `/`), and what is no UTF-8 names
 * nothing; a segment that is empty, `.` or `..` is refused; the first segment is the shared
 * folder's name, exactly; below it a name holds no control character and is matched as the
 * Workspace matches names, whatever its case.
 */
function placeOf(shared: ModelNode, raw: string): Place {
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return { refused: 'bad-request/invalid-path' };
  }
  if (path === '') return { top: true };
  const segments = path.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return { refused: 'bad-request/invalid-path' };
  if (segments[0] !== shared.name) return { refused: 'not-found/file-not-found' };
  if (segments.some((segment) => CONTROL.test(segment))) return { refused: 'bad-request/invalid-path' };
  let node: ModelNode | undefined = shared;
  for (const segment of segments.slice(1)) {
    node = node?.children?.find((child) => child.name.toLowerCase() === segment.toLowerCase());
    if (node === undefined) return { refused: 'not-found/file-not-found' };
  }
  return { node, spelled: path };
}

const sizeOf = (node: ModelNode) => (node.words === undefined ? null : Buffer.byteLength(node.words));
const typeOf = (node: ModelNode) => (node.words === undefined ? 'directory' : 'file');

/** Folders first, then by name. */
function sorted(nodes: readonly ModelNode[]): ModelNode[] {
  return [...nodes].sort((a, b) => (typeOf(a) === typeOf(b) ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : typeOf(a) === 'directory' ? -1 : 1));
}

/** `GET .../entries?path=`: a folder's entries; at the top, the shared folder; a file, itself. */
export function entriesAnswer(shared: ModelNode, raw: string): ModelAnswer {
  const place = placeOf(shared, raw);
  if ('refused' in place) return place;
  if ('top' in place) return { entries: [{ path: shared.name, name: shared.name, type: 'directory', size: null }] };
  if (place.node.children === undefined) return { entries: [{ path: place.spelled, name: place.node.name, type: 'file', size: sizeOf(place.node) }] };
  return { entries: sorted(place.node.children).map((child) => ({ path: `${place.spelled}/${child.name}`, name: child.name, type: typeOf(child), size: sizeOf(child) })) };
}

/** `GET .../files/<rel>`: a file's bytes; a folder is no download, and a URL that ends at `files/` names no endpoint. */
export function fileAnswer(shared: ModelNode, raw: string): ModelAnswer {
  if (raw === '') return { refused: 'not-found' };
  const place = placeOf(shared, raw);
  if ('refused' in place) return place;
  if ('top' in place || place.node.words === undefined) return { refused: 'bad-request/cannot-download-directory' };
  return { bytes: place.node.words };
}

/** A name in a ZIP: a `\` is `-`, and so is the `:` of a name that begins as a drive does. */
const inArchive = (name: string) => name.replaceAll('\\', '-').replace(/^([A-Za-z]):/u, '$1-');

/** `GET .../zip?path=`: a folder, or at the top everything shared, as a ZIP; a file is no ZIP. */
export function zipAnswer(shared: ModelNode, raw: string): ModelAnswer {
  const place = placeOf(shared, raw);
  if ('refused' in place) return place;
  const zip: Record<string, string> = {};
  const add = (node: ModelNode, name: string) => {
    zip[node.words === undefined ? `${name}/` : name] = node.words ?? '';
    for (const child of node.children ?? []) add(child, `${name}/${inArchive(child.name)}`);
  };
  if ('top' in place) add(shared, inArchive(shared.name));
  else if (place.node.children === undefined) return { refused: 'bad-request/request-params-invalid' };
  else for (const child of place.node.children) add(child, inArchive(child.name));
  return { zip };
}
