import type { StatementLine, StatementLineResolution } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText, fieldErrors } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';
import { Money } from '../../../lib/money.js';
import { useResolveLine } from '../api.js';

const WORDING: Record<StatementLineResolution, { title: string; explain: string; save: string }> = {
  not_ours: {
    title: 'Mark as not ours',
    explain: "The line is another agency's business: it records no payment on your policies.",
    save: 'Mark not ours',
  },
  written_off: {
    title: 'Write off',
    explain:
      'The amount is kept without a policy: it records no payment on your policies. Say why, for whoever reads the statement later.',
    save: 'Write off',
  },
};

/** Resolves an unmatched line so the statement can be accepted; undone from the line while in review. */
export function ResolveDialog({
  statementId,
  line,
  resolution,
  onClose,
}: {
  statementId: string;
  line: StatementLine;
  resolution: StatementLineResolution;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const resolve = useResolveLine(statementId);
  const wording = WORDING[resolution];
  const invalid =
    resolve.error instanceof ApiError && resolve.error.status === 400
      ? fieldErrors(resolve.error.body).reason
      : undefined;
  return (
    <Modal
      opened
      onClose={onClose}
      title={`${wording.title}: line ${line.line_number}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          resolve.mutate({ line: line.line_number, body: { resolution, reason } }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <Text fz="sm">
            {line.raw_policy_number || '—'} · {line.insured_name || '—'} · paid{' '}
            <Money amount={line.paid_commission} />
          </Text>
          <Text fz="sm" c="dimmed">
            {wording.explain} Its amount stays in the sum of the lines, which the statement's total must
            equal.
          </Text>
          <Textarea
            label="Reason"
            required={resolution === 'written_off'}
            data-autofocus
            value={reason}
            maxLength={500}
            autosize
            minRows={2}
            onChange={(event) => setReason(event.currentTarget.value)}
            error={invalid}
          />
          <FormError message={resolve.isError && !invalid ? errorText(resolve.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={resolve.isPending}>
              {wording.save}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
