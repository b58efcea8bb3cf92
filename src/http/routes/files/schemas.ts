import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { MAX_PARTS, MAX_SELECTED_PATHS } from '../../../files/index.js';
import { paginationQuery } from '../../pagination.js';
import { SortByQuery } from './listing-sort.js';

/**
 * A request without a body (curl -X DELETE, an SDK call without parameters) counts as one with an
 * empty JSON object, so that the body schema applies to both alike.
 */
export async function missingBodyAsEmpty(request: FastifyRequest): Promise<void> {
  request.body ??= {};
}

/** A flag as clients send it: a JSON boolean, or `true`/`false` text (query strings, lenient clients). */
export const Flag = Type.Union([Type.Boolean(), Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

export function flagValue(value: boolean | string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  return value === true || value === 'true' || value === '1';
}

/**
 * A count of bytes or a part number as clients send it: a JSON integer, or its digits as text (the
 * Go SDK sends every parameter of an upload's end as text: `"size": "1102"`). Read by countValue.
 */
const Count = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,16}$' })]);

/** A Count's number; `parameter` names it in the refusal of digits past what is exact (2^53). */
export function countValue(value: number | string | undefined, parameter: string): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isSafeInteger(count)) throw errors.paramsInvalid({ [parameter]: ['is too large'] });
  return count;
}

/**
 * Parameters the Files.com SDKs repeat or send that Atrium accepts and does not use (the SDK copies
 * the path into the query or body; previews are not offered).
 */
const ignored = {
  path: Type.Optional(Type.String()),
  preview_size: Type.Optional(Type.String()),
  with_previews: Type.Optional(Type.Unknown()),
  with_priority_color: Type.Optional(Type.Unknown()),
};

/**
 * The path after the resource name in a wildcard route, for the OpenAPI document: handlers read it
 * from the URL as sent (request-path.ts), never from this decoded copy.
 */
export const PathParams = Type.Object({
  '*': Type.Optional(Type.String({ description: 'folder or file path, raw (`a/b`) or percent-encoded (`a%2Fb`); empty for the root' })),
});

export const MetadataQuery = Type.Object({ ...ignored });

/** A folder or file in a listing and in metadata (contract 6). */
export const EntryBody = Type.Object({
  path: Type.String(),
  display_name: Type.String(),
  type: Type.Union([Type.Literal('directory'), Type.Literal('file')]),
  size: Type.Union([Type.Integer(), Type.Null()]),
  mtime: Type.String({ description: 'when Atrium last changed the entry (an SFTP client\'s SETSTAT sets it too)' }),
  provided_mtime: Type.Union([Type.String(), Type.Null()], { description: 'the modification time the client gave, if any' }),
  created_at: Type.String(),
  permissions: Type.String({ description: 'the caller\'s capabilities on the entry: letters among l (list), r (read), w (write), d (delete)' }),
  crc32: Type.Union([Type.String(), Type.Null()], { description: 'CRC-32 of a file\'s bytes, eight lower-case hex digits; null for folders and files stored before Atrium kept it, and for a file over 128 KiB until it is computed, a few seconds after its upload' }),
  md5: Type.Union([Type.String(), Type.Null()], { description: 'hex MD5 of a file\'s bytes; null for folders and files stored before Atrium kept it, and for a file over 128 KiB until it is computed, a few seconds after its upload' }),
  sha1: Type.Union([Type.String(), Type.Null()], { description: 'hex SHA-1 of a file\'s bytes; null for folders and files stored before Atrium kept it, and for a file over 128 KiB until it is computed, a few seconds after its upload' }),
  sha256: Type.Union([Type.String(), Type.Null()]),
  mime_type: Type.Union([Type.String(), Type.Null()], { description: 'a file\'s media type by its name\'s extension (`application/octet-stream` when unknown); null for folders' }),
  created_by_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the user who created the entry; null when unknown or not a user (a site-wide API key)' }),
  last_modified_by_id: Type.Union([Type.Integer(), Type.Null()], { description: 'the user who last replaced a file\'s contents (for a folder, its creator)' }),
  is_locked: Type.Boolean({ description: 'a lock covers it (taken through /locks or WebDAV): only the lock\'s holder may change it' }),
  download_uri: Type.Optional(Type.String({ description: 'signed, short-lived URL of the bytes (files the caller may read)' })),
});

/**
 * GET /folders/<path>: every parameter the Files.com SDKs document for Folder.listFor (and
 * `filter`, which their newer versions add), each honoured or refused (listing-options.ts).
 */
export const ListingQuery = Type.Object({
  ...paginationQuery,
  sort_by: Type.Optional(SortByQuery),
  search: Type.Optional(Type.String({
    maxLength: 1024,
    description: 'only entries whose name contains this text, case-insensitively (text before the last `/` is ignored)',
  })),
  filter: Type.Optional(Type.String({
    maxLength: 1024,
    description: 'only entries whose whole name matches this pattern, case-insensitively: `*` any run of characters, `?` one character, '
      + '`[abc]`, `[a-z]`, `[!abc]` one character of (or not of) a set, `\\` before a character to take it literally (text before the last `/` is ignored)',
  })),
  search_all: Type.Optional(Flag),
  search_custom_metadata_key: Type.Optional(Type.String({
    maxLength: 1024,
    description: 'refused when not empty: Atrium keeps no custom metadata, so no entry could match',
  })),
  type: Type.Optional(Type.Union([Type.Literal('folder'), Type.Literal('directory'), Type.Literal('file')], {
    description: 'only folders (`folder`, or `directory` as entries name them) or only files (`file`)',
  })),
  modified_at_datetime: Type.Optional(Type.String({
    maxLength: 64,
    description: 'only entries modified strictly after this ISO-8601 time (`2026-01-02T03:04:05Z`, or a date for its midnight UTC)',
  })),
  with_previews: Type.Optional(Flag),
  preview_size: Type.Optional(Type.Union([Type.Literal('small'), Type.Literal('large'), Type.Literal('xlarge'), Type.Literal('pdf')], {
    description: 'accepted and without effect: Atrium makes no previews',
  })),
  with_priority_color: Type.Optional(Flag),
  path: Type.Optional(Type.String()),
});

/** A listing entry: with_previews and with_priority_color add their fields, always null (Atrium has neither). */
export const ListingEntryBody = Type.Object({
  ...EntryBody.properties,
  preview_id: Type.Optional(Type.Null({ description: 'with `with_previews=true`: always null, Atrium makes no previews' })),
  preview: Type.Optional(Type.Null({ description: 'with `with_previews=true`: always null, Atrium makes no previews' })),
  priority_color: Type.Optional(Type.Null({ description: 'with `with_priority_color=true`: always null, Atrium keeps no priority colors' })),
});

/** `provided_mtime`: the modification time a client gives an entry (provided-mtime.ts reads it). */
const ProvidedMtime = Type.String({ maxLength: 64, description: 'the client\'s modification time, ISO-8601 with a zone (`2026-01-02T03:04:05Z`); answered as `provided_mtime`' });

export const CreateFolderBody = Type.Object({
  mkdir_parents: Type.Optional(Flag),
  provided_mtime: Type.Optional(ProvidedMtime),
  ...ignored,
});

export const CreateFolderQuery = Type.Object({ mkdir_parents: Type.Optional(Flag) });

/** POST /file_actions/zip: the files and folders to take, as the request Workspace names them. */
export const ZipRequestBody = Type.Object({
  paths: Type.Array(Type.String({ maxLength: 8192 }), { minItems: 1, maxItems: MAX_SELECTED_PATHS, description: 'files and folders; a folder brings everything in it the caller may list and read' }),
});

export const FileGetQuery = Type.Object({
  action: Type.Optional(Type.String({ description: '`redirect` answers 302 to the download URL; `stream` sends the bytes at once' })),
  ...ignored,
});

/**
 * PATCH /files/<path> (File.update): `provided_mtime` is kept; `priority_color` and
 * `custom_metadata` are refused by name unless empty, since Atrium keeps neither.
 */
export const FileUpdateBody = Type.Object({
  provided_mtime: Type.Optional(ProvidedMtime),
  priority_color: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  custom_metadata: Type.Optional(Type.Unknown()),
  ...ignored,
});

export const DeleteQuery = Type.Object({ recursive: Type.Optional(Flag) });
export const DeleteBody = Type.Object({ recursive: Type.Optional(Flag), ...ignored });

/**
 * POST /file_actions/begin_upload/<path> (File.beginUpload): begin an upload, or, with `ref`, ask
 * where to send parts of one begun before (docs/files.md). Every parameter the SDKs send here is
 * either honoured or refused by name (upload-request.ts).
 */
export const BeginUploadBody = Type.Object({
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description: 'the upload to continue (its `ref`); without it a new upload begins' })),
  part: Type.Optional(Type.Integer({ minimum: 1, description: `the first part to offer (needs \`ref\`; default 1); beyond ${MAX_PARTS} is \`bad-request/part-number-too-large\`` })),
  parts: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PARTS, description: 'how many parts to offer at once (default 1)' })),
  mkdir_parents: Type.Optional(Flag),
  size: Type.Optional({ ...Count, description: 'the file\'s size, when known: over the server\'s upload limit is refused at once; at `action=end`, it must be what the parts hold' }),
  restart: Type.Optional(Type.Integer({ minimum: 0, description: 'only 0: an upload is not resumed at a byte offset' })),
  with_rename: Type.Optional(Flag),
  ...ignored,
});

/** A part and the ETag it was answered with, sent back at an upload's end (upload-etags.ts). */
const PartEtag = Type.Object({ etag: Type.String({ maxLength: 200 }), part: Count });

/**
 * POST /files/<path>: begin an upload, ask where to send parts, or end it (docs/files.md). At the
 * end, `etags` is a list of parts, or flat keys as the Go SDK writes them (`etags[0][etag]`,
 * `etags[0][part]`), read by upload-etags.ts.
 */
export const UploadActionBody = Type.Object({
  ...BeginUploadBody.properties,
  action: Type.Optional(Type.Union([Type.Literal('put'), Type.Literal('end')])),
  length: Type.Optional(Type.Integer({ minimum: 0 })),
  provided_mtime: Type.Optional(ProvidedMtime),
  structure: Type.Optional(Type.String()),
  etags: Type.Optional(Type.Array(PartEtag, { maxItems: 10000, description: 'at `action=end`: every part sent, with the ETag its answer carried' })),
}, { patternProperties: { '^etags\\[[0-9]{1,5}\\]\\[(etag|part)\\]$': Type.String({ maxLength: 200 }) } });

/** What the Files.com SDKs read from a begin-upload answer (their FileUploadPart). */
export const FileUploadPartBody = Type.Object({
  ref: Type.String(),
  path: Type.String(),
  action: Type.String(),
  upload_uri: Type.String(),
  http_method: Type.String(),
  part_number: Type.Integer(),
  partsize: Type.Integer(),
  next_partsize: Type.Integer(),
  parallel_parts: Type.Boolean(),
  retry_parts: Type.Boolean(),
  available_parts: Type.Integer(),
  expires: Type.String(),
  ask_about_overwrites: Type.Boolean(),
  headers: Type.Record(Type.String(), Type.String()),
  parameters: Type.Record(Type.String(), Type.String()),
  send: Type.Record(Type.String(), Type.String()),
});

export const FileActionRequestBody = Type.Object({
  destination: Type.String({ maxLength: 8192 }),
  ...ignored,
});

/** The Files.com FileAction: move and copy finish before the answer, so always `completed`. */
export const FileActionBody = Type.Object({
  status: Type.String(),
  file_migration_id: Type.Union([Type.Integer(), Type.Null()]),
});

export const UploadWholeQuery = Type.Object({ mkdir_parents: Type.Optional(Flag), ...ignored });

export const ReceivedPartBody = Type.Object({ part_number: Type.Integer(), size: Type.Integer(), sha256: Type.String() });

export const TokenParams = Type.Object({ token: Type.String({ maxLength: 256 }) });

/** How a signed download is served: `inline` shows a previewable type in the browser (docs/files.md#previews). */
export const DownloadQuery = Type.Object({
  disposition: Type.Optional(Type.Union([Type.Literal('inline'), Type.Literal('attachment')], {
    description: 'inline: pictures, PDF, plain text, sound and film served as their own type to be shown (sandboxed); anything else, and the default, is an attachment',
  })),
});
