/**
 * Media types by file extension: what desktop clients use to pick an application (WebDAV's
 * getcontenttype and GET) and what the REST API answers as a file's `mime_type`. A table of the
 * common types rather than a dependency: the full registry (mime-db) is a megabyte of types
 * nobody stores, and an unknown extension has a sound answer, `application/octet-stream`.
 */
const TYPES: ReadonlyMap<string, string> = new Map(Object.entries({
  txt: 'text/plain', log: 'text/plain', md: 'text/markdown', csv: 'text/csv', tsv: 'text/tab-separated-values', html: 'text/html', htm: 'text/html',
  css: 'text/css', xml: 'application/xml', js: 'text/javascript', mjs: 'text/javascript', json: 'application/json', yaml: 'application/yaml',
  yml: 'application/yaml', rtf: 'application/rtf', ics: 'text/calendar', vcf: 'text/vcard',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar',
  bz2: 'application/x-bzip2', '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar', epub: 'application/epub+zip',
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', bmp: 'image/bmp',
  tif: 'image/tiff', tiff: 'image/tiff', ico: 'image/vnd.microsoft.icon', heic: 'image/heic', avif: 'image/avif',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', flac: 'audio/flac', m4a: 'audio/mp4', aac: 'audio/aac',
  mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', avi: 'video/x-msvideo', mkv: 'video/x-matroska', mpeg: 'video/mpeg', mpg: 'video/mpeg',
  woff: 'font/woff', woff2: 'font/woff2', ttf: 'font/ttf', otf: 'font/otf',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
}));

/**
 * The media type of a file named `name`, by its extension in any case; `application/octet-stream`
 * when unknown (a Map, so that `x.constructor` or `x.__proto__` is unknown too, not Object's own).
 */
export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot === -1 ? undefined : TYPES.get(name.slice(dot + 1).toLowerCase())) ?? 'application/octet-stream';
}
