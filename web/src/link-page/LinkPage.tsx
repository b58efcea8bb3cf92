import { Alert, Button, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { formatTime } from '../files/format';
import { getLink, LINK_NOT_FOUND, LinkError, type Link } from './api';
import { LinkFiles } from './LinkFiles';
import { LinkUnlock } from './LinkUnlock';
import { LinkUpload } from './LinkUpload';

type PageState =
  | { kind: 'loading' }
  | { kind: 'closed'; message: string }
  | { kind: 'failed'; message: string }
  | { kind: 'open'; link: Link };

/**
 * The page a share link's URL opens (`/f/<code>`), for visitors without an account: no sign-in,
 * none of the console's navigation, nothing but the public link API. The folder being looked at
 * is in the address (`?path=`), so Back and a reload keep it.
 */
export function LinkPage() {
  const { code = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const path = search.get('path') ?? '';
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const [loads, setLoads] = useState(0);
  const reload = useCallback(() => setLoads((n) => n + 1), []);

  useEffect(() => {
    document.title = 'Shared files';
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    getLink(code, controller.signal)
      .then((link) => setState({ kind: 'open', link }))
      .catch((caught: unknown) => {
        if (controller.signal.aborted) return;
        if (caught instanceof LinkError && (caught.type === LINK_NOT_FOUND || caught.status === 404)) setState({ kind: 'closed', message: caught.message });
        else setState({ kind: 'failed', message: caught instanceof Error ? caught.message : 'The link could not be opened.' });
      });
    return () => controller.abort();
  }, [code, loads]);

  const openFolder = useCallback((folder: string) => setSearch(folder === '' ? {} : { path: folder }), [setSearch]);

  return (
    <Container size="md" px="sm" py="lg" component="main">
      {state.kind === 'loading' && <Center py="xl"><Loader size="sm" aria-label="Loading" /></Center>}
      {state.kind === 'closed' && (
        <Stack gap="sm" data-testid="link-not-found">
          <Title order={1}>Link not available</Title>
          <Text>{state.message}</Text>
        </Stack>
      )}
      {state.kind === 'failed' && (
        <Stack gap="sm">
          <Title order={1}>Shared files</Title>
          <Alert color="red" title="The link could not be opened" role="alert">{state.message}</Alert>
          <div><Button variant="default" onClick={reload}>Try again</Button></div>
        </Stack>
      )}
      {state.kind === 'open' && <OpenLink link={state.link} path={path} onOpenFolder={openFolder} onChanged={reload} />}
    </Container>
  );
}

function OpenLink({ link, path, onOpenFolder, onChanged }: { link: Link; path: string; onOpenFolder(path: string): void; onChanged(): void }) {
  const [listed, setListed] = useState(0);
  const uploadOnly = link.can.upload && !link.can.list;
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>{uploadOnly ? 'Send files' : 'Shared files'}</Title>
        {link.description !== null && link.description !== '' && <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{link.description}</Text>}
        {link.expires_at !== null && <Text size="sm" c="dimmed">This link works until {formatTime(link.expires_at)}.</Text>}
      </Stack>
      {!link.unlocked ? (
        <LinkUnlock link={link} onUnlocked={onChanged} />
      ) : (
        <>
          {uploadOnly && (
            <Text>Files you send here go to the person who shared this link. You will not see files other people sent, and they will not see yours.</Text>
          )}
          {link.can.upload && <LinkUpload link={link} path={path} onUploaded={() => setListed((n) => n + 1)} />}
          {link.can.list && <LinkFiles link={link} path={path} refresh={listed} onOpenFolder={onOpenFolder} onVisitRequired={onChanged} />}
          {!link.can.list && !link.can.upload && <Text>This link gives nothing to see or send.</Text>}
        </>
      )}
    </Stack>
  );
}
