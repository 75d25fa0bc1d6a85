import { CLAIM_STATUS_LABELS, type ClaimDetail, type ClaimStatus } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit } from '../../../lib/form.js';
import { useMoveClaim } from '../api.js';

/** What each move is called on its button, from where the claim stands. */
function moveLabel(from: ClaimStatus, to: ClaimStatus): string {
  switch (to) {
    case 'in_review':
      return from === 'rejected' ? 'Reconsider' : 'Start review';
    case 'approved':
      return 'Approve';
    case 'rejected':
      return 'Reject claim';
    case 'paid':
      return 'Record payment';
    case 'closed':
      return 'Close claim';
    case 'open':
      return from === 'closed' ? 'Reopen' : 'Back to open';
  }
}

/** The moves open to a claim, one button each; each asks for a note, and the amount it records. */
export function ClaimTransitions({ claim }: { claim: ClaimDetail }) {
  const [target, setTarget] = useState<ClaimStatus | null>(null);
  return (
    <>
      <Group gap="xs">
        {claim.allowed_transitions.map((to) => (
          <Button
            key={to}
            variant={to === 'rejected' || to === 'closed' || to === 'open' ? 'default' : 'filled'}
            onClick={() => setTarget(to)}
          >
            {moveLabel(claim.status, to)}
          </Button>
        ))}
      </Group>
      {target && <TransitionDialog claim={claim} to={target} onClose={() => setTarget(null)} />}
    </>
  );
}

function TransitionDialog({ claim, to, onClose }: { claim: ClaimDetail; to: ClaimStatus; onClose(): void }) {
  const move = useMoveClaim(claim.id);
  const reopening = claim.status === 'closed';
  const form = useForm({
    initialValues: {
      note: '',
      amount_approved: claim.amount_approved ?? claim.amount_claimed,
      amount_paid: claim.amount_paid !== '0.00' ? claim.amount_paid : (claim.amount_approved ?? ''),
    },
    validate: {
      note: (value) => (reopening && !value.trim() ? 'Give the reason for reopening this claim.' : null),
      amount_approved: (value) => (to === 'approved' && !value.trim() ? 'Enter the amount approved.' : null),
      amount_paid: (value) => (to === 'paid' && !value.trim() ? 'Enter what the insurer paid.' : null),
    },
  });
  const { onSubmit, error } = useFormSubmit(form, async (values) => {
    await move.mutateAsync({
      status: to,
      note: values.note,
      ...(to === 'approved' ? { amount_approved: values.amount_approved } : {}),
      ...(to === 'paid' ? { amount_paid: values.amount_paid } : {}),
    });
    notifications.show({
      color: 'green',
      message: `Claim ${claim.claim_number} is now ${CLAIM_STATUS_LABELS[to].toLowerCase()}.`,
    });
    onClose();
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={`${moveLabel(claim.status, to)}: claim ${claim.claim_number}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Text fz="sm">
            {`From ${CLAIM_STATUS_LABELS[claim.status].toLowerCase()} to ${CLAIM_STATUS_LABELS[to].toLowerCase()}. The move is kept on the claim's timeline.`}
          </Text>
          {to === 'approved' && (
            <TextInput
              label="Amount approved"
              required
              inputMode="decimal"
              data-autofocus
              {...form.getInputProps('amount_approved')}
            />
          )}
          {to === 'paid' && (
            <TextInput
              label="Amount paid by the insurer"
              required
              inputMode="decimal"
              description="Not more than the approved amount."
              data-autofocus
              {...form.getInputProps('amount_paid')}
            />
          )}
          <Textarea
            label={reopening ? 'Reason for reopening' : 'Note'}
            required={reopening}
            autosize
            minRows={2}
            {...form.getInputProps('note')}
          />
          <FormError message={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={move.isPending}>
              {moveLabel(claim.status, to)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
