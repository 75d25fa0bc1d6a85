import {
  type BillingCycle,
  MODULE_LABELS,
  PLAN_CURRENCY,
  type Plan,
  type Subscription,
} from '@coverdesk/contract';
import {
  Badge,
  Button,
  Card,
  Group,
  List,
  Modal,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatDate, formatMoney } from '../../../lib/format.js';
import { usePaymentProvider, usePlans } from '../../../lib/subscription.js';
import { billingFailure, useChangePlan, useCheckout, useUpgrade } from '../api.js';

const priceOf = (plan: Plan, cycle: BillingCycle) =>
  cycle === 'yearly' ? plan.price_yearly : plan.price_monthly;
const money = (amount: number | string) => formatMoney(String(amount), PLAN_CURRENCY);
const per = (cycle: BillingCycle) => (cycle === 'yearly' ? 'a year' : 'a month');

/** What the agency would pay more or less, per the cycle shown, than it pays now. */
function difference(plan: Plan, cycle: BillingCycle, current: Subscription): string | null {
  const now = Number(priceOf(current.plan_details, current.billing_cycle));
  // Compared per month, so a yearly price and a monthly one can be set side by side.
  const monthly = (amount: number, of: BillingCycle) => (of === 'yearly' ? amount / 12 : amount);
  const delta = monthly(Number(priceOf(plan, cycle)), cycle) - monthly(now, current.billing_cycle);
  if (Math.abs(delta) < 0.005) return null;
  return `${delta > 0 ? '+' : '−'}${money(Math.abs(delta).toFixed(2))} a month compared with now`;
}

/** Paying subscriptions change plan; a trial or an ended subscription chooses one and pays. */
const isPaying = (subscription: Subscription | undefined) =>
  subscription?.status === 'active' || subscription?.status === 'past_due';

/**
 * The plans on sale, monthly or yearly, with what each costs compared with the current one; `locked`
 * shows them without the buttons that choose one.
 */
export function PlanChooser({
  subscription,
  locked,
}: {
  subscription: Subscription | undefined;
  locked: boolean;
}) {
  const plans = usePlans();
  const [cycle, setCycle] = useState<BillingCycle>(subscription?.billing_cycle ?? 'monthly');
  const [chosen, setChosen] = useState<Plan | null>(null);

  return (
    <Stack id="plans">
      <Group justify="space-between" gap="sm">
        <Title order={2} fz="h4">
          {locked ? 'Plans' : isPaying(subscription) ? 'Change plan' : 'Choose a plan'}
        </Title>
        <SegmentedControl
          aria-label="Billing cycle"
          value={cycle}
          onChange={(value) => setCycle(value as BillingCycle)}
          data={[
            { value: 'monthly', label: 'Monthly' },
            { value: 'yearly', label: 'Yearly' },
          ]}
        />
      </Group>
      {plans.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} h={260} radius="md" />
          ))}
        </SimpleGrid>
      ) : plans.isError ? (
        <ErrorState
          title="Failed to fetch subscription plans"
          error={plans.error}
          onRetry={() => void plans.refetch()}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {plans.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              cycle={cycle}
              subscription={subscription}
              onChoose={locked ? undefined : setChosen}
            />
          ))}
        </SimpleGrid>
      )}
      {chosen && subscription && (
        <PlanDialog plan={chosen} cycle={cycle} subscription={subscription} onClose={() => setChosen(null)} />
      )}
    </Stack>
  );
}

function PlanCard({
  plan,
  cycle,
  subscription,
  onChoose,
}: {
  plan: Plan;
  cycle: BillingCycle;
  subscription: Subscription | undefined;
  /** Absent when the plan cannot be chosen here. */
  onChoose?: (plan: Plan) => void;
}) {
  const isCurrentPlan = plan.id === subscription?.plan_details.id;
  const isCurrent = isCurrentPlan && cycle === subscription?.billing_cycle && isPaying(subscription);
  // Already chosen for the period end: offering it again would only schedule the same change.
  const scheduled = subscription?.scheduled_change;
  const scheduledHere =
    scheduled?.plan_id === plan.id && scheduled.billing_cycle === cycle ? scheduled : null;
  const change =
    subscription && isPaying(subscription) && !isCurrent ? difference(plan, cycle, subscription) : null;
  const action = isPaying(subscription)
    ? isCurrentPlan
      ? `Switch to ${cycle}`
      : `Switch to ${plan.display_name}`
    : `Choose ${plan.display_name}`;
  return (
    <Card
      withBorder
      padding="lg"
      style={isCurrentPlan ? { borderColor: 'var(--mantine-color-indigo-6)' } : undefined}
    >
      <Stack gap="xs" h="100%">
        <Group justify="space-between">
          <Title order={3} fz="h4">
            {plan.display_name}
          </Title>
          {isCurrentPlan ? (
            <Badge>Your plan</Badge>
          ) : plan.is_popular ? (
            <Badge variant="light">Popular</Badge>
          ) : null}
        </Group>
        <Text fz="sm" c="dimmed">
          {plan.description}
        </Text>
        <Text fw={700} fz="lg">
          {money(priceOf(plan, cycle))}{' '}
          <Text span fz="sm" c="dimmed">
            {per(cycle)}
          </Text>
        </Text>
        {change && (
          <Text fz="sm" fw={600}>
            {change}
          </Text>
        )}
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
        {scheduledHere && (
          <Text mt="auto" fz="sm" fw={600} c="indigo">
            Starts on {formatDate(scheduledHere.effective_at)}
          </Text>
        )}
        {onChoose && subscription && !isCurrent && !scheduledHere && (
          <Button
            mt="auto"
            mih={44}
            variant={isCurrentPlan ? 'light' : 'filled'}
            onClick={() => onChoose(plan)}
          >
            {action}
          </Button>
        )}
      </Stack>
    </Card>
  );
}

/** Confirms a plan: paid for now (from a trial or an ended subscription), or a change of a paid one. */
function PlanDialog({
  plan,
  cycle,
  subscription,
  onClose,
}: {
  plan: Plan;
  cycle: BillingCycle;
  subscription: Subscription;
  onClose(): void;
}) {
  const upgrade = useUpgrade();
  const checkout = useCheckout();
  const changePlan = useChangePlan();
  const { data: provider } = usePaymentProvider();
  const [when, setWhen] = useState<'at_period_end' | 'immediate'>('at_period_end');
  const paying = isPaying(subscription);
  const done = ({ message }: { message: string }) => {
    notifications.show({ color: 'green', message, autoClose: 6000 });
    onClose();
  };
  const choice = { plan_id: plan.id, billing_cycle: cycle };
  // A paying agency changes plan; otherwise the manual provider upgrades at once and Paddle takes
  // the payment in its checkout first.
  const confirm = () => {
    if (paying) changePlan.mutate({ ...choice, change_type: when }, { onSuccess: done });
    else if (provider === 'paddle') {
      checkout.mutate(
        { ...choice, success_url: '/billing?checkout=success', cancel_url: '/billing' },
        { onSuccess: onClose },
      );
    } else upgrade.mutate(choice, { onSuccess: done });
  };
  const failure = changePlan.isError
    ? billingFailure('changePlan', changePlan.error)
    : upgrade.isError
      ? billingFailure('upgrade', upgrade.error)
      : checkout.isError
        ? billingFailure('checkout', checkout.error)
        : null;

  return (
    <Modal
      opened
      onClose={onClose}
      title={paying ? `Switch to ${plan.display_name}, billed ${cycle}` : `Subscribe to ${plan.display_name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="md">
        <Text>
          {money(priceOf(plan, cycle))} {per(cycle)}.
          {paying ? ` ${difference(plan, cycle, subscription) ?? 'The same price as now.'}` : ''}
        </Text>
        {paying ? (
          <Radio.Group label="When" value={when} onChange={(value) => setWhen(value as typeof when)}>
            <Stack gap="xs" mt={6}>
              <Radio
                value="at_period_end"
                label={`At the end of the period, on ${formatDate(subscription.current_period_end)}`}
              />
              <Radio value="immediate" label="Now, with the unused part of this period credited" />
            </Stack>
          </Radio.Group>
        ) : (
          <Text fz="sm" c="dimmed">
            {provider === 'paddle'
              ? 'You pay in Paddle’s secure checkout; the plan starts once the payment goes through.'
              : 'No payment provider is set up, so the plan starts at once and is recorded as a manual payment.'}
          </Text>
        )}
        <FormError message={failure} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={checkout.isPending || changePlan.isPending || upgrade.isPending} onClick={confirm}>
            {paying ? 'Confirm change' : 'Subscribe'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
