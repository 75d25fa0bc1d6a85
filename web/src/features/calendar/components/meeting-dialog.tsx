import { addDays, type Meeting, type MeetingBody, meetingBody } from '@coverdesk/contract';
import {
  Button,
  Fieldset,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useAccess } from '../../../app/access.js';
import { ConfirmDialog } from '../../../components/confirm-dialog.js';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { fromLocalInput, toLocalInput } from '../../../lib/local-moment.js';
import { useCan } from '../../../lib/use-can.js';
import { useCustomerChoices, useDeleteMeeting, useLeadChoices, useMeeting, useSaveMeeting } from '../api.js';

/** The slot a broker clicked or dragged over: a new meeting starts out there. */
export interface Slot {
  allDay: boolean;
  /** Local "2026-03-04T09:30" for a timed slot, "2026-03-04" for days. */
  start: string;
  end: string;
}

/** Which meeting the dialog shows: a new one in a slot, or a stored one by id. */
export type MeetingTarget = { slot: Slot } | { id: string };

type MeetingFormValues = {
  title: string;
  all_day: boolean;
  start: string;
  end: string;
  customer_id: string | null;
  lead_id: string | null;
  location: string;
  video_url: string;
  notes: string;
  reminder_minutes: string | null;
};

const REMINDERS = [
  { value: '5', label: '5 minutes before' },
  { value: '15', label: '15 minutes before' },
  { value: '30', label: '30 minutes before' },
  { value: '60', label: '1 hour before' },
  { value: '1440', label: '1 day before' },
];

function initialValues(meeting: Meeting | undefined, slot: Slot | undefined): MeetingFormValues {
  const allDay = meeting?.all_day ?? slot?.allDay ?? false;
  const moment = (value: string) => (allDay ? value : toLocalInput(value));
  return {
    title: meeting?.title ?? '',
    all_day: allDay,
    start: meeting ? moment(meeting.start) : (slot?.start ?? ''),
    end: meeting ? moment(meeting.end) : (slot?.end ?? ''),
    customer_id: meeting?.customer_id ?? null,
    lead_id: meeting?.lead_id ?? null,
    location: meeting?.location ?? '',
    video_url: meeting?.video_url ?? '',
    notes: meeting?.notes ?? '',
    reminder_minutes: !meeting
      ? '15'
      : meeting.reminder_minutes === null
        ? null
        : String(meeting.reminder_minutes),
  };
}

/** What is checked and sent: moments from the broker's clock, the reminder as minutes. */
export const toMeetingBody = (values: MeetingFormValues): MeetingBody => ({
  ...values,
  start: values.all_day ? values.start : (fromLocalInput(values.start) ?? ''),
  end: values.all_day ? values.end : (fromLocalInput(values.end) ?? ''),
  reminder_minutes: values.reminder_minutes === null ? null : Number(values.reminder_minutes),
});

const validateBody = zodValidate(meetingBody);

/** Switching to all day keeps the days; switching back gives the first day an hour from nine. */
function switchAllDay(values: MeetingFormValues, allDay: boolean): Partial<MeetingFormValues> {
  const day = (value: string) => value.slice(0, 10);
  if (allDay) return { all_day: true, start: day(values.start), end: day(values.end) || day(values.start) };
  const first = day(values.start);
  return first ? { all_day: false, start: `${first}T09:00`, end: `${first}T10:00` } : { all_day: false };
}

/** A meeting's form in a dialog: a new one prefilled with the slot, or a stored one to edit or delete. */
export function MeetingDialog({ target, onClose }: { target: MeetingTarget | null; onClose(): void }) {
  const id = target && 'id' in target ? target.id : null;
  const meeting = useMeeting(id);
  const title = id ? 'Meeting' : 'New meeting';
  return (
    <Modal
      opened={target !== null}
      onClose={onClose}
      title={title}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {target === null ? null : id === null ? (
        <MeetingForm slot={'slot' in target ? target.slot : undefined} onDone={onClose} />
      ) : meeting.isError ? (
        <ErrorState error={meeting.error} onRetry={() => meeting.refetch()} />
      ) : meeting.data ? (
        <MeetingForm key={meeting.data.updated_at} meeting={meeting.data} onDone={onClose} />
      ) : (
        <Stack>
          <Skeleton h={36} />
          <Skeleton h={36} />
          <Skeleton h={120} />
        </Stack>
      )}
    </Modal>
  );
}

function MeetingForm({ meeting, slot, onDone }: { meeting?: Meeting; slot?: Slot; onDone(): void }) {
  const { canOpen } = useAccess();
  const save = useSaveMeeting();
  const remove = useDeleteMeeting();
  // A role that reads sees the meeting as it is, without the buttons that change it.
  const canWork = useCan('work');
  const [confirming, setConfirming] = useState(false);
  const [customerSearch, setCustomerSearch] = useState('');
  const [leadSearch, setLeadSearch] = useState('');
  const customers = useCustomerChoices(customerSearch, canOpen('module_customers'));
  const leads = useLeadChoices(leadSearch, canOpen('module_leads'));
  const form = useForm<MeetingFormValues>({
    initialValues: initialValues(meeting, slot),
    validate: (values) => validateBody(toMeetingBody(values)),
  });
  const { onSubmit, error, submitting } = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync({ id: meeting?.id, body: toMeetingBody(values) });
    notifications.show({ color: 'green', message: `${saved.title} ${meeting ? 'saved' : 'added'}.` });
    onDone();
  });
  const values = form.getValues();
  const dateType = values.all_day ? 'date' : 'datetime-local';
  const choices = (
    rows: { id: string; display_name: string }[] | undefined,
    stored: { id: string | null; name: string },
  ) => {
    const options = (rows ?? []).map((row) => ({ value: row.id, label: row.display_name }));
    return stored.id && !options.some((option) => option.value === stored.id)
      ? [{ value: stored.id, label: stored.name || 'The linked record' }, ...options]
      : options;
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Fieldset disabled={!canWork} variant="unstyled">
        <Stack gap="sm">
          <TextInput label="Title" required data-autofocus {...form.getInputProps('title')} />
          <Switch
            label="All day"
            checked={values.all_day}
            onChange={(event) => form.setValues(switchAllDay(form.getValues(), event.currentTarget.checked))}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Starts" type={dateType} required {...form.getInputProps('start')} />
            <TextInput
              label={values.all_day ? 'Last day' : 'Ends'}
              type={dateType}
              required
              {...form.getInputProps('end')}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {canOpen('module_customers') && (
              <Select
                label="Customer"
                placeholder="Search customers"
                searchable
                clearable
                searchValue={customerSearch}
                onSearchChange={setCustomerSearch}
                data={choices(customers.data, {
                  id: meeting?.customer_id ?? null,
                  name: meeting?.customer_name ?? '',
                })}
                nothingFoundMessage="No customer matches"
                {...form.getInputProps('customer_id')}
              />
            )}
            {canOpen('module_leads') && (
              <Select
                label="Lead"
                placeholder="Search leads"
                searchable
                clearable
                searchValue={leadSearch}
                onSearchChange={setLeadSearch}
                data={choices(leads.data, { id: meeting?.lead_id ?? null, name: meeting?.lead_name ?? '' })}
                nothingFoundMessage="No lead matches"
                {...form.getInputProps('lead_id')}
              />
            )}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Location" placeholder="Office, address…" {...form.getInputProps('location')} />
            <TextInput
              label="Video link"
              placeholder="https://…"
              description="For a meeting online."
              {...form.getInputProps('video_url')}
            />
          </SimpleGrid>
          <Select
            label="Reminder"
            placeholder="As in notification settings"
            description="Left empty, the meeting reminder's lead time in Notification Settings applies."
            clearable
            data={REMINDERS}
            disabled={values.all_day}
            {...form.getInputProps('reminder_minutes')}
          />
          <Textarea label="Notes" autosize minRows={2} maxRows={6} {...form.getInputProps('notes')} />
          <FormError message={error} />
          {canWork && (
            <Group justify="space-between" gap="sm">
              {meeting ? (
                <Button variant="subtle" color="red.9" onClick={() => setConfirming(true)}>
                  Delete
                </Button>
              ) : (
                <span />
              )}
              <Group gap="sm">
                <Button variant="default" onClick={onDone}>
                  Cancel
                </Button>
                <Button type="submit" loading={submitting}>
                  {meeting ? 'Save meeting' : 'Add meeting'}
                </Button>
              </Group>
            </Group>
          )}
        </Stack>
      </Fieldset>
      {meeting && (
        <ConfirmDialog
          opened={confirming}
          title="Delete meeting"
          confirmLabel="Delete meeting"
          busy={remove.isPending}
          error={remove.error ? errorText(remove.error) : null}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(meeting.id, {
              onSuccess: () => {
                notifications.show({ color: 'green', message: `${meeting.title} deleted.` });
                setConfirming(false);
                onDone();
              },
            })
          }
        >
          Delete “{meeting.title}” on{' '}
          {meeting.all_day ? meeting.start : new Date(meeting.start).toLocaleString()}? This cannot be undone.
        </ConfirmDialog>
      )}
    </form>
  );
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A date's day on the broker's clock, which FullCalendar's dates are on. */
export const localDay = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A slot's local value as the form takes it. */
export function slotOf(start: Date, end: Date, allDay: boolean): Slot {
  const time = (date: Date) => `${localDay(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  // FullCalendar ends a selection of days on the day after; the form names the last day.
  return allDay
    ? { allDay, start: localDay(start), end: addDays(localDay(end), -1) }
    : { allDay, start: time(start), end: time(end) };
}
