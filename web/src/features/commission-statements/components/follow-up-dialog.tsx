import {
  addDays,
  type CommissionStatementDetail,
  meetingBody,
  type StatementLine,
} from '@coverdesk/contract';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { FormError } from '../../../components/form-error.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { formatDate } from '../../../lib/format.js';
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

type FollowUpValues = { title: string; day: string; notes: string };

/** The follow-up as a calendar entry: all day on the day chosen, with the policy's customer. */
const toMeeting = (values: FollowUpValues, line: StatementLine) => ({
  title: values.title,
  all_day: true,
  start: values.day,
  end: values.day,
  customer_id: line.customer_id,
  notes: values.notes,
  reminder_minutes: null,
});

const validateMeeting = zodValidate(meetingBody);

/**
 * Puts a short payment's follow-up on the calendar: an all-day entry on the day chosen (a week
 * from today to start with), for the policy's customer, saying what was paid and what was owed.
 */
export function FollowUpDialog({ statement, line, onClose }: FollowUpDialogProps) {
  const formatMoney = useFormatMoney();
  const today = useAgencyToday();
  const schedule = useScheduleFollowUp();
  const phone = useDevice() === 'mobile';
  // A short line's difference is negative: what is missing is the amount without its sign.
  const short = formatMoney((line.difference ?? '0.00').replace(/^-/, ''));
  const form = useForm<FollowUpValues>({
    initialValues: {
      title: `Chase ${statement.company_name}: ${line.policy_number ?? line.raw_policy_number} short by ${short}`,
      day: addDays(today, FOLLOW_UP_AFTER_DAYS),
      notes: `${statement.company_name}'s statement of ${formatDate(statement.statement_date)}, line ${line.line_number}: paid ${formatMoney(line.paid_commission)} of the ${formatMoney(line.expected_commission ?? '0.00')} owed on ${line.policy_number}.`,
    },
    validate: (values) => {
      const { start, end, ...errors } = validateMeeting(toMeeting(values, line));
      const day = start ?? end;
      return day ? { ...errors, day } : errors;
    },
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    await schedule.mutateAsync(toMeeting(values, line));
    notifications.show({
      color: 'green',
      message: `Follow-up on your calendar for ${formatDate(values.day)}.`,
    });
    onClose();
  });
  return (
    <Modal opened onClose={onClose} title="Follow up this short payment" fullScreen={phone}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text fz="sm" c="dimmed">
            An all-day entry on your calendar{line.customer_name ? `, with ${line.customer_name}` : ''}.
          </Text>
          <TextInput label="Title" required {...form.getInputProps('title')} />
          <TextInput label="Day" type="date" required min={today} {...form.getInputProps('day')} />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <FormError message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={submitting}>
              Put on calendar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
