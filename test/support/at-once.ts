/**
 * Sends `count` requests at the same moment, none waiting for another's answer, and gives their
 * answers in the order they were sent: how tests make requests race each other.
 */
export function atOnce<T>(count: number, send: (index: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => send(index)));
}

/** How many of `items` fall under each key (answers by status, records by action), for one comparison. */
export function countBy<T>(items: readonly T[], key: (item: T) => string | number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}
