import { Alert, Anchor, Button, Card, Container, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';

/** Plan names are short slugs ("professional"); anything else in the address is not shown back. */
const PLAN_NAME = /^[a-z0-9_-]{1,40}$/i;

const titleCase = (slug: string) =>
  slug
    .split(/[_-]/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');

/** `/checkout`: plan links end here; a plan is set up with us once the agency has an account. */
export function Component() {
  const [params] = useSearchParams();
  const requestedPlan = params.get('plan')?.trim() ?? '';
  const plan = PLAN_NAME.test(requestedPlan) ? requestedPlan : null;
  const requestedCycle = params.get('cycle');
  const cycle = requestedCycle === 'monthly' || requestedCycle === 'yearly' ? requestedCycle : null;

  const choice = new URLSearchParams();
  if (plan) choice.set('plan', plan);
  if (cycle) choice.set('cycle', cycle);
  const query = choice.toString();
  const register = query ? `/register?${query}` : '/register';

  return (
    <Container size="lg" py={{ base: 40, md: 72 }}>
      <Stack gap="xl" maw={680}>
        <Stack gap="md">
          <Title order={1} fz={{ base: 32, md: 44 }}>
            Subscribe to Coverdesk
          </Title>
          <Text fz="lg">
            A plan is attached to your agency, so it starts with an account and a free trial: you try
            everything before you pay.
          </Text>
        </Stack>

        {plan && (
          <Alert variant="light" icon={<IconCreditCard aria-hidden />} title="Your choice">
            You chose the <strong>{titleCase(plan)}</strong> plan{cycle ? `, billed ${cycle}` : ''}. Nothing
            is charged before you confirm it with us.
          </Alert>
        )}

        <Card withBorder padding="xl" radius="lg">
          <Stack gap="lg">
            <Title order={2} fz="h3">
              How to subscribe
            </Title>
            <List type="ordered" spacing="sm">
              <List.Item>
                Create your account. Your 14-day free trial starts at once, with no card needed.
              </List.Item>
              <List.Item>
                Set up your insurers, customers and policies, and see how Coverdesk fits your day.
              </List.Item>
              <List.Item>
                Contact us with your plan and monthly or yearly billing, and we set it up: paying online from
                Billing is on its way.
              </List.Item>
            </List>
            <Group gap="sm">
              <Button component={Link} to={register} size="md" mih={44}>
                Create your account
              </Button>
              <Button component={Link} to="/login?next=/billing" size="md" mih={44} variant="default">
                Sign in
              </Button>
            </Group>
            <Text fz="sm" c="gray.7">
              Already have an account? Sign in and you will land on Billing.
            </Text>
          </Stack>
        </Card>

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
