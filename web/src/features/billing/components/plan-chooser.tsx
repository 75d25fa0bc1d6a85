import {
  type BillingCycle,
  MODULE_LABELS,
  monthlyPriceOf,
  PLAN_CURRENCY,
  type Plan,
  type Subscription,
} from '@coverdesk/contract';
import {
  Badge,
  Button,
  Card,
  Flex,
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

/** What the agency would pay more (or less) a month, compared per month so cycles can be set side by side. */
const monthlyDelta = (plan: Plan, cycle: BillingCycle, current: Subscription) =>
  monthlyPriceOf(plan, cycle) - monthlyPriceOf(current.plan_details, current.billing_cycle);

/** What the agency would pay more or less, per the cycle shown, than it pays now. */
function difference(plan: Plan, cycle: BillingCycle, current: Subscription): string | null {
  const delta = monthlyDelta(plan, cycle, current);
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

type When = 'later' | 'now';

/**
 * What confirming will do, said before the broker confirms: when the plan starts, what happens to the
 * trial's days or to the plan paid for, and what is charged.
 */
function outcomeOf(plan: Plan, cycle: BillingCycle, subscription: Subscription, when: When, paddle: boolean) {
  const name = plan.display_name;
  const current = subscription.plan_details.display_name;
  if (subscription.is_trial_active) {
    const days = subscription.days_until_trial_expires;
    const left = `${days} remaining day${days === 1 ? '' : 's'}`;
    if (when === 'later') {
      return `Your trial's ${left} ${days === 1 ? 'is' : 'are'} kept: ${name} starts on ${formatDate(subscription.trial_ends_at)}, when the first payment is taken.`;
    }
    return paddle
      ? `Paddle takes the first payment at checkout, so ${name} starts now and your trial's ${left} end.`
      : `${name} starts now and the first payment is taken today; your trial's ${left} end.`;
  }
  if (!isPaying(subscription)) return `${name} starts now and the first payment is taken today.`;
  const end = formatDate(subscription.current_period_end);
  const down = monthlyDelta(plan, cycle, subscription) < 0;
  if (when === 'later') {
    return `${down ? 'Downgrade' : 'Move'} to ${name} on ${end}; you keep ${current} until then, and pay ${money(priceOf(plan, cycle))} ${per(cycle)} from that day.`;
  }
  return `${name} starts now. The unused part of this ${current} period is credited against its first ${money(priceOf(plan, cycle))}, and the rest is charged today.`;
}

/** Confirms a plan: during the trial from its end or now, a change of a paid plan at the period end or now. */
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
  const paddle = provider === 'paddle';
  const paying = isPaying(subscription);
  const onTrial = subscription.is_trial_active;
  // During the trial its days are kept, unless Paddle's checkout must take the payment now; an
  // upgrade starts now, a downgrade at the end of the period paid for.
  const [when, setWhen] = useState<When>(
    onTrial ? (paddle ? 'now' : 'later') : monthlyDelta(plan, cycle, subscription) > 0 ? 'now' : 'later',
  );
  const done = ({ message }: { message: string }) => {
    notifications.show({ color: 'green', message, autoClose: 6000 });
    onClose();
  };
  const choice = { plan_id: plan.id, billing_cycle: cycle };
  const starts = onTrial && when === 'later' ? ('at_trial_end' as const) : ('immediate' as const);
  // A paying agency changes plan; otherwise the manual provider applies the choice at once and Paddle
  // takes the payment in its checkout first.
  const confirm = () => {
    if (paying) {
      changePlan.mutate(
        { ...choice, change_type: when === 'now' ? 'immediate' : 'at_period_end' },
        { onSuccess: done },
      );
    } else if (paddle) {
      checkout.mutate(
        { ...choice, starts, success_url: '/billing?checkout=success', cancel_url: '/billing' },
        { onSuccess: onClose },
      );
    } else upgrade.mutate({ ...choice, starts }, { onSuccess: done });
  };
  const failure = changePlan.isError
    ? billingFailure('changePlan', changePlan.error)
    : upgrade.isError
      ? billingFailure('upgrade', upgrade.error)
      : checkout.isError
        ? billingFailure('checkout', checkout.error)
        : null;
  const options: { value: When; label: string }[] | null = paying
    ? [
        {
          value: 'later',
          label: `At the end of the period, on ${formatDate(subscription.current_period_end)}`,
        },
        { value: 'now', label: 'Now, with the unused part of this period credited' },
      ]
    : onTrial && !paddle
      ? [
          { value: 'later', label: `When the trial ends, on ${formatDate(subscription.trial_ends_at)}` },
          { value: 'now', label: 'Start now' },
        ]
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
        {options && (
          <Radio.Group label="When" value={when} onChange={(value) => setWhen(value as When)}>
            <Stack gap="xs" mt={6}>
              {options.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} />
              ))}
            </Stack>
          </Radio.Group>
        )}
        <Text fw={600} aria-live="polite">
          {outcomeOf(plan, cycle, subscription, when, paddle)}
        </Text>
        {!paying && (
          <Text fz="sm" c="dimmed">
            {paddle
              ? 'You pay in Paddle’s secure checkout.'
              : 'No payment provider is set up, so payments are recorded as manual payments.'}
          </Text>
        )}
        <FormError message={failure} />
        <Flex direction={{ base: 'column-reverse', xs: 'row' }} justify="flex-end" gap="sm">
          <Button mih={44} variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            mih={44}
            loading={checkout.isPending || changePlan.isPending || upgrade.isPending}
            onClick={confirm}
          >
            {paying ? 'Confirm change' : 'Subscribe'}
          </Button>
        </Flex>
      </Stack>
    </Modal>
  );
}
