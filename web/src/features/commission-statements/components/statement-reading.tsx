import type { CommissionStatementDetail } from '@coverdesk/contract';
import { Alert, Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { BackLink } from '../../../components/back-link.js';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { errorText } from '../../../lib/error-message.js';
import { useCan } from '../../../lib/use-can.js';
import { useDeleteStatement } from '../api.js';
import { StatementHeading } from './statement-heading.js';

const count = (lines: number) => lines.toLocaleString('en-US');

/**
 * A statement whose file is still being read and matched, with how far it has come (the page polls
 * it, and shows the review once it is done); or one whose reading failed, with why, to delete and
 * upload again.
 */
export function StatementReading({
  statement,
  reading,
}: {
  statement: CommissionStatementDetail;
  reading: NonNullable<CommissionStatementDetail['reading']>;
}) {
  const canWrite = useCan('insurers');
  const navigate = useNavigate();
  const remove = useDeleteStatement(statement.id);
  const [confirming, setConfirming] = useState(false);
  const failed = statement.status === 'failed';
  const percent = reading.line_total === 0 ? 0 : (100 * reading.lines_done) / reading.line_total;
  return (
    <Stack maw={1400}>
      <BackLink to="/commission-statements">Statements</BackLink>
      <Card withBorder padding="lg">
        <Stack gap="md">
          <StatementHeading statement={statement} />
          {failed ? (
            <Alert role="alert" color="red" variant="light" title="This statement could not be read">
              {reading.detail}
            </Alert>
          ) : (
            <Stack gap="xs">
              <Text aria-live="polite">
                Reading and matching {count(reading.lines_done)} of {count(reading.line_total)} lines…
              </Text>
              <Progress value={percent} animated aria-label="Lines read and matched" />
              <Text fz="sm" c="dimmed">
                You can leave this page: the statement keeps being read, and its lines show here once they are
                all matched.
              </Text>
            </Stack>
          )}
          {canWrite && (
            <Group>
              <Button variant="default" color="red" onClick={() => setConfirming(true)}>
                {failed ? 'Delete' : 'Cancel and delete'}
              </Button>
            </Group>
          )}
        </Stack>
      </Card>
      <ConfirmDialog
        opened={confirming}
        title="Delete this statement?"
        confirmLabel="Delete"
        busy={remove.isPending}
        error={remove.isError ? errorText(remove.error) : null}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate('/commission-statements') })}
        onClose={() => setConfirming(false)}
      >
        The statement and the lines read so far are removed. You can upload the file again.
      </ConfirmDialog>
    </Stack>
  );
}
