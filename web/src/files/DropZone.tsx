import { Box } from '@mantine/core';
import { useState, type DragEvent, type ReactNode } from 'react';

/** Files dropped anywhere on the folder's listing go to `onFiles`. */
export function DropZone({ onFiles, disabled, children }: { onFiles(files: File[]): void; disabled: boolean; children: ReactNode }) {
  const [over, setOver] = useState(false);
  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');
  return (
    <Box
      data-testid="drop-zone"
      onDragOver={(event) => {
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        if (disabled || !carriesFiles(event)) return;
        event.preventDefault();
        const files = Array.from(event.dataTransfer.files);
        if (files.length > 0) onFiles(files);
      }}
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        outline: over ? '2px dashed var(--mantine-primary-color-filled)' : '2px dashed transparent',
        outlineOffset: 4,
      }}
    >
      {children}
    </Box>
  );
}
