import { MODULE_LABELS, PLAN_CURRENCY, type Plan } from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  List,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { usePlans, useSubscriptionStatus } from '../../../lib/subscription.js';
import { PlanUsage } from '../components/plan-usage.js';

export function Component() {
  const { state } = useSession();
  const [params] = useSearchParams();
  const isAdmin = state.user?.is_admin ?? false;
  const status = useSubscriptionStatus(!isAdmin);
  const plans = usePlans();
  const subscription = status.data;

  return (
    <Stack maw={1100}>
      {params.get('expired') === 'true' && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="Your access has ended"
          role="alert"
        >
          Your trial or subscription is no longer active, so your agency's screens are closed. Your data is
          kept safe: choose a plan to open them again. Until then you can still reach Billing and your
          profile.
        </Alert>
      )}

      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Current plan
        </Title>
        {isAdmin ? (
          <Text c="dimmed">Platform admins are not billed and can open every module.</Text>
        ) : status.isPending ? (
          <Stack gap="xs">
            <Skeleton h={20} w="40%" />
            <Skeleton h={16} w="60%" />
          </Stack>
        ) : status.isError || !subscription ? (
          <Alert color="red" variant="light" title="Failed to fetch subscription status">
            <Button size="xs" variant="light" mt="xs" onClick={() => void status.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : (
          <Stack gap="xs">
            <Group gap="sm">
              <Text fz="xl" fw={700}>
                {subscription.plan_details.display_name}
              </Text>
              <SubscriptionBadge status={subscription.status} />
            </Group>
            {subscription.is_trial_active ? (
              <Text>
                Your free trial ends on <b>{formatDate(subscription.trial_ends_at)}</b> —{' '}
                {subscription.days_until_trial_expires} day
                {subscription.days_until_trial_expires === 1 ? '' : 's'} left.
              </Text>
            ) : subscription.is_active ? (
              <Text>
                Billed {subscription.billing_cycle}
                {subscription.current_period_end
                  ? `, renews on ${formatDate(subscription.current_period_end)}`
                  : ''}
                .
              </Text>
            ) : (
              <Text>
                {subscription.trial_ends_at
                  ? `Your trial ended on ${formatDate(subscription.trial_ends_at)}.`
                  : 'Your subscription has ended.'}
              </Text>
            )}
            <Text c="dimmed" fz="sm">
              Online plan changes and payment are coming to this page. To subscribe or change plan now,{' '}
              <Anchor component={Link} to="/contact" fz="sm">
                contact us
              </Anchor>
              .
            </Text>
          </Stack>
        )}
      </Card>

      {!isAdmin && <PlanUsage />}

      <Title order={2} fz="h4">
        Plans
      </Title>
      {plans.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} h={260} radius="md" />
          ))}
        </SimpleGrid>
      ) : plans.isError ? (
        <Alert color="red" variant="light" title="Failed to fetch subscription plans">
          <Button size="xs" variant="light" mt="xs" onClick={() => void plans.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {plans.data.map((plan) => (
            <PlanCard key={plan.id} plan={plan} current={plan.id === subscription?.plan_id} />
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

function PlanCard({ plan, current }: { plan: Plan; current: boolean }) {
  return (
    <Card
      withBorder
      padding="lg"
      style={current ? { borderColor: 'var(--mantine-color-indigo-6)' } : undefined}
    >
      <Group justify="space-between" mb="xs">
        <Title order={3} fz="h4">
          {plan.display_name}
        </Title>
        {current ? <Badge>Your plan</Badge> : plan.is_popular ? <Badge variant="light">Popular</Badge> : null}
      </Group>
      <Text fz="sm" c="dimmed" mb="sm">
        {plan.description}
      </Text>
      <Text fw={700} fz="lg">
        {formatMoney(plan.price_monthly, PLAN_CURRENCY)}{' '}
        <Text span fz="sm" c="dimmed">
          / month
        </Text>
      </Text>
      <Text fz="sm" c="dimmed" mb="sm">
        or {formatMoney(plan.price_yearly, PLAN_CURRENCY)} a year
      </Text>
      <List spacing={4} fz="sm" icon={<IconCheck size={14} color="var(--mantine-color-green-7)" />}>
        <List.Item>{plan.limits.policies.toLocaleString()} policies</List.Item>
        <List.Item>{plan.limits.customers.toLocaleString()} customers</List.Item>
        <List.Item>{plan.limits.leads.toLocaleString()} leads</List.Item>
        <List.Item>
          {plan.features.excluded.length === 0
            ? 'Every module, analytics included'
            : `All but ${plan.features.excluded.map((m) => MODULE_LABELS[m]).join(', ')}`}
        </List.Item>
      </List>
    </Card>
  );
}
