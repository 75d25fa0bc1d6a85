import type { Subscription } from '@coverdesk/contract';
import { Alert, Button, Card, Group, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCircleCheck, IconFlask, IconLock } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { ErrorState } from '../../../components/page-states.js';
import { SubscriptionBadge } from '../../../components/subscription-badge.js';
import { errorText } from '../../../lib/error-message.js';
import { formatDate, TABULAR_FIGURES } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { usePaymentProvider, useSubscriptionStatus } from '../../../lib/subscription.js';
import { useCan } from '../../../lib/use-can.js';
import {
  BILLING_FAILURES,
  billingFailure,
  useCurrentSubscription,
  useWithdrawScheduledChange,
} from '../api.js';
import { BillingHistory } from '../components/billing-history.js';
import { PaymentMethods } from '../components/payment-methods.js';
import { PlanChooser } from '../components/plan-chooser.js';
import { PlanUsage } from '../components/plan-usage.js';
import { SubscriptionActions } from '../components/subscription-actions.js';

export function Component() {
  const { state } = useSession();
  const [params] = useSearchParams();
  const isAdmin = state.user?.is_admin ?? false;
  // Every visitor shares the demo agency, so the server refuses them any change to its billing.
  const isDemo = state.user?.is_demo_user ?? false;
  const canBill = useCan('billing');

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
      {params.get('checkout') === 'success' && (
        <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title="Thank you">
          Your payment went through. The plan shows here as soon as the payment provider confirms it.
        </Alert>
      )}
      {isAdmin ? (
        <Card withBorder padding="lg">
          <Title order={2} fz="h4" mb="sm">
            Current plan
          </Title>
          <Text c="dimmed">Platform admins are not billed and can open every module.</Text>
        </Card>
      ) : (
        <AgencyBilling locked={isDemo || !canBill} demo={isDemo} />
      )}
    </Stack>
  );
}

/** The agency's billing; `locked` shows it without the buttons that change it. */
function AgencyBilling({ locked, demo }: { locked: boolean; demo: boolean }) {
  const current = useCurrentSubscription();
  // The state the app gates modules on: when it cannot be read, every screen sends the user here.
  const status = useSubscriptionStatus(true);
  const subscription = current.data;
  if (current.isError) {
    return (
      <Alert color="red" variant="light" title={BILLING_FAILURES.init} role="alert">
        {BILLING_FAILURES.current}: {errorText(current.error)}
        <Group mt="xs">
          <Button size="xs" variant="light" onClick={() => void current.refetch()}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <>
      {demo ? (
        <Alert color="violet" variant="light" icon={<IconFlask size={18} />}>
          Every visitor shares the demo agency, so its plan and payment methods cannot be changed. Start a
          real account to try billing.
        </Alert>
      ) : (
        locked && (
          <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden />}>
            Only the agency's owner can change billing: the plan, the payment methods and the subscription.
          </Alert>
        )
      )}
      {status.isError && (
        <ErrorState
          title={SUBSCRIPTION_STATUS_FAILURE}
          error={status.error}
          onRetry={() => void status.refetch()}
        />
      )}
      <Card withBorder padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Current plan
        </Title>
        {subscription ? (
          <CurrentPlan subscription={subscription} locked={locked} />
        ) : (
          <Stack gap="xs">
            <Skeleton h={20} w="40%" />
            <Skeleton h={16} w="60%" />
          </Stack>
        )}
      </Card>
      <PlanUsage />
      <PlanChooser key={subscription?.billing_cycle} subscription={subscription} locked={locked} />
      <PaymentMethods locked={locked} />
      <BillingHistory />
    </>
  );
}

const SUBSCRIPTION_STATUS_FAILURE = 'Failed to fetch subscription status';

function CurrentPlan({ subscription, locked }: { subscription: Subscription; locked: boolean }) {
  const { data: provider } = usePaymentProvider();
  const days = subscription.days_until_trial_expires;
  const trialDays = Math.max(subscription.plan_details.trial_days, days, 1);
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Text fz="xl" fw={700}>
          {subscription.plan_details.display_name}
        </Text>
        <SubscriptionBadge status={subscription.status} />
      </Group>
      {subscription.is_trial_active ? (
        <Stack gap={6} maw={480}>
          <Text>
            Your free trial ends on <b>{formatDate(subscription.trial_ends_at)}</b>: {days} day
            {days === 1 ? '' : 's'} left.
          </Text>
          <Group justify="space-between" fz="sm" c="dimmed">
            <Text inherit>Trial time left</Text>
            <Text inherit style={TABULAR_FIGURES}>
              {days} of {trialDays} days
            </Text>
          </Group>
          {/* The bar is the time that remains: it shortens as the trial runs out. */}
          <Progress
            value={(Math.min(days, trialDays) / trialDays) * 100}
            color={days <= 3 ? 'orange' : 'indigo'}
            aria-label={`${days} of ${trialDays} trial days left`}
          />
        </Stack>
      ) : (
        <Text>{periodText(subscription)}</Text>
      )}
      {subscription.scheduled_change && (
        <ScheduledChange subscription={subscription} change={subscription.scheduled_change} locked={locked} />
      )}
      {!locked && (
        <>
          <Text fz="sm" c="dimmed">
            {provider === 'paddle'
              ? 'Payments are taken by Paddle, our merchant of record, which also handles tax and receipts.'
              : 'No payment provider is set up: payments are recorded as manual payments, and a new plan starts on the day you choose.'}
          </Text>
          <SubscriptionActions subscription={subscription} />
        </>
      )}
    </Stack>
  );
}

/** The plan waiting for the trial's end or the period's end, with the way to take it back. */
function ScheduledChange({
  subscription,
  change,
  locked,
}: {
  subscription: Subscription;
  change: NonNullable<Subscription['scheduled_change']>;
  locked: boolean;
}) {
  const withdraw = useWithdrawScheduledChange();
  const current = subscription.plan_details.display_name;
  const day = formatDate(change.effective_at);
  const onTrial = subscription.status === 'trial';
  const samePlan = change.plan_id === subscription.plan_details.id;
  return (
    <Alert variant="light" color="blue" title={onTrial ? 'Plan chosen' : 'Plan change scheduled'}>
      <Stack gap="xs">
        {onTrial ? (
          <Text inherit>
            {change.plan_name}, billed {change.billing_cycle}, starts on {day}, when your trial ends.
          </Text>
        ) : (
          <>
            <Text inherit>
              Moves to {change.plan_name}, billed {change.billing_cycle}, on {day}.
            </Text>
            {!samePlan && <Text inherit>You keep {current} until then.</Text>}
          </>
        )}
        {!locked && (
          <Group>
            <Button
              mih={44}
              variant="default"
              loading={withdraw.isPending}
              onClick={() =>
                // This alert goes away once the subscription is read again without the change, often
                // before the answer's callbacks would run (mutate's own are dropped for a component
                // that has gone); the request's promise is kept, so the broker always reads the answer.
                withdraw.mutateAsync().then(
                  // A sentence with a date and what to do next: long enough to read, as the plan chooser's.
                  ({ message }) => notifications.show({ color: 'green', message, autoClose: 6000 }),
                  (error: unknown) =>
                    notifications.show({ color: 'red', message: billingFailure('withdrawChange', error) }),
                )
              }
            >
              {onTrial
                ? `Don't start ${change.plan_name}`
                : `Keep ${samePlan ? `billing ${subscription.billing_cycle}` : current}`}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function periodText(subscription: Subscription): string {
  const end = formatDate(subscription.current_period_end);
  switch (subscription.status) {
    case 'active':
      return `Billed ${subscription.billing_cycle}${subscription.current_period_end ? `, renews on ${end}` : ''}.`;
    case 'past_due':
      return `The last payment failed and is being retried. Access continues until ${end}.`;
    case 'paused':
      return `Paused since ${formatDate(subscription.paused_at)}: not billed, and your agency's screens are closed.`;
    case 'cancelled':
      return subscription.is_active
        ? `Cancelled: you keep access until ${end}.`
        : 'Cancelled: choose a plan to subscribe again.';
    default:
      return subscription.trial_ends_at && !subscription.current_period_start
        ? `Your trial ended on ${formatDate(subscription.trial_ends_at)}.`
        : 'Your subscription has ended.';
  }
}
