import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { useCalendarFeed, useChangeFeed } from '../api.js';

/**
 * The signed-in user's feed for calendar apps: made, shown once with a copy button, replaced or
 * turned off. Coverdesk keeps only a fingerprint of its secret, so an address cannot be shown again.
 */
export function FeedDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const feed = useCalendarFeed(opened);
  const change = useChangeFeed();
  const [revoking, setRevoking] = useState(false);
  const fresh = change.data?.url ?? null;
  const active = change.isSuccess ? change.data !== null : feed.data?.active;
  const close = () => {
    change.reset();
    onClose();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Calendar feed"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Text fz="sm">
          Subscribe to your agency’s calendar from Google Calendar, Outlook or Apple Calendar: renewals,
          instalments, follow-ups, claims and meetings from three months back to a year ahead. The events
          carry your customers’ and leads’ names, policy and claim numbers and amounts (no phones, emails or
          notes), and the calendar app keeps a copy. Anyone with the address can read it, so keep it to
          yourself; a new password turns it off.
        </Text>
        {feed.isError ? (
          <ErrorState error={feed.error} onRetry={() => feed.refetch()} />
        ) : feed.isPending ? (
          <Skeleton h={60} />
        ) : fresh ? (
          <Stack gap="xs">
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                label="Feed address"
                value={fresh}
                readOnly
                flex={1}
                onFocus={(event) => event.currentTarget.select()}
              />
              <CopyButton value={fresh}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
                    <ActionIcon
                      size={36}
                      variant="light"
                      onClick={copy}
                      aria-label={copied ? 'Address copied' : 'Copy the address'}
                    >
                      {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            <Alert color="yellow" variant="light">
              Copy it now: for your safety Coverdesk keeps only a fingerprint of it and cannot show it again.
            </Alert>
          </Stack>
        ) : active ? (
          <Text fz="sm">
            Your feed is on{feed.data?.created_at ? ` since ${formatDate(feed.data.created_at)}` : ''}. Its
            address was shown when it was made; make a new one if you need it again (the old one then stops
            working).
          </Text>
        ) : (
          <Text fz="sm" c="dimmed">
            You have no feed yet.
          </Text>
        )}
        <FormError message={change.error && !revoking ? errorText(change.error) : null} />
        <Group justify="flex-end" gap="sm">
          {active && (
            <Button variant="subtle" color="red.9" onClick={() => setRevoking(true)}>
              Turn off
            </Button>
          )}
          <Button loading={change.isPending && !revoking} onClick={() => change.mutate('create')}>
            {active ? 'Make a new address' : 'Make my feed address'}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={revoking}
        title="Turn off your calendar feed"
        confirmLabel="Turn off feed"
        busy={change.isPending}
        error={change.error ? errorText(change.error) : null}
        onClose={() => setRevoking(false)}
        onConfirm={() => change.mutate('revoke', { onSuccess: () => setRevoking(false) })}
      >
        Calendar apps subscribed to your feed stop receiving Coverdesk events. You can make a new address
        later.
      </ConfirmDialog>
    </Modal>
  );
}
