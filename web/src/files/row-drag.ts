import type { DragEvent } from 'react';
import type { Entry } from '../api/files';

// Rows of the listing dragged onto a folder (its row, or a segment of the breadcrumbs) to move
// them there. The drag carries the rows' paths under a type of its own, so a drop of files from
// the desktop (an upload) and a drop of rows are never taken for one another.

const ROWS = 'application/x-atrium-paths';

export function startDrag(event: DragEvent, paths: string[]): void {
  event.dataTransfer.setData(ROWS, JSON.stringify(paths));
  event.dataTransfer.effectAllowed = 'move';
}

/** The ticked rows, in the table's order. */
export function draggedPaths(entries: Entry[], selected: ReadonlySet<string>): string[] {
  return entries.filter((e) => selected.has(e.path)).map((e) => e.path);
}

/**
 * What makes an element take dropped rows for `folder`: it shows it may while rows are over it
 * (not the folder itself nor one of the rows dragged, which the drop then ignores), and hands their
 * paths to `onDrop`.
 */
export function dropTargetProps(folder: string, onDrop: (paths: string[]) => void) {
  const carriesRows = (event: DragEvent) => event.dataTransfer.types.includes(ROWS);
  return {
    'data-drop-folder': folder,
    onDragOver(event: DragEvent<HTMLElement>) {
      if (!carriesRows(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      event.currentTarget.setAttribute('data-drop-over', 'true');
    },
    onDragLeave(event: DragEvent<HTMLElement>) {
      event.currentTarget.removeAttribute('data-drop-over');
    },
    onDrop(event: DragEvent<HTMLElement>) {
      event.currentTarget.removeAttribute('data-drop-over');
      if (!carriesRows(event)) return;
      event.preventDefault();
      event.stopPropagation();
      const paths = parsed(event.dataTransfer.getData(ROWS)).filter((path) => path !== folder);
      if (paths.length > 0) onDrop(paths);
    },
  };
}

function parsed(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}
