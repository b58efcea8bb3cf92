import { createHash } from 'node:crypto';
import type { NewHistoryRow } from '../repositories/history.js';

/**
 * The hash chain over History (docs/history.md): each record's hash is SHA-256 of the hash before
 * it and the record's own fields, so editing, removing or reordering a record breaks every hash
 * after it. The fields are taken in a fixed order as a JSON array: an unambiguous text that does
 * not depend on how a database returns columns.
 */
export function chainHash(previousHash: string, row: Omit<NewHistoryRow, 'hash'>): string {
  const fields = [
    row.id, row.created_at, row.action, row.failure_type ?? null, row.interface, row.ip ?? null,
    row.user_id ?? null, row.username ?? null, row.api_key_id ?? null, row.workspace_id ?? null,
    row.path ?? null, row.path_key ?? null, row.source ?? null, row.destination ?? null, row.destination_key ?? null,
    row.display, row.targets ?? null,
    // Only a record made by an automation has these: every other record's hash stays as it was
    // before History named automations.
    ...(row.automation_id == null ? [] : [row.automation_id, row.automation_name ?? null]),
  ];
  return createHash('sha256').update(previousHash).update('\n').update(JSON.stringify(fields)).digest('hex');
}
