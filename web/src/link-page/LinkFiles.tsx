import { Alert, Anchor, Breadcrumbs, Button, Center, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatSize, formatTime } from '../files/format';
import { fileUrl, LinkError, listEntries, VISIT_REQUIRED, zipUrl, type Link, type LinkEntry } from './api';
import { LinkPreview } from './LinkPreview';

type Listing = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'shown'; entries: LinkEntry[] };

const breakAnywhere = { overflowWrap: 'anywhere' as const, minWidth: 0 };

/**
 * What the link shares, one folder at a time, with the way back up in breadcrumbs; downloads of a
 * file or of a folder as a ZIP unless the link only shows, and a preview of what a browser can show.
 */
export function LinkFiles({ link, path, refresh, onOpenFolder, onVisitRequired }: {
  link: Link;
  path: string;
  /** Changes when the folder should be read again (after an upload). */
  refresh: number;
  onOpenFolder(path: string): void;
  /** The server no longer knows this browser's visit: the link asks again. */
  onVisitRequired(): void;
}) {
  const [listing, setListing] = useState<Listing>({ kind: 'loading' });
  const [previewed, setPreviewed] = useState<LinkEntry | undefined>();

  useEffect(() => {
    const controller = new AbortController();
    listEntries(link.code, path, controller.signal)
      .then((entries) => setListing({ kind: 'shown', entries }))
      .catch((caught: unknown) => {
        if (controller.signal.aborted) return;
        if (caught instanceof LinkError && (caught.type === VISIT_REQUIRED || caught.type === 'not-found/bundle-not-found')) return onVisitRequired();
        setListing({ kind: 'failed', message: caught instanceof Error ? caught.message : 'The folder could not be read.' });
      });
    return () => controller.abort();
  }, [link.code, path, refresh, onVisitRequired]);

  const segments = path === '' ? [] : path.split('/');
  const crumbs = [{ name: 'All shared files', path: '' }, ...segments.map((name, i) => ({ name, path: segments.slice(0, i + 1).join('/') }))];

  return (
    <Stack gap="sm" component="section" aria-label="Shared files">
      <Group justify="space-between" gap="xs" align="center">
        <nav aria-label="Folder path" style={{ ...breakAnywhere, flex: '1 1 14rem' }}>
          {/* A long folder name wraps rather than widen the page past a phone's screen. */}
          <Breadcrumbs separatorMargin={4} style={{ flexWrap: 'wrap' }} styles={{ breadcrumb: { whiteSpace: 'normal', ...breakAnywhere } }}>
            {crumbs.map((crumb, i) =>
              i === crumbs.length - 1 ? (
                <Text key={crumb.path} fw={600} aria-current="page" style={breakAnywhere}>{crumb.name}</Text>
              ) : (
                <Anchor key={crumb.path} component="button" type="button" onClick={() => onOpenFolder(crumb.path)} style={breakAnywhere}>{crumb.name}</Anchor>
              ),
            )}
          </Breadcrumbs>
        </nav>
        {link.can.download && (
          <Button component="a" href={zipUrl(link.code, path)} download variant="light" size="sm">
            {path === '' ? 'Download all as ZIP' : 'Download this folder as ZIP'}
          </Button>
        )}
      </Group>
      {listing.kind === 'loading' && <Center py="md"><Loader size="sm" aria-label="Loading the folder" /></Center>}
      {listing.kind === 'failed' && <Alert color="red" role="alert" title="The folder could not be read">{listing.message}</Alert>}
      {listing.kind === 'shown' && listing.entries.length === 0 && <Text c="dimmed">This folder is empty.</Text>}
      {listing.kind === 'shown' && listing.entries.length > 0 && (
        <Paper withBorder component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Files and folders">
          {listing.entries.map((entry, i) => (
            <EntryRow key={entry.path} link={link} entry={entry} first={i === 0} onOpenFolder={onOpenFolder} onPreview={setPreviewed} />
          ))}
        </Paper>
      )}
      <LinkPreview link={link} entry={previewed} onClose={() => setPreviewed(undefined)} />
    </Stack>
  );
}

function EntryRow({ link, entry, first, onOpenFolder, onPreview }: {
  link: Link;
  entry: LinkEntry;
  first: boolean;
  onOpenFolder(path: string): void;
  onPreview(entry: LinkEntry): void;
}) {
  const folder = entry.type === 'directory';
  const canPreview = !folder && entry.previewable && link.can.preview;
  const details = folder ? `Folder · ${formatTime(entry.modified_at)}` : `${formatSize(entry.size)} · ${formatTime(entry.modified_at)}`;
  return (
    <li data-entry={entry.name} style={{ borderTop: first ? undefined : '1px solid var(--mantine-color-default-border)', padding: 'var(--mantine-spacing-xs) var(--mantine-spacing-sm)' }}>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={0} style={{ ...breakAnywhere, flex: '1 1 12rem' }}>
          {folder ? (
            <Anchor component="button" type="button" ta="left" fw={500} onClick={() => onOpenFolder(entry.path)} style={breakAnywhere}>
              {entry.name}/
            </Anchor>
          ) : (
            <Text fw={500} style={breakAnywhere}>{entry.name}</Text>
          )}
          <Text size="xs" c="dimmed">{details}</Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {canPreview && <Button variant="default" size="xs" onClick={() => onPreview(entry)} aria-label={`Preview ${entry.name}`}>Preview</Button>}
          {link.can.download && !folder && (
            <Button component="a" href={fileUrl(link.code, entry.path, 'attachment')} download variant="default" size="xs" aria-label={`Download ${entry.name}`}>Download</Button>
          )}
          {link.can.download && folder && (
            <Button component="a" href={zipUrl(link.code, entry.path)} download variant="default" size="xs" aria-label={`Download ${entry.name} as ZIP`}>ZIP</Button>
          )}
        </Group>
      </Group>
    </li>
  );
}
