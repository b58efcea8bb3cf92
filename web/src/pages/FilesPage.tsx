import { Alert, Button, Center, FileButton, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { mayManage } from '../api/explain';
import { copyEntry, createFolder, deleteEntry, downloadLink, folderPermissions, joinPath, moveEntry, type Entry } from '../api/files';
import { FolderBreadcrumbs } from '../files/Breadcrumbs';
import { historyLink } from '../history/links';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { DropZone } from '../files/DropZone';
import { EntryTable, type EntryAction } from '../files/EntryTable';
import { UploadList } from '../files/UploadList';
import { useFolder } from '../files/useFolder';
import { useFolderSort } from '../files/useFolderSort';
import { useUploads } from '../files/useUploads';
import { useAuthority } from '../session/authority';

// Loaded when first opened: most visits never need them.
const ReachDialog = lazy(() => import('../files/ReachDialog').then((m) => ({ default: m.ReachDialog })));
const ExplainDialog = lazy(() => import('../files/ExplainDialog').then((m) => ({ default: m.ExplainDialog })));
const PermissionsDialog = lazy(() => import('../files/PermissionsDialog').then((m) => ({ default: m.PermissionsDialog })));
const ShareDialog = lazy(() => import('../shares/ShareDialog').then((m) => ({ default: m.ShareDialog })));

type Dialog = { kind: 'new-folder' } | { kind: 'folder-permissions' } | { kind: 'move' | 'copy' | 'delete' | 'explain' | 'reach' | 'permissions' | 'share' | 'request-files'; entry: Entry } | undefined;

export function FilesPage() {
  const path = (useParams()['*'] ?? '').replace(/\/+$/, '');
  const { sort, toggle: toggleSort } = useFolderSort();
  const folder = useFolder(path, sort);
  const authority = useAuthority();
  const [letters, setLetters] = useState<string | undefined>();
  // Whether the caller manages this folder's grants: administrators everywhere, a Folder Admin under their grant.
  const [managesHere, setManagesHere] = useState<boolean | undefined>();
  // Administrators, and a Folder Admin within their folders, may ask about someone else's access.
  const mayAskForOthers = authority.administrator || managesHere === true;
  const [dialog, setDialog] = useState<Dialog>();
  const [actionError, setActionError] = useState<string | undefined>();
  const { reload } = folder;
  const uploads = useUploads(reload);
  const navigate = useNavigate();

  useEffect(() => {
    const controller = new AbortController();
    setLetters(undefined);
    folderPermissions(path, controller.signal).then(setLetters, () => undefined);
    return () => controller.abort();
  }, [path]);

  useEffect(() => {
    const controller = new AbortController();
    setManagesHere(undefined);
    mayManage(path, controller.signal).then(setManagesHere, () => undefined);
    return () => controller.abort();
  }, [path]);

  // Opening a folder never loads all of it: the next page comes when its end scrolls into view.
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadMore } = folder;
  useEffect(() => {
    const element = sentinel.current;
    if (element === null || !hasMore) return;
    const observer = new IntersectionObserver((seen) => { if (seen.some((s) => s.isIntersecting)) loadMore(); }, { rootMargin: '400px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loadMore]);

  const mayWrite = letters === undefined || letters.includes('w');
  const writeReason = mayWrite ? undefined : 'You may not add anything to this folder.';

  const onAction = useCallback(async (entry: Entry, action: EntryAction) => {
    setActionError(undefined);
    if (action === 'download') {
      try {
        const link = document.createElement('a');
        link.href = await downloadLink(entry.path);
        link.download = entry.display_name;
        link.rel = 'noreferrer';
        document.body.append(link);
        link.click();
        link.remove();
      } catch (caught) {
        setActionError(caught instanceof Error ? caught.message : 'The download could not start.');
      }
      return;
    }
    if (action === 'history') {
      navigate(historyLink(entry));
      return;
    }
    setDialog({ kind: action, entry });
  }, [navigate]);

  return (
    // data-manages says whether the server was asked yet, so a test can tell "not offered" from "not yet known".
    <Stack gap="md" data-manages={managesHere === undefined ? 'checking' : String(managesHere)}>
      <FolderBreadcrumbs path={path} />
      <Group gap="sm">
        <Tooltip label={writeReason} disabled={mayWrite}>
          <Button variant="default" disabled={!mayWrite} onClick={() => setDialog({ kind: 'new-folder' })}>New folder</Button>
        </Tooltip>
        <FileButton multiple onChange={(files) => uploads.start(path, files)} disabled={!mayWrite}>
          {(props) => (
            <Tooltip label={writeReason} disabled={mayWrite}>
              <Button {...props} disabled={!mayWrite}>Upload files</Button>
            </Tooltip>
          )}
        </FileButton>
        {mayWrite && <Text size="sm" c="dimmed" visibleFrom="sm">or drop files on the list</Text>}
        {managesHere === true && <Button variant="default" onClick={() => setDialog({ kind: 'folder-permissions' })}>Permissions of this folder</Button>}
      </Group>
      {actionError !== undefined && <Alert color="red" role="alert" withCloseButton onClose={() => setActionError(undefined)}>{actionError}</Alert>}
      <UploadList uploads={uploads.uploads} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
      <DropZone disabled={!mayWrite} onFiles={(files) => uploads.start(path, files)}>
        {folder.error !== undefined ? (
          <Alert color="red" role="alert" title="This folder could not be opened">
            {folder.error} <Button variant="subtle" size="xs" onClick={folder.reload}>Try again</Button>
          </Alert>
        ) : folder.entries.length > 0 ? (
          <EntryTable entries={folder.entries} sort={sort} onSort={toggleSort} offerPermissions={authority.administrator ? 'all' : 'ask'} onAction={(entry, action) => void onAction(entry, action)} />
        ) : folder.loading ? null : (
          <Center py="xl"><Text c="dimmed">This folder is empty.</Text></Center>
        )}
        {folder.loading && <Center py="md"><Loader size="sm" aria-label="Loading" /></Center>}
        {folder.hasMore && !folder.loading && (
          <Center py="sm" ref={sentinel}><Button variant="subtle" onClick={folder.loadMore}>Show more</Button></Center>
        )}
      </DropZone>

      {dialog?.kind === 'new-folder' && (
        <NameDialog opened title="New folder" label="Folder name" initial="" submitLabel="Create" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await createFolder(joinPath(path, name)); reload(); }} />
      )}
      {dialog?.kind === 'move' && (
        <NameDialog opened title="Rename or move" label="New path (folders separated by /)" initial={dialog.entry.path} submitLabel="Move" onClose={() => setDialog(undefined)}
          onSubmit={async (destination) => { await moveEntry(dialog.entry.path, destination); reload(); }} />
      )}
      {dialog?.kind === 'copy' && (
        <NameDialog opened title="Copy" label="Copy to (folders separated by /)" initial={`${dialog.entry.path} copy`} submitLabel="Copy" onClose={() => setDialog(undefined)}
          onSubmit={async (destination) => { await copyEntry(dialog.entry.path, destination); reload(); }} />
      )}
      <Suspense fallback={null}>
        {dialog?.kind === 'folder-permissions' && <PermissionsDialog path={path} name={path === '' ? 'All files' : path} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'permissions' && <PermissionsDialog path={dialog.entry.path} name={dialog.entry.display_name} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'reach' && <ReachDialog path={dialog.entry.path} name={dialog.entry.display_name} type={dialog.entry.type} onClose={() => setDialog(undefined)} />}
        {(dialog?.kind === 'share' || dialog?.kind === 'request-files') && (
          <ShareDialog onClose={() => setDialog(undefined)} target={{
            kind: 'new', path: dialog.entry.path, name: dialog.entry.display_name, folder: dialog.entry.type === 'directory', request: dialog.kind === 'request-files',
          }} />
        )}
        {dialog?.kind === 'explain' && <ExplainDialog path={dialog.entry.path} name={dialog.entry.display_name} forOthers={mayAskForOthers} onClose={() => setDialog(undefined)} />}
      </Suspense>
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title={dialog.entry.type === 'directory' ? 'Delete folder' : 'Delete file'} confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => { await deleteEntry(dialog.entry.path); reload(); }}>
          Delete <strong>{dialog.entry.display_name}</strong>{dialog.entry.type === 'directory' ? ' and everything in it' : ''}? This cannot be undone.
        </ConfirmDialog>
      )}
    </Stack>
  );
}
