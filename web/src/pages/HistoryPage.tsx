import { Alert, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { HistoryFilterForm } from '../history/HistoryFilterForm';
import { HistoryTable } from '../history/HistoryTable';
import { useHistory } from '../history/useHistory';
import { historySearch, queryOf, useHistoryFilters } from '../history/useHistoryFilters';

/**
 * Who did what: the recorded actions the signed-in person may see (the server decides: everything
 * for a Site Administrator, a Workspace's for its administrators, the files under their folders for
 * a Folder Admin, and everyone their own), newest first, filtered by what the address says.
 */
export function HistoryPage() {
  const { filters, apply } = useHistoryFilters();
  const query = useMemo(() => queryOf(filters), [filters]);
  const history = useHistory(query);

  // The next page comes when the end of the list scrolls into view (or with *Load more*).
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasMore, loadMore, loading } = history;
  useEffect(() => {
    const element = sentinel.current;
    if (element === null || !hasMore || loading) return;
    const observer = new IntersectionObserver((seen) => { if (seen.some((s) => s.isIntersecting)) loadMore(); }, { rootMargin: '400px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasMore, loadMore, loading]);

  return (
    <Stack gap="md" data-loading={String(history.loading)}>
      <Title order={1} size="h2">History</Title>
      <Text size="sm" c="dimmed">
        {filters.file !== '' ? `Actions on ${filters.file}. ` : filters.folder !== '' ? `Actions in ${filters.folder} and everything under it. ` : ''}
        You see the actions you may review: your own, and those in what you administer.
      </Text>
      <HistoryFilterForm key={historySearch(filters)} filters={filters} onApply={apply} />
      {history.error !== undefined && (
        <Alert color="red" role="alert" title="The history could not be read">
          {history.error} <Button variant="subtle" size="xs" onClick={history.reload}>Try again</Button>
        </Alert>
      )}
      {history.records.length > 0 && (
        <HistoryTable records={history.records} filters={filters} onToggleOrder={() => apply({ ...filters, oldestFirst: !filters.oldestFirst })} />
      )}
      {!history.loading && history.error === undefined && history.records.length === 0 && (
        <Center py="xl"><Text c="dimmed">No recorded actions match these filters.</Text></Center>
      )}
      {history.loading && <Center py="md"><Loader size="sm" aria-label="Loading" /></Center>}
      {history.hasMore && !history.loading && (
        <Center py="sm" ref={sentinel}><Button variant="subtle" onClick={history.loadMore}>Load more</Button></Center>
      )}
    </Stack>
  );
}
