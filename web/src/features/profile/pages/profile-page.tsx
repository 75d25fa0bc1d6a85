import { AUDIT_ACTION_LABELS, AUDIT_ENTITY_LABELS, roleCan, type UserProfile } from '@coverdesk/contract';
import { Avatar, Badge, Button, Card, Group, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconListSearch, IconSettings, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ActivityLog } from '../../../components/activity-log.js';
import { FilterDate, FilterSelect, ListToolbar } from '../../../components/list-toolbar.js';
import { formatDate } from '../../../lib/format.js';
import { initials } from '../../../lib/initials.js';
import { useListParams } from '../../../lib/list-params.js';
import { currencyName } from '../../../lib/money.js';
import { useSession } from '../../../lib/session-context.js';
import { useSubscriptionStatus } from '../../../lib/subscription.js';
import { useAgencyActivity, useAgencyPeople } from '../api.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text>{children}</Text>
    </div>
  );
}

const ACTIVITY_FILTERS = ['user', 'action', 'entity', 'date_from', 'date_to'] as const;
const toOptions = (labels: Record<string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value, label }));
const ACTION_OPTIONS = toOptions(AUDIT_ACTION_LABELS);
const ENTITY_OPTIONS = toOptions(AUDIT_ENTITY_LABELS);

/** The agency's activity log, as its owner reads it: who did what, filtered, a page at a time. */
function AgencyActivity() {
  const params = useListParams(ACTIVITY_FILTERS, '-occurred_at');
  const { ordering: _ordering, ...query } = params.query;
  const list = useAgencyActivity(query);
  const people = useAgencyPeople();
  return (
    <Stack>
      <ListToolbar
        params={params}
        filters={
          <>
            <FilterSelect
              params={params}
              name="user"
              label="User"
              placeholder="Anyone"
              data={(people.data?.results ?? []).map((person) => ({
                value: person.id,
                label: person.name === person.email ? person.email : `${person.name} (${person.email})`,
              }))}
              searchable
              width={220}
            />
            <FilterSelect
              params={params}
              name="action"
              label="Action"
              placeholder="Any action"
              data={ACTION_OPTIONS}
              searchable
              width={190}
            />
            <FilterSelect
              params={params}
              name="entity"
              label="Record"
              placeholder="Any record"
              data={ENTITY_OPTIONS}
              width={150}
            />
            <FilterDate params={params} name="date_from" label="From" />
            <FilterDate params={params} name="date_to" label="To" />
          </>
        }
      />
      <ActivityLog
        query={list}
        params={params}
        emptyText="Sign-ins and every change to your agency's customers, policies, payments, insurers, leads and claims appear here."
      />
    </Stack>
  );
}

/** /profile: who you are, your agency and plan; for the agency's owner, its activity log too. */
export function Component() {
  const { state } = useSession();
  const user = state.user;
  const [searchParams, setSearchParams] = useSearchParams();
  const subscription = useSubscriptionStatus(Boolean(user) && !user?.is_admin);
  if (!user) return null;
  // Visitors share the demo's account: its log would show them one another's sign-ins.
  const seesActivity = roleCan(user.role, 'audit_log') && !user.is_demo_user;
  const tab = seesActivity && searchParams.get('tab') === 'activity' ? 'activity' : 'overview';
  // The tab lives in the URL with the log's filters; leaving the log leaves its filters behind.
  const showTab = (next: string | null) =>
    setSearchParams(next === 'activity' ? { tab: 'activity' } : {}, { replace: true });

  const overview = <Overview user={user} subscription={subscription} />;
  if (!seesActivity) return overview;
  return (
    <Tabs value={tab} onChange={showTab} keepMounted={false}>
      <Tabs.List mb="md">
        <Tabs.Tab value="overview" leftSection={<IconUser size={16} aria-hidden />}>
          Overview
        </Tabs.Tab>
        <Tabs.Tab value="activity" leftSection={<IconListSearch size={16} aria-hidden />}>
          Activity
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="overview">{overview}</Tabs.Panel>
      <Tabs.Panel value="activity">
        <AgencyActivity />
      </Tabs.Panel>
    </Tabs>
  );
}

function Overview({
  user,
  subscription,
}: {
  user: UserProfile;
  subscription: ReturnType<typeof useSubscriptionStatus>;
}) {
  const plan = subscription.data;
  return (
    <Stack maw={880}>
      <Card withBorder padding="lg">
        <Group justify="space-between" align="flex-start" gap="md">
          <Group gap="md" wrap="nowrap">
            <Avatar size={64} radius="xl" color="indigo">
              {initials(user)}
            </Avatar>
            <div>
              <Title order={2} fz="h3">
                {user.first_name} {user.last_name}
              </Title>
              <Text c="dimmed">{user.email}</Text>
              <Group gap={6} mt={6}>
                {user.is_admin && <Badge color="red">Platform admin</Badge>}
                {user.is_demo_user && <Badge color="violet">Demo account</Badge>}
              </Group>
            </div>
          </Group>
          <Button
            component={Link}
            to="/profile/settings"
            leftSection={<IconSettings size={16} />}
            variant="default"
          >
            Edit profile
          </Button>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder padding="lg">
          <Title order={3} fz="h4" mb="sm">
            Agency
          </Title>
          <Stack gap="sm">
            <Field label="Name">{user.company_name}</Field>
            <Field label="Time zone">{user.time_zone}</Field>
            <Field label="Currency">{currencyName(user.currency)}</Field>
            <Field label="Member since">{formatDate(user.date_joined)}</Field>
            <Field label="Last sign-in">{formatDate(user.last_login)}</Field>
          </Stack>
        </Card>
        <Card withBorder padding="lg">
          <Title order={3} fz="h4" mb="sm">
            Plan
          </Title>
          {user.is_admin ? (
            <Text c="dimmed">Platform admins are not billed and can open every module.</Text>
          ) : plan ? (
            <Stack gap="sm">
              <Field label="Plan">{plan.plan_details.display_name}</Field>
              <Field label="Status">
                {plan.is_trial_active
                  ? `Trial, ${plan.days_until_trial_expires} day${plan.days_until_trial_expires === 1 ? '' : 's'} left`
                  : plan.is_active
                    ? 'Active'
                    : 'Not active'}
              </Field>
              <Button component={Link} to="/billing" variant="light" w="fit-content">
                Billing
              </Button>
            </Stack>
          ) : (
            <Text c="dimmed">
              {subscription.isError ? 'Your plan could not be loaded.' : 'Loading your plan…'}
            </Text>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
