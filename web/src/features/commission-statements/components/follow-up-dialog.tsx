import { addDays, type CommissionStatementDetail, type StatementLine } from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { errorText, fieldErrors } from '../../../lib/error-message.js';
import { formatDate } from '../../../lib/format.js';
import { ApiError } from '../../../lib/http.js';
import { useFormatMoney } from '../../../lib/money.js';
import { useAgencyToday } from '../../../lib/use-agency-today.js';
import { useDevice } from '../../../lib/viewport.js';
import { useScheduleFollowUp } from '../api.js';

/** How long an insurer is given to answer before the broker chases again. */
const FOLLOW_UP_AFTER_DAYS = 7;

interface FollowUpDialogProps {
  statement: CommissionStatementDetail;
  line: StatementLine;
  onClose(): void;
}

/**
 * Puts a short payment's follow-up on the calendar: an all-day entry on the day chosen (a week
 * from today to start with), for the policy's customer, saying what was paid and what was owed.
 */
export function FollowUpDialog({ statement, line, onClose }: FollowUpDialogProps) {
  const formatMoney = useFormatMoney();
  const today = useAgencyToday();
  const schedule = useScheduleFollowUp();
  const phone = useDevice() === 'mobile';
  const short = formatMoney((-Number(line.difference ?? 0)).toFixed(2));
  const [title, setTitle] = useState(
    `Chase ${statement.company_name}: ${line.policy_number ?? line.raw_policy_number} short by ${short}`,
  );
  const [day, setDay] = useState(addDays(today, FOLLOW_UP_AFTER_DAYS));
  const [notes, setNotes] = useState(
    `${statement.company_name}'s statement of ${formatDate(statement.statement_date)}, line ${line.line_number}: paid ${formatMoney(line.paid_commission)} of the ${formatMoney(line.expected_commission ?? '0.00')} owed on ${line.policy_number}.`,
  );
  const errors =
    schedule.error instanceof ApiError && schedule.error.status === 400
      ? fieldErrors(schedule.error.body)
      : {};
  const unplaced = schedule.isError && Object.keys(errors).length === 0 ? errorText(schedule.error) : null;
  const save = () =>
    schedule.mutate(
      {
        title,
        all_day: true,
        start: day,
        end: day,
        customer_id: line.customer_id,
        notes,
        reminder_minutes: null,
      },
      {
        onSuccess: () => {
          notifications.show({
            color: 'green',
            message: `Follow-up on your calendar for ${formatDate(day)}.`,
          });
          onClose();
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title="Follow up this short payment" fullScreen={phone}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save();
        }}
      >
        <Stack>
          <Text fz="sm" c="dimmed">
            An all-day entry on your calendar{line.customer_name ? `, with ${line.customer_name}` : ''}.
          </Text>
          <TextInput
            label="Title"
            required
            value={title}
            onChange={(event) => setTitle(event.currentTarget.value)}
            error={errors.title}
          />
          <TextInput
            label="Day"
            type="date"
            required
            min={today}
            value={day}
            onChange={(event) => setDay(event.currentTarget.value)}
            error={errors.start ?? errors.end}
          />
          <Textarea
            label="Notes"
            autosize
            minRows={2}
            value={notes}
            onChange={(event) => setNotes(event.currentTarget.value)}
            error={errors.notes}
          />
          <FormError message={unplaced} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={schedule.isPending}>
              Put on calendar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
