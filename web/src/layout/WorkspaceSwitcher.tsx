import { Badge, ColorSwatch, Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { WORKSPACES_CHANGED } from '../api/workspace-events';
import { useSession } from '../session/session';
import { workspaceColour } from './workspace-colour';

interface Workspace {
  id: number;
  name: string;
}

function label(workspace: Workspace): string {
  return workspace.id === 0 ? 'Default Workspace' : workspace.name || `Workspace ${workspace.id}`;
}

/**
 * The current Workspace, always shown. Only a Workspace 0 user may work in another Workspace, so
 * only they get a switcher, listing the Workspaces they may see; everyone else sees a label.
 */
export function WorkspaceSwitcher() {
  const { profile, workspaceId, setWorkspaceId } = useSession();
  const navigate = useNavigate();
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  // A Partner user of the Default Workspace is confined to its Partner's root: nothing to switch to.
  const mayChoose = profile?.workspaceId === 0 && (profile.partnerId ?? null) === null;

  useEffect(() => {
    const controller = new AbortController();
    // Asked in the user's own Workspace: with another one selected, the list shows only that one.
    const load = () => {
      api<Workspace[]>('GET', '/workspaces', { homeContext: true, query: { per_page: 1000 }, signal: controller.signal })
        .then(({ data }) => setWorkspaces(data), () => undefined);
    };
    load();
    window.addEventListener(WORKSPACES_CHANGED, load);
    return () => {
      window.removeEventListener(WORKSPACES_CHANGED, load);
      controller.abort();
    };
  }, []);

  const current = workspaces.find((w) => w.id === workspaceId);
  const currentLabel = current === undefined ? (workspaceId === 0 ? 'Default Workspace' : `Workspace ${workspaceId ?? ''}`) : label(current);
  const colour = workspaceColour(workspaceId ?? 0);
  // The id on hover: what an administrator reads in the API and in History.
  const hover = `Workspace ${workspaceId ?? 0}`;
  if (!mayChoose || workspaces.length < 2) {
    return (
      // Neutral text (coloured text on a tint misses 4.5:1 for several colours); the dot carries the colour.
      <Badge variant="default" size="lg" aria-label={`Current Workspace: ${currentLabel}`} title={hover} maw={220} style={{ textTransform: 'none' }}
        leftSection={<ColorSwatch color={`var(--mantine-color-${colour}-6)`} size={10} withShadow={false} aria-hidden="true" />}>
        {currentLabel}
      </Badge>
    );
  }
  return (
    <Select
      aria-label="Workspace"
      title={hover}
      size="xs"
      w={{ base: 170, sm: 220 }}
      leftSection={<ColorSwatch color={`var(--mantine-color-${colour}-6)`} size={12} withShadow={false} aria-hidden="true" />}
      renderOption={({ option }) => (
        <span style={{ display: 'flex', alignItems: 'center', gap: 8 }} title={`Workspace ${option.value}`}>
          <ColorSwatch color={`var(--mantine-color-${workspaceColour(Number(option.value))}-6)`} size={10} withShadow={false} aria-hidden="true" />
          {option.label}
        </span>
      )}
      allowDeselect={false}
      value={String(workspaceId ?? 0)}
      data={workspaces.map((w) => ({ value: String(w.id), label: label(w) }))}
      onChange={(value) => {
        if (value === null) return;
        setWorkspaceId(Number(value));
        // Paths differ from one Workspace to another: start at the new one's root.
        navigate('/files');
      }}
    />
  );
}
