import type { ListParameterSpec } from '../../list-parameters.js';

/**
 * The list parameters every History list takes, read by the same code as every other listing's
 * (list-parameters.ts): Files.com's `filter[user_id|folder|path]`, `filter_prefix[path]` and
 * `sort_by[created_at]`, and Atrium's added filters. History has no range filters: times are
 * narrowed with `start_at` and `end_at`, which the refusal of a `filter_gt[created_at]` says.
 */
export const HISTORY_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'History records',
  sortable: ['created_at'],
  equals: {
    user_id: 'id', path: 'text', folder: 'text', action: 'text', interface: 'text', failure_type: 'text', username: 'text', ip: 'text',
  },
  prefix: ['path'],
  ranges: {},
  notOffered: { created_at: 'narrow times with start_at and end_at' },
};
