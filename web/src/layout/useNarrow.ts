import { useMediaQuery } from '@mantine/hooks';

/** A phone's width (below Mantine's `sm`, 48em): tables show fewer columns and put row actions in a menu. */
export function useNarrow(): boolean {
  return useMediaQuery('(max-width: 47.99em)') ?? false;
}
