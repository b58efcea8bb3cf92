import type { Static } from 'typebox';
import { errors } from '../../../errors/catalogue.js';
import { DEFAULT_LISTING_SORT, listingMatchOf, type ListingMatch, type ListingSort } from '../../../files/index.js';
import { parseIsoTimeInput } from '../../../lib/iso-time-input.js';
import { flagValue, type ListingQuery } from './schemas.js';

/** How the listing's entries are written: the fields with_previews and with_priority_color ask for. */
export interface ListingRendering {
  withPreviews: boolean;
  withPriorityColor: boolean;
}

// No name holds a control character (paths refuse them), and PostgreSQL refuses a text holding NUL.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** What a folder listing request asks for besides its page: which entries, how deep, how written. */
export interface ListingOptions {
  match: ListingMatch;
  /** search_all: the whole subtree below the folder, not only its children. */
  subtree: boolean;
  rendering: ListingRendering;
}

/**
 * Reads the listing's search and filter parameters (docs/files.md, "Searching and filtering"). A
 * parameter Atrium cannot honour is refused with its name, never dropped: a client must not take
 * a plain listing for the matches it asked for.
 */
export function listingOptionsOf(query: Static<typeof ListingQuery>, sort: ListingSort): ListingOptions {
  if (query.search_custom_metadata_key !== undefined && query.search_custom_metadata_key !== '') {
    throw errors.paramsInvalid({
      search_custom_metadata_key: ['cannot be used: Atrium keeps no custom metadata on files or folders, so no entry could match; search by name with search alone'],
    });
  }
  for (const name of ['search', 'filter'] as const) {
    if (CONTROL_CHARACTERS.test(query[name] ?? '')) throw errors.paramsInvalid({ [name]: ['may not contain control characters: no name holds one'] });
  }
  let modifiedAfter: number | undefined;
  if (query.modified_at_datetime !== undefined && query.modified_at_datetime.trim() !== '') {
    modifiedAfter = parseIsoTimeInput(query.modified_at_datetime);
    if (modifiedAfter === undefined) throw errors.paramsInvalid({ modified_at_datetime: ['must be an ISO-8601 time such as 2026-01-02T03:04:05Z'] });
  }
  const read = listingMatchOf({
    search: query.search,
    filter: query.filter,
    type: query.type === undefined ? undefined : query.type === 'file' ? 'file' : 'directory',
    modifiedAfter,
  });
  if (!read.ok) throw errors.paramsInvalid({ filter: [read.problem] });

  const subtree = flagValue(query.search_all, false);
  if (subtree && (sort.field !== DEFAULT_LISTING_SORT.field || sort.direction !== DEFAULT_LISTING_SORT.direction)) {
    throw errors.invalidSortFilterCombination(
      'A search_all search lists its results folder by folder, by path: send it without sort_by, or with sort_by[path]=asc.',
      { sort_by: ['must be path asc (or absent) with search_all'] },
    );
  }
  return {
    match: read.match,
    subtree,
    rendering: { withPreviews: flagValue(query.with_previews, false), withPriorityColor: flagValue(query.with_priority_color, false) },
  };
}
