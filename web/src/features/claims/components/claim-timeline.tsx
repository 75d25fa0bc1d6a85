import {
  CLAIM_AMOUNT_LABELS,
  CLAIM_STATUS_LABELS,
  type ClaimDetail,
  type ClaimEvent,
} from '@coverdesk/contract';
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit } from '../../../lib/form.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { Money } from '../../../lib/money.js';
import { useCan } from '../../../lib/use-can.js';
import { useAddClaimNote } from '../api.js';
import { ClaimStatusBadge } from './claim-status-badge.js';

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

function headline(event: ClaimEvent) {
  if (event.kind === 'created') return <Text fw={600}>Claim reported</Text>;
  if (event.kind === 'note') return <Text fw={600}>Note</Text>;
  if (event.kind === 'amount') return <Text fw={600}>Amount changed</Text>;
  return (
    <Group gap={6}>
      <Text fw={600}>{event.from_status ? CLAIM_STATUS_LABELS[event.from_status] : ''} →</Text>
      {event.to_status && <ClaimStatusBadge status={event.to_status} />}
    </Group>
  );
}

/** "Amount approved changed from $3,900.00 to $4,100.00", in the agency currency. */
function AmountChange({ change }: { change: NonNullable<ClaimEvent['amount_change']> }) {
  const label = CLAIM_AMOUNT_LABELS[change.field];
  const amount = (value: string) => (
    <Text span inherit fw={600} style={TABULAR_FIGURES}>
      <Money amount={value} />
    </Text>
  );
  return (
    <Text fz="sm">
      {change.from === null ? (
        <>
          {label} set to {change.to === null ? 'none' : amount(change.to)}
        </>
      ) : change.to === null ? (
        <>
          {label} cleared (was {amount(change.from)})
        </>
      ) : (
        <>
          {label} changed from {amount(change.from)} to {amount(change.to)}
        </>
      )}
    </Text>
  );
}

/** Every move and note, newest first, each with who and when; a note is added at the top. */
export function ClaimTimeline({ claim }: { claim: ClaimDetail }) {
  const addNote = useAddClaimNote(claim.id);
  const canWork = useCan('work');
  const form = useForm({
    initialValues: { note: '' },
    validate: { note: (value) => (value.trim() ? null : 'Write the note first.') },
  });
  const { onSubmit, error } = useFormSubmit(form, async ({ note }) => {
    await addNote.mutateAsync(note);
    notifications.show({ color: 'green', message: 'Note added.' });
    form.reset();
  });
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Timeline
      </Title>
      {canWork && (
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="xs" mb="md">
            <Textarea
              label="Add a note"
              placeholder="A call with the adjuster, a document received…"
              autosize
              minRows={2}
              {...form.getInputProps('note')}
            />
            <FormError message={error} />
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={addNote.isPending}>
                Add note
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <Stack gap={0} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {claim.timeline.map((event) => (
          <Stack
            key={event.id}
            component="li"
            gap={2}
            py="xs"
            style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
          >
            <Group justify="space-between" gap="xs" align="flex-start">
              {headline(event)}
              <Text fz="xs" c="dimmed">
                {formatDate(event.created_at)} {timeFormat.format(new Date(event.created_at))}
                {event.author_name ? ` · ${event.author_name}` : ''}
              </Text>
            </Group>
            {event.amount_change && <AmountChange change={event.amount_change} />}
            {event.note && (
              <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {event.note}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
