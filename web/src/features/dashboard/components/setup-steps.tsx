import { Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Screen, screenAt } from '../../../app/screens.js';
import type { AgencySetup } from '../api.js';

interface SetupStep {
  done: keyof AgencySetup;
  /** What the step is about ("insurers"), and the screen that lists it. */
  noun: string;
  screen: Screen;
  text: string;
  action: string;
  to: string;
}

/** Only while the agency has none: an insurer's rates are set per policy type, so the types come first. */
const POLICY_TYPES_STEP: SetupStep = {
  done: 'policyTypes',
  noun: 'policy types',
  screen: screenAt('/policy-types'),
  text: 'The products you sell (motor, home, term life, travel…): an insurer’s commission is set on each.',
  action: 'Add a policy type',
  to: '/policy-types/create',
};

const SETUP_STEPS: SetupStep[] = [
  {
    done: 'insurers',
    noun: 'insurers',
    screen: screenAt('/companies'),
    text: 'List the companies you place business with, the policy types each sells and the commission each pays.',
    action: 'Add an insurer',
    to: '/companies/create',
  },
  {
    done: 'customers',
    noun: 'customers',
    screen: screenAt('/customers'),
    text: 'Bring in the people and businesses you insure, with their contact details and preferences.',
    action: 'Add a customer',
    to: '/customers/create',
  },
  {
    done: 'policies',
    noun: 'policies',
    screen: screenAt('/policies'),
    text: 'Record each policy once; Coverdesk splits the premium into instalments and tracks the commission.',
    action: 'Record a policy',
    to: '/policies/create',
  },
];

/** The steps a new agency is shown: policy types first while it has none, then insurers, customers, policies. */
export const setupSteps = (setup: AgencySetup): SetupStep[] =>
  setup.policyTypes ? SETUP_STEPS : [POLICY_TYPES_STEP, ...SETUP_STEPS];

/** The first steps of a new agency, each done once its first record exists. */
export function SetupSteps({ setup }: { setup: AgencySetup }) {
  const steps = setupSteps(setup);
  return (
    <>
      <Title order={3} fz="h4">
        Setting up your agency
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: steps.length }}>
        {steps.map((step) => {
          const done = setup[step.done];
          return (
            <Card key={step.to} withBorder padding="lg">
              <Stack gap="xs" h="100%">
                <Group gap="sm" wrap="nowrap">
                  <ThemeIcon
                    variant="light"
                    size={36}
                    radius="md"
                    color={done ? 'green' : undefined}
                    aria-hidden
                  >
                    {done ? <IconCircleCheckFilled size={20} /> : <step.screen.icon size={20} />}
                  </ThemeIcon>
                  <Text fw={600}>
                    Your {step.noun}
                    {done && (
                      <Text span c="green.9" fz="sm" fw={500}>
                        {' '}
                        — done
                      </Text>
                    )}
                  </Text>
                </Group>
                <Text fz="sm" c="dimmed" flex={1}>
                  {step.text}
                </Text>
                <Group>
                  <Button
                    component={Link}
                    to={done ? step.screen.path : step.to}
                    variant={done ? 'default' : 'filled'}
                    mih={44}
                  >
                    {done ? `See your ${step.noun}` : step.action}
                  </Button>
                </Group>
              </Stack>
            </Card>
          );
        })}
      </SimpleGrid>
    </>
  );
}
