import type { TicketAttachment, TicketMessage } from '@coverdesk/contract';
import { Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, formatTime } from '../../../lib/format.js';
import { downloadAttachment } from '../api.js';

const sizeOf = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function AttachmentButton({ file, path }: { file: TicketAttachment; path: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(path, file.file_name);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'The file could not be downloaded',
        message: errorText(error),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="default"
      size="xs"
      mih={36}
      leftSection={<IconDownload size={14} aria-hidden />}
      loading={busy}
      onClick={() => void download()}
      aria-label={`Download ${file.file_name}`}
      styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
    >
      {file.file_name} · {sizeOf(file.size)}
    </Button>
  );
}

/**
 * A ticket's messages, oldest first: the requester's on the left, Coverdesk support's set apart, each
 * with who wrote it, when, and its file. `attachmentPath` names where a file is downloaded from.
 */
export function TicketThread(props: {
  messages: TicketMessage[];
  attachmentPath(attachment: TicketAttachment): string;
}) {
  return (
    <Stack gap="sm" component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Messages">
      {props.messages.map((message) => (
        <Card
          key={message.id}
          component="li"
          withBorder
          padding="md"
          bg={message.is_staff ? 'indigo.0' : undefined}
          ml={message.is_staff ? { base: 0, sm: 'xl' } : 0}
          mr={message.is_staff ? 0 : { base: 0, sm: 'xl' }}
        >
          <Stack gap="xs">
            <Group justify="space-between" gap="xs">
              <Group gap="xs">
                <Text fw={600} fz="sm">
                  {message.author_name}
                </Text>
                {message.is_staff && (
                  <Badge size="sm" color="indigo" variant="filled" radius="sm">
                    Coverdesk support
                  </Badge>
                )}
              </Group>
              <Text fz="xs" c="gray.7">
                {formatDate(message.created_at)} {formatTime(message.created_at)}
              </Text>
            </Group>
            <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {message.body}
            </Text>
            {message.attachments.length > 0 && (
              <Group gap="xs">
                {message.attachments.map((file) => (
                  <AttachmentButton key={file.id} file={file} path={props.attachmentPath(file)} />
                ))}
              </Group>
            )}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
