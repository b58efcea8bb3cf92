import type { PartnerFilter } from '../../partners/index.js';
import type { ListParameterSpec, ListParameters } from '../list-parameters.js';

/** GET /partners's list parameters, as the Files.com SDKs document them. */
export const PARTNER_LIST_PARAMETERS: ListParameterSpec = {
  listing: 'partners',
  sortable: ['workspace_id', 'id'],
  equals: { workspace_id: 'workspace' },
  prefix: [],
  ranges: {},
  notOffered: {},
};

export function partnerFilterOf(parameters: ListParameters): PartnerFilter {
  return parameters.equals.workspace_id === undefined ? {} : { workspaceId: parameters.equals.workspace_id as number };
}
