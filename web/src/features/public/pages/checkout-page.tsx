import { type BillingCycle, PLAN_CURRENCY, type Plan } from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  List,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { FormError } from '../../../components/form-error.js';
import { ErrorState } from '../../../components/page-states.js';
import { formatMoney } from '../../../lib/format.js';
import { useSession } from '../../../lib/session-context.js';
import { usePaymentProvider, usePlans } from '../../../lib/subscription.js';
import { billingFailure, useCheckout } from '../../billing/api.js';

const cycleOf = (value: string | null): BillingCycle => (value === 'yearly' ? 'yearly' : 'monthly');

/**
 * `/checkout`: the plan chosen on the public site. Signed out, it leads through registration (the
 * choice travels in the address) and back here; signed in, it pays: at once with the manual
 * provider, in Paddle's overlay otherwise.
 */
export function Component() {
  const [params, setParams] = useSearchParams();
  const plans = usePlans();
  const cycle = cycleOf(params.get('cycle'));
  const plan = plans.data?.find((each) => each.name === params.get('plan')) ?? null;
  const setCycle = (value: string) =>
    setParams(
      (current) => {
        current.set('cycle', value);
        return current;
      },
      { replace: true },
    );

  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="xl" maw={680}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Subscribe to Coverdesk
          </Title>
          <Text fz="lg">
            Your plan is attached to your agency's account, and you can change it at any time.
          </Text>
        </Stack>
        {plans.isPending ? (
          <Skeleton h={240} radius="lg" />
        ) : plans.isError ? (
          <ErrorState
            title="Failed to fetch subscription plans"
            error={plans.error}
            onRetry={() => void plans.refetch()}
          />
        ) : plan ? (
          <Card withBorder padding="xl" radius="lg">
            <Stack gap="lg">
              <Group justify="space-between" gap="sm">
                <Title order={2} fz="h3">
                  {plan.display_name}
                </Title>
                <SegmentedControl
                  aria-label="Billing cycle"
                  value={cycle}
                  onChange={setCycle}
                  data={[
                    { value: 'monthly', label: 'Monthly' },
                    { value: 'yearly', label: 'Yearly' },
                  ]}
                />
              </Group>
              <Text fz={32} fw={700} lh={1}>
                {formatMoney(cycle === 'yearly' ? plan.price_yearly : plan.price_monthly, PLAN_CURRENCY)}{' '}
                <Text span fz="md" fw={400} c="gray.7">
                  {cycle === 'yearly' ? 'per year' : 'per month'}
                </Text>
              </Text>
              <Text c="gray.7">{plan.description}</Text>
              <Payment plan={plan} cycle={cycle} />
            </Stack>
          </Card>
        ) : (
          <Alert variant="light" icon={<IconCreditCard aria-hidden />} title="Choose a plan first">
            <Anchor component={Link} to="/pricing">
              See all plans and prices
            </Anchor>{' '}
            and pick the one that fits your agency.
          </Alert>
        )}
        <Text>
          Still comparing?{' '}
          <Anchor component={Link} to="/pricing">
            See all plans and prices
          </Anchor>
          .
        </Text>
      </Stack>
    </Container>
  );
}

function Payment({ plan, cycle }: { plan: Plan; cycle: BillingCycle }) {
  const { state } = useSession();
  const navigate = useNavigate();
  const checkout = useCheckout();
  const { data: provider } = usePaymentProvider();
  const choice = new URLSearchParams({ plan: plan.name, cycle }).toString();

  if (!state.user) {
    return (
      <Stack gap="md">
        <List type="ordered" spacing="xs">
          <List.Item>Create your agency's account (or sign in).</List.Item>
          <List.Item>Confirm the {plan.display_name} plan here, and pay.</List.Item>
        </List>
        <Group gap="sm">
          <Button component={Link} to={`/register?${choice}`} size="md" mih={44}>
            Create your account
          </Button>
          <Button
            component={Link}
            to={`/login?next=${encodeURIComponent(`/checkout?${choice}`)}`}
            size="md"
            mih={44}
            variant="default"
          >
            Sign in
          </Button>
        </Group>
      </Stack>
    );
  }

  const pay = () =>
    checkout.mutate(
      {
        plan_id: plan.id,
        billing_cycle: cycle,
        success_url: '/billing?checkout=success',
        cancel_url: `/checkout?${choice}`,
      },
      { onSuccess: (session) => session.subscription && navigate('/billing', { replace: true }) },
    );
  return (
    <Stack gap="md">
      <Text fz="sm" c="gray.7">
        {provider === 'paddle'
          ? 'You pay in Paddle’s secure checkout. Paddle is our merchant of record and handles tax and receipts.'
          : 'No payment provider is set up, so the plan starts at once and is recorded as a manual payment.'}
      </Text>
      <FormError message={checkout.isError ? billingFailure('checkout', checkout.error) : null} />
      <Group gap="sm">
        <Button size="md" mih={44} loading={checkout.isPending} onClick={pay}>
          Subscribe to {plan.display_name}
        </Button>
        <Button component={Link} to="/dashboard" size="md" mih={44} variant="default">
          Not now
        </Button>
      </Group>
    </Stack>
  );
}
