import { type BILLING_CYCLES, MODULE_LABELS, PLAN_CURRENCY, type Plan } from '@coverdesk/contract';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  List,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { isModuleComing } from '../../../app/screens.js';
import { usePlans } from '../../../lib/subscription.js';

type BillingCycle = (typeof BILLING_CYCLES)[number];

const CYCLE_OPTIONS: { value: BillingCycle; label: string }[] = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
];

const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: PLAN_CURRENCY });
const count = new Intl.NumberFormat('en-US');

/** Whole cents, so the yearly saving is not thrown off by floating-point sums. */
const cents = (amount: string) => Math.round(Number(amount) * 100);

function storage(megabytes: number): string {
  return megabytes >= 1000 && megabytes % 1000 === 0
    ? `${count.format(megabytes / 1000)} GB`
    : `${count.format(megabytes)} MB`;
}

/** Marks a module the plan includes that is still being built. */
function OnItsWay() {
  return (
    <Text span fz="xs" c="gray.7">
      {' '}
      (on its way)
    </Text>
  );
}

function PlanCard({ plan, cycle }: { plan: Plan; cycle: BillingCycle }) {
  const price = cycle === 'monthly' ? plan.price_monthly : plan.price_yearly;
  const yearlySaving = cents(plan.price_monthly) * 12 - cents(plan.price_yearly);
  const limits = [
    `${count.format(plan.limits.policies)} policies`,
    `${count.format(plan.limits.customers)} customers`,
    `${count.format(plan.limits.leads)} leads${isModuleComing('module_leads') ? ' (once leads arrive)' : ''}`,
    `${storage(plan.limits.storage_mb)} of storage`,
  ];
  const choice = `plan=${encodeURIComponent(plan.name)}&cycle=${cycle}`;
  return (
    <Card
      withBorder
      padding="xl"
      radius="lg"
      shadow={plan.is_popular ? 'md' : undefined}
      style={plan.is_popular ? { borderColor: 'var(--mantine-color-indigo-6)', borderWidth: 2 } : undefined}
    >
      <Stack gap="lg" h="100%">
        <Stack gap="xs">
          <Group justify="space-between" gap="xs">
            <Title order={2} fz="h3">
              {plan.display_name || plan.name}
            </Title>
            {plan.is_popular && (
              <Badge variant="filled" radius="sm">
                Most popular
              </Badge>
            )}
          </Group>
          <Text c="gray.7">{plan.description}</Text>
        </Stack>

        <div>
          <Group gap={6} align="baseline">
            <Text fz={36} fw={700} lh={1}>
              {currency.format(Number(price))}
            </Text>
            <Text c="gray.7">{cycle === 'monthly' ? 'per month' : 'per year'}</Text>
          </Group>
          <Text fz="sm" c="gray.7" mt={6}>
            {plan.trial_days}-day free trial, then billed {cycle}.
            {cycle === 'yearly' &&
              yearlySaving > 0 &&
              ` You save ${currency.format(yearlySaving / 100)} a year.`}
          </Text>
        </div>

        <Stack gap="xs">
          <Button
            component={Link}
            to={`/register?${choice}`}
            size="md"
            mih={44}
            variant={plan.is_popular ? 'filled' : 'light'}
          >
            Start free trial
          </Button>
          <Button component={Link} to={`/checkout?${choice}`} size="md" mih={44} variant="subtle">
            Subscribe now
          </Button>
        </Stack>

        <Stack gap="xs">
          <Title order={3} fz="sm" tt="uppercase" c="gray.7">
            Limits
          </Title>
          <List spacing={4} fz="sm">
            {limits.map((limit) => (
              <List.Item key={limit}>{limit}</List.Item>
            ))}
          </List>
        </Stack>

        <Stack gap="xs">
          <Title order={3} fz="sm" tt="uppercase" c="gray.7">
            Modules
          </Title>
          <List spacing={6} fz="sm" center>
            {plan.features.included.map((module) => (
              <List.Item
                key={module}
                icon={
                  <ThemeIcon size={20} radius="xl" color="teal" variant="light" aria-hidden>
                    <IconCheck size={14} />
                  </ThemeIcon>
                }
              >
                {MODULE_LABELS[module]}
                {isModuleComing(module) && <OnItsWay />}
              </List.Item>
            ))}
            {plan.features.excluded.map((module) => (
              <List.Item
                key={module}
                c="gray.7"
                icon={
                  <ThemeIcon size={20} radius="xl" color="gray" variant="light" aria-hidden>
                    <IconX size={14} />
                  </ThemeIcon>
                }
              >
                {MODULE_LABELS[module]}{' '}
                <Text span fz="xs">
                  (not included)
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      </Stack>
    </Card>
  );
}

function PlanSkeletons() {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg" aria-busy="true" aria-label="Loading plans">
      {[0, 1, 2].map((index) => (
        <Card key={index} withBorder padding="xl" radius="lg">
          <Stack gap="md">
            <Skeleton height={24} width="50%" />
            <Skeleton height={14} />
            <Skeleton height={14} width="80%" />
            <Skeleton height={36} width="60%" mt="sm" />
            <Skeleton height={44} />
            {[0, 1, 2, 3, 4, 5].map((line) => (
              <Skeleton key={line} height={12} width={`${70 - line * 5}%`} />
            ))}
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

function Plans({ cycle }: { cycle: BillingCycle }) {
  const plans = usePlans();
  if (plans.isPending) return <PlanSkeletons />;
  if (plans.isError) {
    return (
      <Alert color="red" icon={<IconAlertCircle aria-hidden />} title="We could not load the plans.">
        <Stack gap="sm" align="flex-start">
          <Text fz="sm">{plans.error.message}</Text>
          <Button variant="default" mih={44} onClick={() => void plans.refetch()} loading={plans.isFetching}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (plans.data.length === 0) {
    return (
      <Card withBorder padding="xl" radius="lg">
        <Stack gap="xs" align="flex-start">
          <Title order={2} fz="h3">
            No plans to show yet
          </Title>
          <Text c="gray.7">
            Start your 14-day free trial now and choose a plan later from Billing, or ask us which plan fits.
          </Text>
          <Group gap="sm" mt="xs">
            <Button component={Link} to="/register" mih={44}>
              Start free trial
            </Button>
            <Button component={Link} to="/contact" variant="default" mih={44}>
              Contact us
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
      {plans.data.map((plan) => (
        <PlanCard key={plan.id} plan={plan} cycle={cycle} />
      ))}
    </SimpleGrid>
  );
}

const QUESTIONS = [
  {
    question: 'What happens after the 14 days?',
    answer:
      'Your trial runs on the Professional plan, with no card needed. To keep working when it ends, contact us to subscribe: paying online from Billing is on its way. Nothing is charged unless you subscribe.',
  },
  {
    question: 'Can I change plan later?',
    answer:
      'Yes. Write to us and we change your plan or billing cycle; choosing it yourself in Billing is on its way.',
  },
  {
    question: 'Can I run Coverdesk myself?',
    answer:
      'Yes. Coverdesk is open source: run it on your own server with PostgreSQL, at no charge for the software.',
  },
];

/** `/pricing`: the plans on sale, monthly or yearly, each with a way into the free trial. */
export function Component() {
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="xl">
        <Stack gap="md" align="center" ta="center">
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Pricing
          </Title>
          <Text fz="lg" maw={640}>
            Every plan starts with a 14-day free trial, and no card is needed to begin. Pay monthly, or yearly
            for less.
          </Text>
          <SegmentedControl
            aria-label="Billing cycle"
            size="md"
            radius="xl"
            styles={{ label: { minHeight: 44, display: 'flex', alignItems: 'center', paddingInline: 20 } }}
            value={cycle}
            onChange={setCycle}
            data={CYCLE_OPTIONS}
          />
        </Stack>

        <Plans cycle={cycle} />

        <Stack gap="lg" mt="xl">
          <Title order={2}>Questions about plans</Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {QUESTIONS.map((item) => (
              <Stack key={item.question} gap="xs">
                <Title order={3} fz="lg">
                  {item.question}
                </Title>
                <Text c="gray.7">{item.answer}</Text>
              </Stack>
            ))}
          </SimpleGrid>
          <Text>
            Something else?{' '}
            <Anchor component={Link} to="/contact">
              Contact us
            </Anchor>{' '}
            and we will usually answer within one business day.
          </Text>
        </Stack>
      </Stack>
    </Container>
  );
}
