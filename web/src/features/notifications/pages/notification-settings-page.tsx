import {
  HISTORY_STATUS_LABELS,
  HISTORY_STATUSES,
  type HistoryEntry,
  type HistoryStatus,
  MAX_LEAD_TIME,
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_TYPE_LABELS,
  NOTIFICATION_TYPES,
  type NotificationSetting,
  type NotificationType,
  settingPatch,
  settingProblems,
} from '@coverdesk/contract';
import {
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications as toasts } from '@mantine/notifications';
import { IconHistory, IconSend, IconSettings } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { type Column, DataList } from '../../../components/data-list.js';
import { FormError } from '../../../components/form-error.js';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { EmptyState, ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useFormSubmit, zodValidate } from '../../../lib/form.js';
import { useListParams } from '../../../lib/list-params.js';
import { useDevice } from '../../../lib/viewport.js';
import { useHistory, useHistoryStats, useNotificationSettings, useSaveSetting, useSendTest } from '../api.js';
import { dateTime, pathByWording } from '../wording.js';

const WHAT: Record<NotificationType, string> = {
  payment_reminder:
    'Instalments falling due, the given number of days before; overdue ones weekly in their first month, then monthly, until paid.',
  policy_renewal:
    'Policies ending, the given number of days before, unless renewed or marked as not renewing.',
  meeting_reminder:
    'Your calendar meetings, the given number of minutes before they start (a meeting with its own reminder uses that).',
};

/** The two ends of the quiet hours, each a time of day. */
const QUIET_HOURS = [
  { field: 'quiet_hours_start', label: 'Quiet from' },
  { field: 'quiet_hours_end', label: 'Quiet until' },
] as const;

/** /notifications-settings: per type the toggle, channel, lead time and quiet hours, a test, and the history. */
export function Component() {
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'history' ? 'history' : 'settings';
  return (
    <Tabs
      value={tab}
      onChange={(value) =>
        setSearch(
          (current) => {
            const next = new URLSearchParams(current);
            for (const key of [...next.keys()]) if (key !== 'mobile') next.delete(key);
            if (value === 'history') next.set('tab', 'history');
            return next;
          },
          { replace: true },
        )
      }
      keepMounted={false}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="settings" leftSection={<IconSettings size={16} aria-hidden />}>
          Settings
        </Tabs.Tab>
        <Tabs.Tab value="history" leftSection={<IconHistory size={16} aria-hidden />}>
          History
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="settings">
        <SettingsTab />
      </Tabs.Panel>
      <Tabs.Panel value="history">
        <HistoryTab />
      </Tabs.Panel>
    </Tabs>
  );
}

function SettingsTab() {
  const settings = useNotificationSettings();
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  if (settings.isPending) {
    return (
      <Stack>
        {NOTIFICATION_TYPES.map((type) => (
          <Skeleton key={type} h={220} radius="md" />
        ))}
      </Stack>
    );
  }
  return (
    <Stack>
      {settings.data.map((setting) => (
        <SettingCard key={setting.id} setting={setting} />
      ))}
    </Stack>
  );
}

interface SettingValues extends Record<string, unknown> {
  enabled: boolean;
  channel: NotificationSetting['channel'];
  lead_time: number | string;
  quiet_hours_start: string;
  quiet_hours_end: string;
}

const valuesOf = (setting: NotificationSetting): SettingValues => ({
  enabled: setting.enabled,
  channel: setting.channel,
  lead_time: setting.lead_time,
  quiet_hours_start: setting.quiet_hours_start ?? '',
  quiet_hours_end: setting.quiet_hours_end ?? '',
});

/** What is checked and sent: blank quiet hours are none. */
const patchOf = (values: SettingValues) => ({
  enabled: values.enabled,
  channel: values.channel,
  lead_time: values.lead_time === '' ? Number.NaN : Number(values.lead_time),
  quiet_hours_start: values.quiet_hours_start || null,
  quiet_hours_end: values.quiet_hours_end || null,
});

/** "Send a test", telling what was sent: an email is only queued, its fate shows in the history. */
function useTestSender() {
  const test = useSendTest();
  const send = (type: NotificationType) =>
    test.mutate(type, {
      onSuccess: ({ results }) =>
        toasts.show({
          color: 'green',
          message: `${results.some((entry) => entry.status === 'pending') ? 'Test queued' : 'Test sent'}: ${results.map((entry) => (entry.channel === 'email' ? `email to ${entry.recipient}` : 'the bell')).join(' and ')}.`,
        }),
      onError: (error) => toasts.show({ color: 'red', message: errorText(error) }),
    });
  return { send, isPending: test.isPending };
}

function SettingCard({ setting }: { setting: NotificationSetting }) {
  const type = setting.notification_type;
  const save = useSaveSetting(setting.id);
  const test = useTestSender();
  const form = useForm<SettingValues>({
    mode: 'controlled',
    initialValues: valuesOf(setting),
    validate: (values) => {
      const patch = patchOf(values);
      return {
        ...zodValidate(settingPatch)(patch),
        ...settingProblems({ ...patch, notification_type: type }),
      };
    },
  });
  const submit = useFormSubmit(form, async (values) => {
    const saved = await save.mutateAsync(patchOf(values));
    form.setInitialValues(valuesOf(saved));
    form.reset();
    toasts.show({ color: 'green', message: `${NOTIFICATION_TYPE_LABELS[type]} settings saved.` });
  });
  const unit = setting.lead_time_unit;
  const onPhone = useDevice() === 'mobile';
  // Quiet hours hold back emails only; the bell always shows at once.
  const quietApplies = form.values.enabled && form.values.channel !== 'in_app';
  const unsaved = form.isDirty();
  const sendTest = () => test.send(type);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={`setting-${type}`}>
      <form onSubmit={submit.onSubmit} noValidate>
        <Stack gap="md">
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Title order={2} fz="h4" id={`setting-${type}`}>
                {NOTIFICATION_TYPE_LABELS[type]}
              </Title>
              <Text fz="sm" c="dimmed">
                {WHAT[type]}
              </Text>
            </div>
            <Switch
              size="md"
              label={form.values.enabled ? 'On' : 'Off'}
              aria-label={`${NOTIFICATION_TYPE_LABELS[type]} reminders`}
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
            <Select
              label="Send by"
              data={NOTIFICATION_CHANNELS.map((value) => ({
                value,
                label: NOTIFICATION_CHANNEL_LABELS[value],
              }))}
              allowDeselect={false}
              disabled={!form.values.enabled}
              {...form.getInputProps('channel')}
            />
            <NumberInput
              label={`Lead time (${unit})`}
              min={unit === 'minutes' ? 1 : 0}
              max={MAX_LEAD_TIME[type]}
              allowDecimal={false}
              clampBehavior="none"
              hideControls={onPhone}
              disabled={!form.values.enabled}
              {...form.getInputProps('lead_time')}
            />
            {QUIET_HOURS.map(({ field, label }) => (
              <TextInput
                key={field}
                type="time"
                label={label}
                aria-describedby={`quiet-${type}`}
                disabled={!quietApplies}
                {...form.getInputProps(field)}
              />
            ))}
          </SimpleGrid>
          <Text id={`quiet-${type}`} fz="xs" c="dimmed" mt={-8}>
            {form.values.channel === 'in_app'
              ? 'Quiet hours hold back emails only, so they do not apply in the app.'
              : 'During quiet hours emails wait until they end; the app shows reminders at once. Leave both times empty for none.'}
          </Text>
          <FormError message={submit.error} />
          <Group justify="space-between" gap="sm">
            <Button
              variant="default"
              leftSection={<IconSend size={16} aria-hidden />}
              loading={test.isPending}
              disabled={unsaved}
              title={unsaved ? 'Save your changes first: the test uses the saved settings.' : undefined}
              onClick={sendTest}
            >
              Send a test
            </Button>
            <Button type="submit" loading={submit.submitting} disabled={!form.isDirty()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

const STATUS_COLORS: Record<HistoryStatus, string> = {
  pending: 'blue',
  sent: 'green',
  failed: 'red',
  cancelled: 'red',
};

function StatusBadge({ status }: { status: HistoryStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} miw="max-content">
      {HISTORY_STATUS_LABELS[status]}
    </Badge>
  );
}

const when = (entry: HistoryEntry) => dateTime(entry.created_at);

const columns: Column<HistoryEntry>[] = [
  { key: 'title', header: 'Reminder', maxWidth: 260, render: (entry) => entry.title },
  {
    key: 'type',
    header: 'Type',
    render: (entry) => `${entry.notification_type_display}${entry.is_test ? ' (test)' : ''}`,
  },
  {
    key: 'channel',
    header: 'Channel',
    // Wide enough for the whole address: it is what tells a broker where the email went.
    maxWidth: 480,
    render: (entry) => (entry.channel === 'email' ? `Email to ${entry.recipient}` : 'In the app'),
  },
  { key: 'created', header: 'When', sort: 'created_at', render: when },
  {
    key: 'status',
    header: 'Status',
    sort: 'status',
    render: (entry) => <StatusBadge status={entry.status} />,
  },
  {
    key: 'reason',
    header: 'Reason',
    maxWidth: 320,
    render: (entry) => entry.failure_reason || (entry.attempts > 1 ? `${entry.attempts} tries` : '—'),
  },
];

const HISTORY_FILTERS = ['notification_type', 'status', 'date_from', 'date_to'] as const;

function HistoryTab() {
  const params = useListParams(HISTORY_FILTERS, '-created_at');
  const history = useHistory(params.query);
  const stats = useHistoryStats();
  const test = useTestSender();
  return (
    <Stack>
      <Group gap="xs" aria-label="Deliveries by status">
        {stats.data &&
          HISTORY_STATUSES.map((status) => (
            <Badge key={status} color={STATUS_COLORS[status]} size="lg">
              {HISTORY_STATUS_LABELS[status]}: {stats.data.by_status[status]}
            </Badge>
          ))}
      </Group>
      <ListToolbar
        params={params}
        searchLabel="Search reminders"
        filters={
          <>
            <FilterSelect
              params={params}
              name="notification_type"
              label="Type"
              placeholder="Any type"
              data={NOTIFICATION_TYPES.map((value) => ({ value, label: NOTIFICATION_TYPE_LABELS[value] }))}
              width={180}
            />
            <FilterSelect
              params={params}
              name="status"
              label="Status"
              placeholder="Any status"
              data={HISTORY_STATUSES.map((value) => ({ value, label: HISTORY_STATUS_LABELS[value] }))}
              width={140}
            />
            <FilterDate params={params} name="date_from" label="From" />
            <FilterDate params={params} name="date_to" label="To" />
          </>
        }
      />
      <DataList
        noun={{ one: 'delivery', many: 'deliveries' }}
        query={history}
        params={params}
        columns={columns}
        href={(entry) => pathByWording(entry)}
        card={(entry) => (
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} fz="sm" lineClamp={2}>
                {entry.title}
              </Text>
              <StatusBadge status={entry.status} />
            </Group>
            <Text fz="xs" c="dimmed">
              {entry.channel === 'email' ? `Email to ${entry.recipient}` : 'In the app'} · {when(entry)}
            </Text>
            {entry.failure_reason && (
              <Text fz="xs" c={entry.status === 'failed' ? 'red.8' : 'dimmed'}>
                {entry.failure_reason}
              </Text>
            )}
          </Stack>
        )}
        empty={
          <EmptyState
            icon={IconHistory}
            title="Nothing sent yet"
            action={
              <Button
                leftSection={<IconSend size={16} aria-hidden />}
                loading={test.isPending}
                onClick={() => test.send('payment_reminder')}
              >
                Send a test payment reminder
              </Button>
            }
          >
            Every reminder Coverdesk sends you, in the app or by email, is listed here with what became of it.
            Send a test to see one.
          </EmptyState>
        }
      />
    </Stack>
  );
}
