import { Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { formatSize } from './format';
import type { Upload } from './useUploads';

const STATE_TEXT: Record<Upload['state'], string> = {
  queued: 'Waiting',
  sending: 'Uploading',
  done: 'Uploaded',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export function UploadList({ uploads, onCancel, onClear }: { uploads: Upload[]; onCancel(id: number): void; onClear(): void }) {
  if (uploads.length === 0) return null;
  return (
    <Paper withBorder p="sm" component="section" aria-label="Uploads">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>Uploads</Text>
          <Button variant="subtle" size="xs" onClick={onClear}>Clear finished</Button>
        </Group>
        {uploads.map((upload) => {
          const percent = upload.size === 0 ? (upload.state === 'done' ? 100 : 0) : Math.round((upload.sent / upload.size) * 100);
          const active = upload.state === 'queued' || upload.state === 'sending';
          return (
            <div key={upload.id} data-upload={upload.name}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate style={{ minWidth: 0 }}>{upload.name}</Text>
                <Group gap="xs" wrap="nowrap">
                  <Text size="xs" c="dimmed" data-upload-state>{STATE_TEXT[upload.state]} {formatSize(upload.sent)} of {formatSize(upload.size)}</Text>
                  {active && <CloseButton size="sm" aria-label={`Cancel upload of ${upload.name}`} onClick={() => onCancel(upload.id)} />}
                </Group>
              </Group>
              <Progress value={percent} aria-label={`Upload of ${upload.name}`} color={upload.state === 'failed' ? 'red' : upload.state === 'done' ? 'teal' : undefined} />
              {upload.error !== undefined && <Text size="xs" c="red" role="alert">{upload.error}</Text>}
            </div>
          );
        })}
      </Stack>
    </Paper>
  );
}
