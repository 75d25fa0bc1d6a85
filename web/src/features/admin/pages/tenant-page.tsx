import {
  type AdminActivity,
  type AdminTenantDetail,
  type AdminUser,
  auditActionLabel,
  type UsageMetricValue,
} from '@coverdesk/contract';
import { Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useParams } from 'react-router';
import { DetailField } from '../../../components/detail-field.js';
import { DetailSkeleton, ErrorState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatDate, formatTime, TABULAR_FIGURES } from '../../../lib/format.js';
import { useDevice } from '../../../lib/viewport.js';
import { useAdminTenant } from '../api.js';
import { personName, UserFlags } from '../components/labels.js';
import { Muted, TenantHeader } from '../components/tenant-header.js';
import { UserActions } from '../components/user-actions.js';

const BACK = { to: '/admin/tenants', label: 'Back to agencies' };
const count = new Intl.NumberFormat('en-US').format;

/** /admin/tenants/{id}: the agency, its people, its plan and use, and what happened there last. */
export function Component() {
  const { id = '' } = useParams();
  const tenant = useAdminTenant(id);
  if (tenant.isPending) return <DetailSkeleton />;
  if (tenant.isError)
    return <ErrorState error={tenant.error} onRetry={() => void tenant.refetch()} back={BACK} />;
  const agency = tenant.data;
  return (
    <Stack maw={1200}>
      <TenantHeader tenantId={agency.id} name={agency.name} subscription={agency.subscription} />
      <Summary agency={agency} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Usage agency={agency} />
        <Activity entries={agency.recent_activity} />
      </SimpleGrid>
      <Users users={agency.users} />
    </Stack>
  );
}

function Summary({ agency }: { agency: AdminTenantDetail }) {
  const subscription = agency.subscription;
  return (
    <Card withBorder padding="lg">
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} component="dl" m={0}>
        <DetailField label="Status" empty="No subscription">
          {subscription && <SubscriptionBadge status={subscription.status} />}
        </DetailField>
        <DetailField label="Plan" empty="None">
          {subscription?.plan_details.display_name}
        </DetailField>
        <DetailField label="Trial ends" empty="No trial">
          {subscription?.trial_ends_at && formatDate(subscription.trial_ends_at)}
        </DetailField>
        <DetailField label="Period ends" empty="No paid period">
          {subscription?.current_period_end && formatDate(subscription.current_period_end)}
        </DetailField>
        <DetailField label="Created">{formatDate(agency.created_at)}</DetailField>
        <DetailField label="Time zone and currency">
          {agency.time_zone} · {agency.currency}
        </DetailField>
      </SimpleGrid>
    </Card>
  );
}

function UsageBar({ label, usage }: { label: string; usage: UsageMetricValue }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs">
        <Text fz="sm" fw={600}>
          {label}
        </Text>
        <Text fz="sm" style={TABULAR_FIGURES}>
          {count(usage.current_value)} of {count(usage.limit_value)} ({usage.usage_percentage}%)
        </Text>
      </Group>
      <Progress
        value={Math.min(100, usage.usage_percentage)}
        color={usage.is_over_limit ? 'red' : usage.usage_percentage >= 80 ? 'yellow' : 'blue'}
        aria-label={`${label}: ${usage.usage_percentage}% of the plan's limit`}
      />
    </Stack>
  );
}

function Usage({ agency }: { agency: AdminTenantDetail }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Usage
      </Title>
      {agency.usage ? (
        <Stack gap="sm">
          <UsageBar label="Policies" usage={agency.usage.policies} />
          <UsageBar label="Customers" usage={agency.usage.customers} />
          <UsageBar label="Leads" usage={agency.usage.leads} />
        </Stack>
      ) : (
        <Muted>Without a subscription, no plan limits apply.</Muted>
      )}
    </Card>
  );
}

function Activity({ entries }: { entries: AdminActivity[] }) {
  return (
    <Card withBorder padding="lg">
      <Title order={3} fz="h4" mb="sm">
        Recent activity
      </Title>
      {entries.length === 0 ? (
        <Muted>Nothing recorded yet.</Muted>
      ) : (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {entries.map((entry) => (
            <li key={entry.id}>
              <Text fz="sm" fw={600}>
                {auditActionLabel(entry.action)}
                {entry.entity ? ` · ${entry.entity}` : ''}
              </Text>
              <Text fz="xs" c="dimmed">
                {formatDate(entry.occurred_at)} {formatTime(entry.occurred_at)}
                {entry.actor_email ? ` by ${entry.actor_email}` : ''}
                {entry.reason ? ` — ${entry.reason}` : ''}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function Users({ users }: { users: AdminUser[] }) {
  const phone = useDevice() === 'mobile';
  return (
    <Card withBorder padding={phone ? 'sm' : 'lg'}>
      <Title order={3} fz="h4" mb="sm">
        People ({users.length})
      </Title>
      {phone ? (
        <Stack gap="xs">
          {users.map((user) => (
            <Card key={user.id} withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Stack gap={2} miw={0}>
                  <Text fw={600}>{personName(user)}</Text>
                  <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {user.email}
                  </Text>
                  <UserFlags user={user} />
                </Stack>
                <UserActions user={user} />
              </Group>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>{personName(user)}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    <UserFlags user={user} />
                  </Table.Td>
                  <Table.Td>{user.last_login ? formatDate(user.last_login) : 'Never'}</Table.Td>
                  <Table.Td ta="right">
                    <UserActions user={user} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
