// Partners: the outside organisations a Workspace exchanges files with, and who may manage them
// (docs/partners.md). The only entrance to the feature.

export { type PartnerFilter, type PartnerSettings, type PartnerSortField, partnerSortValue } from '../repositories/partners.js';
export { createPartner, deletePartner, getPartner, listPartners, type PartnerInput, type PartnerView, updatePartner } from './partners.js';
export { partnerRecord } from './partner-record.js';
