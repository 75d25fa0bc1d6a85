import { DOCUMENT_EXTENSIONS, DOCUMENT_TYPES_HINT } from '@coverdesk/contract';
import { Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, useState } from 'react';

const ACCEPT = DOCUMENT_EXTENSIONS.join(',');

/**
 * Where files are dropped, or picked with the button (a keyboard's and a phone's way in). The
 * whole card takes a drop; its outline says when one would land.
 */
export function DropZone({ onFiles, compact }: { onFiles(files: File[]): void; compact: boolean }) {
  const [over, setOver] = useState(false);
  const take = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length > 0) onFiles(files);
  };
  return (
    <Paper
      withBorder
      p={compact ? 'sm' : 'lg'}
      data-testid="document-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={take}
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        background: over ? 'var(--mantine-primary-color-light)' : undefined,
      }}
    >
      <Group justify="space-between" gap="sm" wrap={compact ? 'wrap' : 'nowrap'}>
        <Stack gap={2}>
          <Text fw={600} fz="sm">
            {compact ? 'Add documents' : 'Drop files here to add them'}
          </Text>
          <Text fz="xs" c="dimmed">
            {DOCUMENT_TYPES_HINT}
          </Text>
        </Stack>
        <FileButton onChange={(files) => files.length > 0 && onFiles(files)} accept={ACCEPT} multiple>
          {(props) => (
            <Button {...props} variant="light" leftSection={<IconUpload size={16} aria-hidden />} h={44}>
              Choose files
            </Button>
          )}
        </FileButton>
      </Group>
    </Paper>
  );
}
