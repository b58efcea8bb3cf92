import { useEffect, useState } from 'react';
import { listWorkspaces, workspaceLabel, type Workspace } from '../api/account';

/** The Workspaces the person may see, by id, to name them (their ids on hover). */
export function useWorkspaceNames(): (id: number) => string {
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    listWorkspaces(controller.signal).then(setWorkspaces, () => undefined);
    return () => controller.abort();
  }, []);
  return (id) => workspaceLabel(workspaces, id);
}

/** A Workspace by its name, with its id on hover. */
export function WorkspaceName({ id, name }: { id: number; name: string }) {
  return <span title={`Workspace ${id}`}>{name}</span>;
}
