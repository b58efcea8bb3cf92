import { CloseButton, TextInput } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

/** How long typing pauses before the search is asked: one request for a word, not one a key. */
const SEARCH_PAUSE_MS = 300;

/**
 * The search box of a folder. What is being typed lives here, not in the folder's page: a key
 * pressed re-renders this box alone, not the page and its table of up to 200 rows. `searched` is
 * the search in the address; `onSearch` asks for another once typing pauses, on Enter, or cleared.
 */
export function FolderSearchBox({ path, searched, onSearch }: { path: string; searched: string; onSearch: (text: string) => void }) {
  const [typed, setTyped] = useState(searched);
  // The box follows the address when it changes by itself (Back, another folder), not when it echoes what was typed.
  const applied = useRef(searched);
  useEffect(() => {
    if (searched !== applied.current) setTyped(searched);
    applied.current = searched;
  }, [searched, path]);
  const apply = (text: string) => {
    applied.current = text.trim();
    onSearch(text);
  };
  useEffect(() => {
    if (typed.trim() === searched) return;
    const timer = setTimeout(() => {
      applied.current = typed.trim();
      onSearch(typed);
    }, SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [typed, searched, onSearch]);

  return (
    <TextInput type="search" aria-label="Search names in this folder and below" placeholder="Search here and below" ml="auto" w={260} maw="100%"
      value={typed} onChange={(event) => setTyped(event.currentTarget.value)}
      onKeyDown={(event) => { if (event.key === 'Enter') apply(typed); }}
      rightSectionPointerEvents="all" rightSection={typed === '' ? null : <CloseButton aria-label="Clear the search" onClick={() => { setTyped(''); apply(''); }} />} />
  );
}
