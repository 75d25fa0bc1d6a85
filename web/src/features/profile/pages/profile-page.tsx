import { Avatar, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../../lib/format.js';
import { initials } from '../../../lib/initials.js';
import { currencyName } from '../../../lib/money.js';
import { useSession } from '../../../lib/session-context.js';
import { useSubscriptionStatus } from '../../../lib/subscription.js';

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

export function Component() {
  const { state } = useSession();
  const user = state.user;
  const subscription = useSubscriptionStatus(Boolean(user) && !user?.is_admin);
  if (!user) return null;
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
