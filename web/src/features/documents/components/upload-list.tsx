import { CloseButton, Group, Progress, Stack, Text } from '@mantine/core';
import { formatSize } from './size.js';

/** A file on its way up, or refused. */
export interface UploadItem {
  key: string;
  name: string;
  size: number;
  /** From 0 to 1 as the bytes are sent. */
  progress: number;
  state: 'uploading' | 'done' | 'failed';
  error?: string;
}

/** One bar per file while it uploads; a refused file stays with the reason until dismissed. */
export function UploadList({ items, onDismiss }: { items: UploadItem[]; onDismiss(key: string): void }) {
  if (items.length === 0) return null;
  return (
    <Stack gap="xs" aria-live="polite">
      {items.map((item) => (
        <div key={item.key} data-testid="document-upload">
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fz="sm" truncate="end" style={{ minWidth: 0 }}>
              {item.name}{' '}
              <Text span c="dimmed" fz="xs">
                {formatSize(item.size)}
              </Text>
            </Text>
            {item.state === 'failed' ? (
              <CloseButton
                size="sm"
                aria-label={`Dismiss ${item.name}`}
                onClick={() => onDismiss(item.key)}
              />
            ) : (
              <Text fz="xs" c="dimmed">
                {item.state === 'done' ? 'Uploaded' : `${Math.round(item.progress * 100)}%`}
              </Text>
            )}
          </Group>
          {item.state === 'failed' ? (
            <Text fz="xs" c="red.8" role="alert">
              {item.error}
            </Text>
          ) : (
            <Progress
              value={item.progress * 100}
              size="sm"
              color={item.state === 'done' ? 'green' : undefined}
              aria-label={`Uploading ${item.name}`}
            />
          )}
        </div>
      ))}
    </Stack>
  );
}
