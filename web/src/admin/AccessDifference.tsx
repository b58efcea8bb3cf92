import { List, Text } from '@mantine/core';
import type { AccessChange } from '../api/access-review';
import { capabilityWord } from '../words/permissions';

/** Capabilities as words, lower-case in a sentence: "see, download". */
const inWords = (capabilities: string[]) => capabilities.map((c) => capabilityWord(c).name.toLowerCase()).join(', ');

const ROLE_NAMES: Record<string, string> = { site_admin: 'Site Administrator', workspace_admin: 'Workspace Administrator', folder_admin: 'Folder Admin' };

/** One change in words: who, where, what they gain and lose, and which administrator role. */
function describe(change: AccessChange): string {
  const who = change.username ?? `user #${change.user_id}`;
  const where = change.path === '' ? 'the Workspace root' : `“${change.path}”`;
  const parts: string[] = [];
  if (change.gained.length > 0) parts.push(`may now ${inWords(change.gained)}`);
  if (change.lost.length > 0) parts.push(`may no longer ${inWords(change.lost)}`);
  for (const role of change.roles_gained) parts.push(`becomes ${ROLE_NAMES[role] ?? role}`);
  for (const role of change.roles_lost) parts.push(`is no longer ${ROLE_NAMES[role] ?? role}`);
  const keeps = change.lost.length > 0 && change.capabilities_after.length > 0 ? ` (may still ${inWords(change.capabilities_after)} through other permissions)` : '';
  return `${who} ${parts.join(', ')} on ${where}${keeps}.`;
}

/**
 * What a change would do to who can reach what, as the server's dry run answered it. Text only:
 * names are shown as text, never as markup.
 */
export function AccessDifference({ changes }: { changes: AccessChange[] | undefined }) {
  if (changes === undefined) return <Text size="sm" c="dimmed">Working out what this changes…</Text>;
  if (changes.length === 0) return <Text size="sm">No one’s access changes.</Text>;
  const shown = changes.slice(0, 50);
  return (
    <>
      <Text size="sm">What changes:</Text>
      <List size="sm" data-testid="access-difference">
        {shown.map((change) => <List.Item key={`${change.user_id}|${change.path}`} style={{ wordBreak: 'break-word' }}>{describe(change)}</List.Item>)}
      </List>
      {changes.length > shown.length && <Text size="sm" c="dimmed">and {changes.length - shown.length} more.</Text>}
    </>
  );
}
