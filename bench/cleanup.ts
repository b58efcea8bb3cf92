/**
 * What an interrupted run must undo (servers to stop, temporary databases to drop), so Ctrl-C
 * leaves no server running and no schema behind.
 */
const pending = new Set<() => Promise<void>>();

/** Registers `undo` until the returned function is called (when the thing was undone normally). */
export function undoOnInterrupt(undo: () => Promise<void>): () => void {
  pending.add(undo);
  return () => pending.delete(undo);
}

export async function undoAll(): Promise<void> {
  const all = [...pending];
  pending.clear();
  await Promise.allSettled(all.map((undo) => undo()));
}
