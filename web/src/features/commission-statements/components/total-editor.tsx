import type { CommissionStatementDetail } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText, fieldErrors } from '../../../lib/error-message.js';
import { ApiError } from '../../../lib/http.js';
import { Money } from '../../../lib/money.js';
import { useCorrectTotal } from '../api.js';

/** Corrects the total the broker typed on upload, beside the sum of the lines it should equal. */
export function TotalEditor({
  statement,
  onClose,
}: {
  statement: CommissionStatementDetail;
  onClose: () => void;
}) {
  const [total, setTotal] = useState(statement.total_amount);
  const correct = useCorrectTotal(statement.id);
  const invalid =
    correct.error instanceof ApiError && correct.error.status === 400
      ? fieldErrors(correct.error.body).total_amount
      : undefined;
  return (
    <Modal
      opened
      onClose={onClose}
      title="Edit the statement's total"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          correct.mutate({ total_amount: total }, { onSuccess: onClose });
        }}
      >
        <Stack gap="sm">
          <Text fz="sm" c="dimmed">
            The lines add up to <Money amount={statement.lines_total} />, written-off and not-ours lines
            included. Type the total as the insurer's statement prints it.
          </Text>
          <TextInput
            label="Statement total"
            required
            data-autofocus
            inputMode="decimal"
            value={total}
            onChange={(event) => setTotal(event.currentTarget.value)}
            error={invalid}
          />
          <FormError message={correct.isError && !invalid ? errorText(correct.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={correct.isPending}>
              Save total
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
