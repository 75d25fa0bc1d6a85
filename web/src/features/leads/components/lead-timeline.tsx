import {
  LEAD_ACTIVITY_LABELS,
  LEAD_STATUS_LABELS,
  type LeadActivity,
  LOGGED_LEAD_ACTIVITY_TYPES,
} from '@coverdesk/contract';
import {
  Button,
  Card,
  Group,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowsExchange, IconMail, IconNote, IconPhone, IconUsersGroup } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { errorText } from '../../../lib/error-message.js';
import { useCan } from '../../../lib/use-can.js';
import { useDevice } from '../../../lib/viewport.js';
import { useLeadActivities, useLogActivity } from '../api.js';
import { formatMoment } from './lead-labels.js';

const ICONS = {
  call: IconPhone,
  email: IconMail,
  meeting: IconUsersGroup,
  note: IconNote,
  status_change: IconArrowsExchange,
} as const;

function describe(activity: LeadActivity): string {
  if (activity.activity_type !== 'status_change') return LEAD_ACTIVITY_LABELS[activity.activity_type];
  const to = activity.to_status ? LEAD_STATUS_LABELS[activity.to_status] : '';
  return activity.from_status ? `${LEAD_STATUS_LABELS[activity.from_status]} → ${to}` : `Added as ${to}`;
}

/** The lead's history, latest first, with a form to log a call, email, meeting or note. */
export function LeadTimeline({ leadId }: { leadId: string }) {
  const activities = useLeadActivities(leadId);
  const canWork = useCan('work');
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Timeline
      </Title>
      {canWork && <LogActivity leadId={leadId} />}
      {activities.isPending ? (
        <Skeleton h={120} mt="md" />
      ) : activities.isError ? (
        <ErrorState error={activities.error} onRetry={() => void activities.refetch()} />
      ) : (
        <Timeline bulletSize={28} lineWidth={2} mt="lg">
          {activities.data.map((activity) => {
            const Icon = ICONS[activity.activity_type];
            return (
              <Timeline.Item
                key={activity.id}
                bullet={<Icon size={16} aria-hidden />}
                title={describe(activity)}
              >
                {activity.summary && (
                  <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {activity.summary}
                  </Text>
                )}
                <Text fz="xs" c="dimmed" mt={2}>
                  {formatMoment(activity.occurred_at)}
                  {activity.user_name ? ` · ${activity.user_name}` : ''}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Card>
  );
}

const TYPE_OPTIONS = LOGGED_LEAD_ACTIVITY_TYPES.map((value) => ({
  value,
  label: LEAD_ACTIVITY_LABELS[value],
}));

function LogActivity({ leadId }: { leadId: string }) {
  const log = useLogActivity(leadId);
  const phone = useDevice() === 'mobile';
  const [type, setType] = useState<(typeof LOGGED_LEAD_ACTIVITY_TYPES)[number]>('call');
  const [summary, setSummary] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      aria-label="Log an activity"
      onSubmit={(event) => {
        event.preventDefault();
        if (summary.trim() === '') {
          setProblem('Say what was said or done.');
          return;
        }
        setProblem(null);
        log.mutate(
          { activity_type: type, summary },
          {
            onSuccess: () => {
              setSummary('');
              notifications.show({ color: 'green', message: `${LEAD_ACTIVITY_LABELS[type]} logged.` });
            },
            onError: (error) => setProblem(errorText(error)),
          },
        );
      }}
    >
      <Stack gap="xs">
        <SegmentedControl
          aria-label="Kind of activity"
          data={TYPE_OPTIONS}
          value={type}
          onChange={(value) => setType(value as typeof type)}
          fullWidth={phone}
          w={phone ? undefined : 'fit-content'}
        />
        <Textarea
          label="What happened"
          placeholder="Called about home cover; wants a quote by Friday."
          autosize
          minRows={2}
          value={summary}
          onChange={(event) => setSummary(event.currentTarget.value)}
        />
        <FormError message={problem} />
        <Group justify="flex-end">
          <Button type="submit" loading={log.isPending} variant="light">
            Log {LEAD_ACTIVITY_LABELS[type].toLowerCase()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
