import { Alert, Button, Center, FileButton, Group, Loader, Stack, Text, Tooltip } from '@mantine/core';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { mayManage } from '../api/explain';
import { copyEntry, createFolder, deleteEntry, downloadLink, folderPermissions, joinPath, moveEntry, parentOf, type Entry } from '../api/files';
import { FolderBreadcrumbs, folderUrl, OPEN_PARAMETER, WORKSPACES_FOLDER } from '../files/Breadcrumbs';
import { historyLink } from '../history/links';
import { ConfirmDialog, NameDialog } from '../files/dialogs';
import { DropZone } from '../files/DropZone';
import { FolderSearchBox } from '../files/FolderSearchBox';
import { EntryTable, type EntryAction } from '../files/EntryTable';
import { moveInto } from '../files/move-entries';
import { saveAs } from '../files/save-as';
import { SelectionBar } from '../files/SelectionBar';
import { UploadList } from '../files/UploadList';
import { useFolder } from '../files/useFolder';
import { SortChoice } from '../files/SortChoice';
import { useFolderSort } from '../files/useFolderSort';
import { useNarrow } from '../layout/useNarrow';
import { useSelection } from '../files/useSelection';
import { previewKindOf } from '../preview/preview-kind';
import { useTrashRetention } from '../files/useTrashRetention';
import { useUploads } from '../files/useUploads';
import { preloadable } from '../loading/preloadable';
import { useAuthority } from '../session/authority';

// Loaded when first opened: most visits never need them.
const ReachDialog = lazy(() => import('../files/ReachDialog').then((m) => ({ default: m.ReachDialog })));
const ExplainDialog = lazy(() => import('../files/ExplainDialog').then((m) => ({ default: m.ExplainDialog })));
const PermissionsDialog = lazy(() => import('../files/PermissionsDialog').then((m) => ({ default: m.PermissionsDialog })));
const ShareDialog = lazy(() => import('../shares/ShareDialog').then((m) => ({ default: m.ShareDialog })));
const FileOpener = preloadable(() => import('../files/FileOpener').then((m) => m.FileOpener));
const MoveDialog = lazy(() => import('../files/MoveDialog').then((m) => ({ default: m.MoveDialog })));
const SearchResults = preloadable(() => import('../files/SearchResults').then((m) => m.SearchResults));
const VersionsDialog = lazy(() => import('../files/VersionsDialog').then((m) => ({ default: m.VersionsDialog })));

type Dialog =
  | { kind: 'new-folder' }
  | { kind: 'folder-permissions' }
  | { kind: 'rename' | 'copy' | 'explain' | 'reach' | 'permissions' | 'versions' | 'share' | 'request-files'; entry: Entry }
  | { kind: 'move' | 'delete'; entries: Entry[] }
  | undefined;

/** The address parameter of a search of the folder and below (`/files/Reports?search=q3`), so Back returns to the results. */
const SEARCH = 'search';

export function FilesPage() {
  const path = (useParams()['*'] ?? '').replace(/\/+$/, '');
  const { sort, toggle: toggleSort, choose: chooseSort } = useFolderSort();
  const narrow = useNarrow();
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
  const [params, setParams] = useSearchParams();
  const opened = params.get(OPEN_PARAMETER) ?? undefined;
  const selection = useSelection(path, folder.entries);
  const [notice, setNotice] = useState<string | undefined>();
  const retentionDays = useTrashRetention(dialog?.kind === 'delete');
  const searched = (params.get(SEARCH) ?? '').trim();
  const applySearch = useCallback((text: string) => {
    setParams((current) => {
      if (text.trim() === '') current.delete(SEARCH);
      else current.set(SEARCH, text.trim());
      return current;
    }, { replace: true });
  }, [setParams]);

  // What a person opens next from a folder, a file or a search, loaded once the folder is shown.
  useEffect(() => {
    const soon = setTimeout(() => {
      void FileOpener.preload();
      void SearchResults.preload();
    }, 0);
    return () => clearTimeout(soon);
  }, []);

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

  // A folder that is not there takes nothing: Upload and New folder say why instead of failing.
  const mayWrite = !folder.missing && (letters === undefined || letters.includes('w'));
  const writeReason = mayWrite ? undefined : folder.missing ? 'This folder does not exist.' : 'You may not add anything to this folder.';

  const download = useCallback(async (entry: Entry) => {
    try {
      saveAs(await downloadLink(entry.path), entry.display_name);
    } catch (caught) {
      setActionError(caught instanceof Error ? caught.message : 'The download could not start.');
    }
  }, []);

  const onAction = useCallback(async (entry: Entry, action: EntryAction) => {
    setActionError(undefined);
    setNotice(undefined);
    if (action === 'open') {
      // What a browser can show opens in a preview (its own address, to copy); anything else downloads.
      if (previewKindOf(entry.display_name, entry.mime_type) !== undefined) {
        setParams((current) => { current.set(OPEN_PARAMETER, entry.display_name); return current; });
      } else {
        await download(entry);
      }
      return;
    }
    if (action === 'download') return download(entry);
    if (action === 'history') {
      navigate(historyLink(entry));
      return;
    }
    if (action === 'move' || action === 'delete') {
      setDialog({ kind: action, entries: [entry] });
      return;
    }
    setDialog({ kind: action, entry });
  }, [navigate, download, setParams]);

  const closePreview = useCallback(() => setParams((current) => { current.delete(OPEN_PARAMETER); return current; }), [setParams]);

  // Rows dropped on a folder (a row or a breadcrumb): moved there by the same API call as the dialog's.
  const dropInto = useCallback(async (target: string, paths: string[]) => {
    setActionError(undefined);
    setNotice(undefined);
    const outcome = await moveInto(paths.map((p) => ({ path: p, display_name: p.slice(p.lastIndexOf('/') + 1) })), target);
    if (outcome.moved > 0) {
      selection.clear();
      reload();
      setNotice(`Moved ${outcome.moved === 1 ? paths[0]!.slice(paths[0]!.lastIndexOf('/') + 1) : `${outcome.moved} items`} to ${target === '' ? 'All files' : target}.`);
    }
    if (outcome.error !== undefined) setActionError(outcome.error);
  }, [reload, selection]);

  const chosen = folder.entries.filter((entry) => selection.selected.has(entry.path));

  return (
    // data-manages says whether the server was asked yet, so a test can tell "not offered" from "not yet known".
    <Stack gap="md" data-manages={managesHere === undefined ? 'checking' : String(managesHere)}>
      <FolderBreadcrumbs path={path} onDropInto={(target, paths) => void dropInto(target, paths)} />
      {path === WORKSPACES_FOLDER && (
        <Text size="sm" c="dimmed">Each Custom Workspace keeps its files here, in Workspaces/ and the Workspace's number. Its users see that folder as their own All files.</Text>
      )}
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
        <FolderSearchBox path={path} searched={searched} onSearch={applySearch} />
      </Group>
      {actionError !== undefined && <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setActionError(undefined)}>{actionError}</Alert>}
      {notice !== undefined && <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setNotice(undefined)}>{notice}</Alert>}
      {chosen.length > 0 && (
        <SelectionBar entries={chosen} onClear={selection.clear} onError={setActionError}
          onMove={() => setDialog({ kind: 'move', entries: chosen })} onDelete={() => setDialog({ kind: 'delete', entries: chosen })} />
      )}
      <UploadList uploads={uploads.uploads} onCancel={uploads.cancel} onClear={uploads.clearFinished} />
      <DropZone disabled={!mayWrite} onFiles={(files) => uploads.start(path, files)}>
        {searched !== '' ? (
          <Suspense fallback={null}><SearchResults folder={path} text={searched} /></Suspense>
        ) : folder.missing ? (
          <Alert color="red" role="alert" title="This folder does not exist">
            There is no folder {path} here, or you may not see it. It may have been moved, renamed or deleted.{' '}
            <Button variant="subtle" size="xs" onClick={() => navigate(folderUrl(parentOf(path)))}>Go up</Button>
          </Alert>
        ) : folder.error !== undefined ? (
          <Alert color="red" role="alert" title="This folder could not be opened">
            {folder.error} <Button variant="subtle" size="xs" onClick={folder.reload}>Try again</Button>
          </Alert>
        ) : folder.entries.length > 0 ? (
          <>
            {narrow && folder.entries.length > 1 && <SortChoice sort={sort} onChoose={chooseSort} />}
            <EntryTable entries={folder.entries} sort={sort} onSort={toggleSort} offerPermissions={authority.administrator ? 'all' : 'ask'} onAction={(entry, action) => void onAction(entry, action)}
              selection={selection} onDropInto={(target, paths) => void dropInto(target, paths)} />
          </>
        ) : folder.loading ? null : (
          <Center py="xl"><Text c="dimmed">This folder is empty.</Text></Center>
        )}
        {searched === '' && folder.loading && <Center py="md"><Loader size="sm" aria-label="Loading" /></Center>}
        {searched === '' && folder.hasMore && !folder.loading && (
          <Center py="sm" ref={sentinel}><Button variant="subtle" onClick={folder.loadMore}>Show more</Button></Center>
        )}
      </DropZone>

      {dialog?.kind === 'new-folder' && (
        <NameDialog opened title="New folder" label="Folder name" initial="" submitLabel="Create" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await createFolder(joinPath(path, name)); reload(); }} />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog opened title="Rename" label="New name" initial={dialog.entry.display_name} submitLabel="Rename" onClose={() => setDialog(undefined)}
          onSubmit={async (name) => { await moveEntry(dialog.entry.path, joinPath(parentOf(dialog.entry.path), name)); reload(); }} />
      )}
      {dialog?.kind === 'copy' && (
        <NameDialog opened title="Copy" label="Copy to (folders separated by /)" initial={`${dialog.entry.path} copy`} submitLabel="Copy" onClose={() => setDialog(undefined)}
          onSubmit={async (destination) => { await copyEntry(dialog.entry.path, destination); reload(); }} />
      )}
      <Suspense fallback={null}>
        {dialog?.kind === 'move' && (
          <MoveDialog entries={dialog.entries} from={path} onClose={() => setDialog(undefined)} onMoved={() => { selection.clear(); reload(); }} />
        )}
        {opened !== undefined && <FileOpener folder={path} name={opened} onClose={closePreview} />}
        {dialog?.kind === 'folder-permissions' && <PermissionsDialog path={path} name={path === '' ? 'All files' : path} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'permissions' && <PermissionsDialog path={dialog.entry.path} name={dialog.entry.display_name} onClose={() => setDialog(undefined)} />}
        {dialog?.kind === 'reach' && <ReachDialog path={dialog.entry.path} name={dialog.entry.display_name} type={dialog.entry.type} onClose={() => setDialog(undefined)} />}
        {(dialog?.kind === 'share' || dialog?.kind === 'request-files') && (
          <ShareDialog onClose={() => setDialog(undefined)} target={{
            kind: 'new', path: dialog.entry.path, name: dialog.entry.display_name, folder: dialog.entry.type === 'directory', request: dialog.kind === 'request-files',
          }} />
        )}
        {dialog?.kind === 'versions' && <VersionsDialog entry={dialog.entry} onClose={() => setDialog(undefined)} onRestored={reload} />}
        {dialog?.kind === 'explain' && <ExplainDialog path={dialog.entry.path} name={dialog.entry.display_name} forOthers={mayAskForOthers} onClose={() => setDialog(undefined)} />}
      </Suspense>
      {dialog?.kind === 'delete' && (
        <ConfirmDialog opened title={deleteTitle(dialog.entries)} confirmLabel="Delete" onClose={() => setDialog(undefined)}
          onConfirm={async () => {
            try {
              for (const entry of dialog.entries) await deleteEntry(entry.path);
            } finally {
              selection.clear();
              reload();
            }
          }}>
          {dialog.entries.length === 1 ? (
            <>Delete <strong>{dialog.entries[0]!.display_name}</strong>{dialog.entries[0]!.type === 'directory' ? ' and everything in it' : ''}?</>
          ) : (
            <>Delete these {dialog.entries.length} items{dialog.entries.some((e) => e.type === 'directory') ? ', the folders with everything in them' : ''}?</>
          )} {trashSentence(dialog.entries.length, retentionDays)}
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/** Where deleted items go, for the confirmation: the trash, and for how long when the caller may read the site's setting. */
function trashSentence(count: number, retentionDays: number | undefined): string {
  const kept = retentionDays === undefined ? '' : ` for ${retentionDays} day${retentionDays === 1 ? '' : 's'}`;
  return count === 1 ? `It goes to the trash${kept}, where it can be restored.` : `They go to the trash${kept}, where they can be restored.`;
}

function deleteTitle(entries: Entry[]): string {
  if (entries.length > 1) return `Delete ${entries.length} items`;
  return entries[0]?.type === 'directory' ? 'Delete folder' : 'Delete file';
}

